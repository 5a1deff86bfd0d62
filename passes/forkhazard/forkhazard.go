// Package forkhazard defines the analyzer that simulates every checked
// module (and every function nothing calls) on every target Python version
// and platform, and returns the CUDA + fork hazards it finds. The rules
// CFL001–CFL005 each report their own kind of hazard from this one result,
// so the simulation runs once however many rules are selected.
package forkhazard

import (
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/target"
)

// Analyzer finds the hazards.
var Analyzer = &analysis.Analyzer{
	Name:       "forkhazard",
	Doc:        "simulate Python entry points and find CUDA + fork hazards\n\nThe forkhazard analyzer returns a *forkhazard.Result listing every hazard with the target configurations it holds on.",
	Run:        run,
	Requires:   []*analysis.Analyzer{pyprogram.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// Result lists the hazards, sorted by position.
type Result struct {
	Hazards []*model.Hazard
}

func run(pass *analysis.Pass) (any, error) {
	prog := pass.ResultOf[pyprogram.Analyzer].(*pyprogram.Result)
	// Analyze each group of modules sharing a target set; the groups are
	// visited in a fixed order so the output is deterministic.
	var sets []target.Set
	for s := range prog.Entries {
		sets = append(sets, s)
	}
	sort.Slice(sets, func(i, j int) bool { return sets[i] < sets[j] })
	res := &Result{}
	for _, s := range sets {
		res.Hazards = append(res.Hazards, prog.Prog.Analyze(prog.Entries[s], s)...)
	}
	return res, nil
}
