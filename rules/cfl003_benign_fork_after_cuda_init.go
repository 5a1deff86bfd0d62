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

// CFL003 reports forks after CUDA initialization whose children never use CUDA.
var CFL003 = &analysis.Analyzer{
	Name:       "CFL003",
	Doc:        "report forks after CUDA initialization whose children never use CUDA\n\n" + ruledoc.CFL003.Summary,
	URL:        ruledoc.CFL003.URL(),
	Requires:   []*analysis.Analyzer{config.Analyzer, pyprogram.Analyzer, forkhazard.Analyzer},
	ResultType: fixsafety.TableType,
	Run: rule(func(r reporter, z *model.Hazard) {
		if z.Kind == model.ForkAfterInit && z.Child.Verdict != model.ChildUsesCUDA {
			r.reportForkAfterInit(z, ruledoc.CFL003.Code)
		}
	}),
}
