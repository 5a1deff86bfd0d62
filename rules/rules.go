// Package rules holds cudaforklint's rules, one file per rule, each an
// *analysis.Analyzer named by its code with the rule's documentation beside it:
//
//	CFL001 fork-after-cuda-init         cfl001_fork_after_cuda_init.go
//	CFL002 forkserver-inherits-cuda     cfl002_forkserver_inherits_cuda.go
//	CFL003 benign-fork-after-cuda-init  cfl003_benign_fork_after_cuda_init.go
//	CFL004 cuda-init-reruns-in-children cfl004_cuda_init_reruns_in_children.go
//	CFL005 process-start-at-import      cfl005_process_start_at_import.go
//	CFL100 unused-noqa                  cfl100_unused_noqa.go (reported by the driver)
//
// Every rule requires the forkhazard pass (which simulates the program once)
// and reports its own kind of hazard; report.go formats locations, messages
// and related information the same way for all of them, and fixes.go builds
// their suggested fixes.
//
// To add a rule: write cflNNN_name.go with an Analyzer and a ruledoc.Doc,
// add it to All below, add fixtures under testdata/py/cflNNN/, and run
// `go test ./rules -update-docs` to render docs/rules/CFLNNN.md.
package rules

import (
	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// Rule is an analyzer with its documentation.
type Rule struct {
	Analyzer *analysis.Analyzer
	Doc      *ruledoc.Doc
}

// All returns every rule with an analyzer, in code order.
func All() []Rule {
	return []Rule{
		{CFL001, DocCFL001},
		{CFL002, DocCFL002},
		{CFL003, DocCFL003},
		{CFL004, DocCFL004},
		{CFL005, DocCFL005},
	}
}

// Docs returns the documentation of every rule, CFL100 included, in code
// order.
func Docs() []*ruledoc.Doc {
	var out []*ruledoc.Doc
	for _, r := range All() {
		out = append(out, r.Doc)
	}
	return append(out, DocCFL100)
}

// ByCode returns the rule with the given code (CFL100 has no Analyzer).
func ByCode(code string) (Rule, bool) {
	for _, r := range All() {
		if r.Doc.Code == code {
			return r, true
		}
	}
	if code == DocCFL100.Code {
		return Rule{Doc: DocCFL100}, true
	}
	return Rule{}, false
}
