package model

import (
	"context"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// breakingSource hands the indexer a tree it cannot index for one path:
// a nil statement, which no parse makes, stands for any bug that makes
// indexing panic.
type breakingSource struct {
	memSource
	broken string
}

func (b breakingSource) Parse(path string) (*syntax.File, []byte, error) {
	f, src, err := b.memSource.Parse(path)
	if path == b.broken && err == nil {
		f.Body = append(f.Body, (*syntax.ExprStmt)(nil))
	}
	return f, src, err
}

func TestIndexPanicIsTheModulesError(t *testing.T) {
	files := memSource{
		"/p/main.py": `import helper
import torch
import multiprocessing as mp
torch.cuda.init()
mp.Process(target=print).start()
`,
		"/p/helper.py": "x = 1\n",
	}
	for _, broken := range []string{"/p/helper.py", "/p/main.py"} {
		t.Run(broken, func(t *testing.T) {
			prog := NewProgram(breakingSource{files, broken}, Options{})
			prog.PrefetchImports(context.Background(), 2) // the imports are built on other goroutines too
			m, err := prog.Module("/p/main.py")
			if broken == "/p/main.py" {
				if err == nil || !strings.Contains(err.Error(), "internal error indexing the module") {
					t.Fatalf("loading the broken entry: err = %v, want the internal error", err)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				// The rest of the program is analysed: the entry's own hazard
				// is still found.
				if got := describeHazards(prog.Analyze([]*Module{m}, pytarget.All())); got == "" {
					t.Errorf("no hazard in the entry once its import failed to load")
				}
			}
			errs := prog.InternalErrors()
			if len(errs) != 1 || errs[broken] == nil {
				t.Fatalf("InternalErrors = %v, want only %s", errs, broken)
			}
		})
	}
}
