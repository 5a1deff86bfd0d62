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

// CFL002 reports CUDA initialized in the forkserver process.
var CFL002 = &analysis.Analyzer{
	Name:       "CFL002",
	Doc:        "report CUDA initialized in the forkserver process\n\n" + ruledoc.CFL002.Summary,
	URL:        ruledoc.CFL002.URL(),
	Requires:   []*analysis.Analyzer{config.Analyzer, pyprogram.Analyzer, forkhazard.Analyzer},
	ResultType: fixsafety.TableType,
	Run: rule(func(r reporter, z *model.Hazard) {
		if z.Kind == model.ForkserverInherits {
			r.reportForkserver(z)
		}
	}),
}

func (r reporter) reportForkserver(z *model.Hazard) {
	at := z.Init.Site
	children := "children that touch CUDA will fail or hang"
	switch z.Child.Verdict {
	case model.ChildUsesCUDA:
		children = "the children use CUDA and will fail or hang"
	case model.ChildNoCUDA:
		children = "the children do not touch CUDA today, but any that does will fail"
	}
	var msg string
	if z.Via == "__main__" {
		msg = fmt.Sprintf("%s initializes CUDA while the main module is imported%s, and the forkserver imports it before forking each child it starts for %s; %s %s. Move it under `if __name__ == \"__main__\":`",
			apiName(z.Init.API), r.importDetail(z), r.startsRef(z, at), children, versions(z))
	} else {
		msg = fmt.Sprintf("%s initializes CUDA when `%s` is imported, and `set_forkserver_preload` makes the forkserver import it before forking each child it starts for %s; %s %s. Initialize CUDA in the children instead",
			apiName(z.Init.API), z.Via, r.startsRef(z, at), children, versions(z))
	}
	d := r.diagnostic(ruledoc.CFL002.Code, at, msg, r.initRelated(z.Init), r.startRelated(z.Start), r.moreStartsRelated(z), r.childRelated(z))
	var fixes []fixsafety.Fix
	if z.Via == "__main__" && at.Mod == z.Entry && len(z.Init.Chain) == 0 {
		if f, ok := r.guardFix(at, "Move the top-level CUDA initialization under `if __name__ == \"__main__\":`"); ok {
			fixes = append(fixes, f)
		}
	}
	r.report(d, fixes...)
}
