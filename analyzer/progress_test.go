package analyzer_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/rules"
)

// TestProgressCounts: a run's Progress ends with every file counted, each
// file read counted once (the checked ones and the local module they
// import, which is not checked), and every program analyzed; a second
// run on the same Progress starts from zero.
func TestProgressCounts(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.py":   "import multiprocessing as mp\nimport helper\n\nif __name__ == '__main__':\n    helper.setup()\n    mp.Pool(2)\n",
		"other.py":  "import multiprocessing as mp\n\nif __name__ == '__main__':\n    mp.Pool(2)\n",
		"helper.py": "import torch\n\n\ndef setup():\n    torch.cuda.init()\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var p analyzer.Progress
	for round := 0; round < 2; round++ {
		_, err := analyzer.Run(context.Background(), analyzer.Options{
			Paths:     []string{filepath.Join(dir, "main.py"), filepath.Join(dir, "other.py")},
			Analyzers: rules.All(),
			WorkDir:   dir,
			Progress:  &p,
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Files.Load(); got != 2 {
			t.Errorf("round %d: Files = %d, want 2", round, got)
		}
		if got := p.Read.Load(); got != 3 {
			t.Errorf("round %d: Read = %d, want 3 (two scripts and the module one imports)", round, got)
		}
		if n, done := p.Programs.Load(), p.Analyzed.Load(); n == 0 || done != n {
			t.Errorf("round %d: analyzed %d of %d programs", round, done, n)
		}
	}
}
