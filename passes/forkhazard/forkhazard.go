// Package forkhazard defines the analyzer that simulates every checked
// module (and every function nothing calls) on every target Python version
// and platform, and returns the CUDA + fork hazards it finds. The rules
// CFL001–CFL005 each report their own kind of hazard from this one result,
// so the simulation runs once however many rules are selected.
package forkhazard

import (
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/analyzer/runstate"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
)

// Analyzer finds the hazards.
var Analyzer = &analysis.Analyzer{
	Name:       "forkhazard",
	Doc:        "simulate Python entry points and find CUDA + fork hazards\n\nThe forkhazard analyzer returns a *forkhazard.Result listing every hazard with the target configurations it holds on.",
	Run:        run,
	Requires:   []*analysis.Analyzer{pyprogram.Analyzer, runstate.Analyzer},
	ResultType: reflect.TypeOf((*Result)(nil)),
}

// Result lists the hazards, sorted by position, and the simulations the
// event budget cut.
type Result struct {
	Hazards []*model.Hazard
	Cuts    []model.BudgetCut
}

// Problems reports each simulation the budget cut as a notice at the code
// it ran (the driver's fileProblems): a hazard past the cut is not
// reported, and a run that looks clean should say so.
func (r *Result) Problems() (errs []finding.ToolError, notices []finding.Notice, skipped int) {
	for _, c := range r.Cuts {
		notices = append(notices, finding.Notice{Path: c.Module.Path, Line: c.Line(), Message: c.Message()})
	}
	return nil, notices, 0
}

func run(pass *analysis.Pass) (any, error) {
	prog := pass.ResultOf[pyprogram.Analyzer].(*pyprogram.Result)
	// Analyze each group of modules sharing a target set, in a fixed order
	// so the output is deterministic; the first group's modules are run as
	// they load.
	// A cancelled run (the run's context done) stops between entries and
	// returns the context's error once the load has stopped too.
	ctx := runstate.For(pass).Context()
	res := &Result{}
	for _, s := range prog.TargetSets() {
		hz, err := prog.Prog.AnalyzeLoading(ctx, prog.Loading(s), s)
		if err != nil {
			prog.Wait()
			return nil, err
		}
		res.Hazards = append(res.Hazards, hz...)
	}
	prog.Wait()
	res.Cuts = prog.Prog.BudgetCuts()
	return res, nil
}
