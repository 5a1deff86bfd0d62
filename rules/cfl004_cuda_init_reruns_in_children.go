package rules

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/fixsafety"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/passes/forkhazard"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// CFL004 reports top-level CUDA initialization re-run in every child.
var CFL004 = &analysis.Analyzer{
	Name:       "CFL004",
	Doc:        "report top-level CUDA initialization that children re-run\n\n" + ruledoc.CFL004.Summary,
	URL:        ruledoc.CFL004.URL(),
	Requires:   []*analysis.Analyzer{config.Analyzer, pyprogram.Analyzer, forkhazard.Analyzer},
	ResultType: fixsafety.TableType,
	Run: rule(func(r reporter, z *model.Hazard) {
		if z.Kind != model.ReinitInChildren {
			return
		}
		at := z.Init.Site
		msg := fmt.Sprintf("%s initializes CUDA while the main module is imported%s, and every child started at %s re-imports it, initializing CUDA again %s. Move it under `if __name__ == \"__main__\":`",
			apiName(z.Init.API), r.importDetail(z), r.startsRef(z, at), versions(z))
		d := r.diagnostic(ruledoc.CFL004.Code, at, msg, r.initRelated(z.Init), r.startRelated(z.Start), r.moreStartsRelated(z))
		var fixes []fixsafety.Fix
		if at.Mod == z.Entry && len(z.Init.Chain) == 0 {
			if f, ok := r.guardFix(at, "Move the top-level CUDA initialization under `if __name__ == \"__main__\":`"); ok {
				fixes = append(fixes, f)
			}
		}
		r.report(d, fixes...)
	}),
}
