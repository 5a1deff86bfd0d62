// Package rules holds cudaforklint's rules, one file per rule, each an
// *analysis.Analyzer named by its code and built by newRule; its
// documentation (code, name, severity, prose) is the ruledoc.Doc of the
// same code in ruledoc/cflNNN.go:
//
//	CFL001 fork-after-cuda-init            cfl001_fork_after_cuda_init.go
//	CFL002 forkserver-inherits-cuda        cfl002_forkserver_inherits_cuda.go
//	CFL003 benign-fork-after-cuda-init     cfl003_benign_fork_after_cuda_init.go
//	CFL004 cuda-init-reruns-in-children    cfl004_cuda_init_reruns_in_children.go
//	CFL005 process-start-at-import         cfl005_process_start_at_import.go
//	CFL006 benign-forkserver-inherits-cuda cfl006_benign_forkserver_inherits_cuda.go
//	CFL007 notebook-target-under-spawn     cfl007_notebook_target_under_spawn.go
//	CFL100 unused-noqa                     (reported by the driver, analyzer/suppress.go)
//
// Every rule requires the forkhazard pass (which simulates the program
// once) and reports its own kind of model.Hazard. The rules come in two
// families, each sharing its messages and fixes in one file:
//
//   - start_method.go, "use spawn": a fork after CUDA was initialized
//     (CFL001, CFL003); the fixes switch the start method to "spawn", or
//     make torch.cuda.is_available() ask NVML instead of initializing.
//   - toplevel_cuda.go, "move it under the main guard": CUDA initialized,
//     or processes started, while the main module is imported, which the
//     forkserver and spawn children do again (CFL002, CFL004, CFL005,
//     CFL006); the fix moves the code under `if __name__ == "__main__":`.
//
// CFL007 (a notebook's function run by spawn children) has its message in
// its own file. report.go formats locations, messages and related
// information the same way for all of them and reports only in files where
// the rule is selected; source.go says where edits go in a file and how
// they keep its style.
//
// Every fix changes what the program does at run time (that is the point),
// so it is unsafe in ruff's sense: --fix applies it only with
// --unsafe-fixes. A fix that the module's def-use facts (model/defuse.go)
// say could break the program (a NameError in a child, a function a spawn
// child cannot import) is display-only instead, its message saying what is
// in the way (docs/fixes.md). Each edit keeps the file parseable; the fixer
// re-parses and rolls back otherwise.
//
// To add a rule: write ruledoc/cflNNN.go (its Doc) and add it to
// ruledoc.All; write cflNNN_name.go declaring its analyzer with newRule and
// add it to All below; add fixtures under testdata/py/cflNNN/ (TestFixtures
// finds every directory there); and run `go test ./rules -update-docs` to
// render docs/rules/CFLNNN.md.
package rules

import (
	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/fixsafety"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/passes/forkhazard"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// All returns every rule's analyzer, in code order.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{CFL001, CFL002, CFL003, CFL004, CFL005, CFL006, CFL007}
}

// newRule builds a rule's analyzer from its documentation: named by its
// code, linking its page, requiring the forkhazard pass, and returning the
// table of its fixes' applicability for the driver. what is the analyzer's
// one-line Doc; report is called with each of the program's hazards and
// reports those that are the rule's.
func newRule(doc *ruledoc.Doc, what string, report func(r reporter, z *model.Hazard)) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       doc.Code,
		Doc:        what + "\n\n" + doc.Summary,
		URL:        doc.URL(),
		Requires:   []*analysis.Analyzer{config.Analyzer, pyprogram.Analyzer, forkhazard.Analyzer},
		ResultType: fixsafety.TableType,
		Run: func(pass *analysis.Pass) (any, error) {
			r := newReporter(pass)
			for _, z := range pass.ResultOf[forkhazard.Analyzer].(*forkhazard.Result).Hazards {
				report(r, z)
			}
			return r.fixes, nil
		},
	}
}
