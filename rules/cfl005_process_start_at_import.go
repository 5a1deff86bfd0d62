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

// CFL005 reports processes started at import time under spawn or forkserver.
var CFL005 = &analysis.Analyzer{
	Name:       "CFL005",
	Doc:        "report processes started at import time under spawn or forkserver\n\n" + ruledoc.CFL005.Summary,
	URL:        ruledoc.CFL005.URL(),
	Requires:   []*analysis.Analyzer{config.Analyzer, pyprogram.Analyzer, forkhazard.Analyzer},
	ResultType: fixsafety.TableType,
	Run: rule(func(r reporter, z *model.Hazard) {
		if z.Kind != model.StartAtImport {
			return
		}
		at := z.At
		msg := fmt.Sprintf("Children are started at %s at import time, outside `if __name__ == \"__main__\":`; each child re-imports this module and stops with RuntimeError while bootstrapping %s. Move the start under the main guard",
			r.startsRef(z, at), versions(z))
		d := r.diagnostic(ruledoc.CFL005.Code, at, msg, r.startRelated(z.Start), r.moreStartsRelated(z))
		var fixes []fixsafety.Fix
		if len(z.Start.Chain) == 0 {
			if f, ok := r.guardFix(at, "Move the process start under `if __name__ == \"__main__\":`"); ok {
				fixes = append(fixes, f)
			}
		}
		r.report(d, fixes...)
	}),
}
