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

// CFL006 reports CUDA initialized in the forkserver process when the
// children it forks never use CUDA.
var CFL006 = &analysis.Analyzer{
	Name:       "CFL006",
	Doc:        "report CUDA initialized in the forkserver process whose children never use CUDA\n\n" + ruledoc.CFL006.Summary,
	URL:        ruledoc.CFL006.URL(),
	Requires:   []*analysis.Analyzer{config.Analyzer, pyprogram.Analyzer, forkhazard.Analyzer},
	ResultType: fixsafety.TableType,
	Run: rule(func(r reporter, z *model.Hazard) {
		if z.Kind == model.ForkserverInherits && z.Child.Verdict != model.ChildUsesCUDA {
			r.reportForkserver(z, ruledoc.CFL006.Code)
		}
	}),
}
