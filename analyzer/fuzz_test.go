package analyzer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// FuzzCheck runs the whole pipeline — parser, model, simulation, every rule,
// the conversion to findings — on arbitrary source, next to a local helper
// module it may import. The seed corpus is every fixture under testdata/py,
// so `go test` runs them all through this path. To explore further (see
// docs/fuzzing.md for the long runs and their results):
//
//	go test ./analyzer -run '^$' -fuzz '^FuzzCheck$' -fuzztime 60m -fuzzminimizetime 10x -parallel 2
//
// Without -fuzzminimizetime each new input is minimized for up to 60 s: a
// run of 150 s once executed 71 inputs.
func FuzzCheck(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/py/*/*.py")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("import os\npid = os.fork()\nif pid == 0:\n    import helper\n")
	f.Add("from . import helper\nfrom .. import x\nimport helper as h\nh.go()\n")
	loader, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: []string{"ALL"}, Isolated: true})
	if err != nil {
		f.Fatal(err)
	}
	// One directory per process, not per input: a worker runs its inputs one
	// at a time, and making and removing a directory for each input cost more
	// than most of the analysis.
	dir := f.TempDir()
	main := filepath.Join(dir, "main.py")
	const helper = "import torch\nimport multiprocessing as mp\nX = torch.zeros(1).cuda()\ndef go():\n    mp.Pool(2)\n"
	if err := os.WriteFile(filepath.Join(dir, "helper.py"), []byte(helper), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if err := os.WriteFile(main, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := analyzer.Run(context.Background(), analyzer.Options{
			Split:     pyprogram.Split,
			Paths:     []string{main},
			Analyzers: rules.All(),
			WorkDir:   dir,
			Policy:    config.NewPolicy(loader),
		})
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		for _, e := range res.Errors {
			if strings.HasPrefix(e.Message, "internal error") {
				t.Fatalf("internal error: %s", e.Message)
			}
		}
		sizes := map[string]int{"main.py": len(src), "helper.py": len(helper)}
		check := func(what string, l finding.Location) {
			size, ok := sizes[l.Path]
			if !ok {
				t.Fatalf("%s in unexpected file %q", what, l.Path)
			}
			if l.Start.Offset < 0 || l.End.Offset > size || l.Start.Offset > l.End.Offset || l.Start.Line < 1 || l.Start.Column < 1 {
				t.Fatalf("%s: bad location %+v (file size %d)", what, l, size)
			}
		}
		for _, fd := range res.Findings {
			check(fd.Code, fd.Location)
			for _, r := range fd.Related {
				check(fd.Code+" related", r.Location)
			}
			for _, fx := range fd.Fixes {
				for _, e := range fx.Edits {
					check(fd.Code+" fix", e.Location)
				}
			}
		}
	})
}
