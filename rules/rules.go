// Package rules holds cudaforklint's rules, one file per rule, each an
// *analysis.Analyzer named by its code; its documentation (code, name,
// severity, prose) is the ruledoc.Doc of the same code in ruledoc/cflNNN.go:
//
//	CFL001 fork-after-cuda-init         cfl001_fork_after_cuda_init.go
//	CFL002 forkserver-inherits-cuda     cfl002_forkserver_inherits_cuda.go
//	CFL003 benign-fork-after-cuda-init  cfl003_benign_fork_after_cuda_init.go
//	CFL004 cuda-init-reruns-in-children cfl004_cuda_init_reruns_in_children.go
//	CFL005 process-start-at-import      cfl005_process_start_at_import.go
//	CFL100 unused-noqa                  (reported by the driver, analyzer/suppress.go)
//
// Every rule requires the forkhazard pass (which simulates the program once)
// and reports its own kind of hazard; report.go formats locations, messages
// and related information the same way for all of them, reports only in
// files where the rule is selected, and fixes.go builds their suggested
// fixes.
//
// To add a rule: write ruledoc/cflNNN.go (its Doc) and add it to
// ruledoc.All; write cflNNN_name.go with the Analyzer and add it to All
// below; add fixtures under testdata/py/cflNNN/ (TestFixtures finds every
// directory there); and run `go test ./rules -update-docs` to render
// docs/rules/CFLNNN.md.
package rules

import "golang.org/x/tools/go/analysis"

// All returns every rule's analyzer, in code order.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{CFL001, CFL002, CFL003, CFL004, CFL005}
}
