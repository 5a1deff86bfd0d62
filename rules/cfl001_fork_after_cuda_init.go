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

// CFL001 reports forks after CUDA initialization whose children may use CUDA.
var CFL001 = &analysis.Analyzer{
	Name:       "CFL001",
	Doc:        "report forks after CUDA initialization whose children may use CUDA\n\n" + ruledoc.CFL001.Summary,
	URL:        ruledoc.CFL001.URL(),
	Requires:   []*analysis.Analyzer{config.Analyzer, pyprogram.Analyzer, forkhazard.Analyzer},
	ResultType: fixsafety.TableType,
	Run: rule(func(r reporter, z *model.Hazard) {
		if z.Kind == model.ForkAfterInit && z.Child.Verdict == model.ChildUsesCUDA {
			r.reportForkAfterInit(z, ruledoc.CFL001.Code)
		}
	}),
}

// reportForkAfterInit reports a ForkAfterInit hazard as CFL001 or CFL003.
func (r reporter) reportForkAfterInit(z *model.Hazard, code string) {
	at := z.At
	subject, detail := r.initSubject(z)
	start := r.startsRef(z, at) + loopNote(z)
	var msg string
	switch z.Child.Verdict {
	case model.ChildUsesCUDA:
		use := "it"
		if z.Child.Evidence.Valid() {
			use = fmt.Sprintf("%s, %s", apiName(z.Child.API), r.where(z.Child.Evidence, at))
		}
		msg = fmt.Sprintf("%s initializes CUDA%s before the process forks at %s; the child uses CUDA (%s) and will fail or hang %s. Use the \"spawn\" or \"forkserver\" start method, or initialize CUDA after the fork",
			subject, detail, start, use, versions(z))
	case model.ChildUnknown:
		msg = fmt.Sprintf("%s initializes CUDA%s before the process forks at %s; %s, and it fails or hangs %s if it touches CUDA. Use the \"spawn\" or \"forkserver\" start method, or initialize CUDA after the fork",
			subject, detail, start, z.Child.Reason, versions(z))
	default:
		what := "the children never touch CUDA"
		if z.Child.Assumed {
			what = assumedCPU(z.Child)
		}
		msg = fmt.Sprintf("%s initializes CUDA%s before the process forks at %s; %s, so this works %s, but any CUDA use in the children would fail. Prefer the \"spawn\" start method, or initialize CUDA after the fork",
			subject, detail, start, what, versions(z))
	}
	d := r.diagnostic(code, at, msg, r.initRelated(z.Init), r.startRelated(z.Start), r.moreStartsRelated(z), r.childRelated(z))
	var fixes []fixsafety.Fix
	if f, ok := r.spawnFix(z); ok {
		fixes = append(fixes, f)
	}
	if f, ok := r.nvmlFix(z.Init); ok && at == z.Init.Site {
		fixes = append(fixes, f)
	}
	r.report(d, fixes...)
}
