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

// CFL002 reports CUDA initialized in the forkserver process when the
// children it forks may use CUDA.
var CFL002 = &analysis.Analyzer{
	Name:       "CFL002",
	Doc:        "report CUDA initialized in the forkserver process whose children may use CUDA\n\n" + ruledoc.CFL002.Summary,
	URL:        ruledoc.CFL002.URL(),
	Requires:   []*analysis.Analyzer{config.Analyzer, pyprogram.Analyzer, forkhazard.Analyzer},
	ResultType: fixsafety.TableType,
	Run: rule(func(r reporter, z *model.Hazard) {
		if z.Kind == model.ForkserverInherits && z.Child.Verdict == model.ChildUsesCUDA {
			r.reportForkserver(z, ruledoc.CFL002.Code)
		}
	}),
}

// reportForkserver reports a ForkserverInherits hazard as CFL002 or CFL006.
func (r reporter) reportForkserver(z *model.Hazard, code string) {
	at := z.At
	subject, detail := r.initSubject(z)
	// What happens to the children, on which versions.
	children := "children that touch CUDA will fail or hang " + versions(z)
	switch z.Child.Verdict {
	case model.ChildUsesCUDA:
		children = "the children use CUDA and will fail or hang " + versions(z)
		if z.Child.Evidence.Valid() {
			children = fmt.Sprintf("the children use CUDA (%s, %s) and will fail or hang %s", apiName(z.Child.API), r.where(z.Child.Evidence, at), versions(z))
		}
	case model.ChildUnknown:
		children = fmt.Sprintf("%s, and children that touch CUDA will fail or hang %s", z.Child.Reason, versions(z))
	case model.ChildNoCUDA:
		what := "the children never touch CUDA"
		if z.Child.Assumed {
			what = assumedCPU(z.Child)
		}
		children = fmt.Sprintf("%s, so this works %s, but any CUDA use in the children would fail", what, versions(z))
	}
	var msg string
	if z.Via == "__main__" {
		msg = fmt.Sprintf("%s initializes CUDA%s while the main module is imported%s, and the forkserver imports it before forking each child it starts for %s; %s%s. Move it under `if __name__ == \"__main__\":`",
			subject, detail, r.importDetail(z), r.startsRef(z, at), children, r.processGuardNote(z.Init, at))
	} else {
		msg = fmt.Sprintf("%s initializes CUDA%s when `%s` is imported, and `set_forkserver_preload` makes the forkserver import it before forking each child it starts for %s; %s. Initialize CUDA in the children instead",
			subject, detail, z.Via, r.startsRef(z, at), children)
	}
	d := r.diagnostic(code, at, msg, r.processGuardRelated(z.Init), r.initRelated(z.Init), r.startRelated(z.Start), r.moreStartsRelated(z), r.childRelated(z))
	var fixes []fixsafety.Fix
	if z.Via == "__main__" && at.Mod == z.Entry && len(z.Init.Chain) == 0 {
		if f, ok := r.guardFix(at, "Move the top-level CUDA initialization under `if __name__ == \"__main__\":`"); ok {
			fixes = append(fixes, f)
		}
	}
	r.report(d, fixes...)
}

// processGuardNote says, for an initialization under `if
// current_process().name == "MainProcess":`, why that guard does not keep it
// out of the forkserver.
func (r reporter) processGuardNote(init *model.InitRecord, at model.Site) string {
	if !init.ProcessGuard.Valid() {
		return ""
	}
	return fmt.Sprintf("; it runs under `if %s:` (%s), which does not keep it out of the forkserver: the server process is itself named MainProcess when it imports the main module",
		source(init.ProcessGuard), r.where(init.ProcessGuard, at))
}

func (r reporter) processGuardRelated(init *model.InitRecord) []analysis.RelatedInformation {
	if !init.ProcessGuard.Valid() {
		return nil
	}
	return []analysis.RelatedInformation{r.related(init.ProcessGuard, "This guard is true in the forkserver, which is named MainProcess")}
}
