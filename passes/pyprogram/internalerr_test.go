package pyprogram_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/rules"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// breakingTrees is a tree cache that hands back, for sources holding
// marker, a tree the model cannot index (a nil statement no parse makes):
// it stands for any bug that makes indexing a module panic.
type breakingTrees struct{ marker []byte }

func (b breakingTrees) Load(src []byte, _ *syntax.Arenas) (*syntax.File, bool) {
	if !bytes.Contains(src, b.marker) {
		return nil, false
	}
	f, err := syntax.Parse(src)
	if err != nil {
		return nil, false
	}
	f.Body = append(f.Body, (*syntax.ExprStmt)(nil))
	return f, true
}

func (breakingTrees) Store([]byte, *syntax.File) {}

// TestModuleThatCannotBeIndexed: a module the tool fails to index costs
// that module, reported as a tool error, and not the run: the load and the
// prefetch build modules on their own goroutines, where a panic would end
// the process.
func TestModuleThatCannotBeIndexed(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"train.py": "import torch\nimport multiprocessing as mp\nimport helper\n\n" +
			"def work(x):\n    return helper.double(x)\n\n" +
			"if __name__ == '__main__':\n    torch.cuda.init()\n    mp.get_context('fork').Pool(2).map(work, [1])\n",
		"helper.py": "# BREAK\ndef double(x):\n    return 2 * x\n",
		"eval.py":   "# BREAK\nimport torch\nimport multiprocessing as mp\n\nif __name__ == '__main__':\n    torch.cuda.init()\n    mp.get_context('fork').Pool(2).map(print, [1])\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, full := range []bool{false, true} {
		res, err := analyzer.Run(context.Background(), analyzer.Options{
			Paths:     []string{filepath.Join(dir, "train.py"), filepath.Join(dir, "eval.py")},
			Analyzers: rules.All(),
			WorkDir:   dir,
			Policy:    allRules(t, dir),
			Split:     pyprogram.Split,
			Trees:     breakingTrees{marker: []byte("# BREAK")},
			ForceFull: full,
		})
		if err != nil {
			t.Fatal(err)
		}
		var errs []string
		for _, e := range res.Errors {
			errs = append(errs, e.Path+": "+e.Message)
		}
		if len(errs) != 2 ||
			!strings.HasPrefix(errs[0], "eval.py: internal error indexing the module") ||
			!strings.HasPrefix(errs[1], "helper.py: a module the checked files import could not be loaded") {
			t.Errorf("full=%v: tool errors\n%s\nwant eval.py's internal error, then helper.py's as an import", full, strings.Join(errs, "\n"))
		}
		// train.py is analysed without helper: its fork after CUDA stays.
		found := false
		for _, f := range res.Findings {
			found = found || f.Path == "train.py"
		}
		if !found {
			t.Errorf("full=%v: no finding in train.py", full)
		}
	}
}
