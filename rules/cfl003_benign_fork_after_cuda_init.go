package rules

import (
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// CFL003 reports forks after CUDA initialization whose children are not
// seen to use CUDA: a model.ForkAfterInit hazard (model/simulate.go) whose
// child is CPU-only or could not be seen (the message says which). Its message and fixes are reportForkAfterInit's, in
// start_method.go, as for CFL001; its documentation is ruledoc/cfl003.go.
var CFL003 = newRule(ruledoc.CFL003, "report forks after CUDA initialization whose children never use CUDA",
	func(r reporter, z *model.Hazard) {
		if z.Kind == model.ForkAfterInit && !z.Seen() {
			r.reportForkAfterInit(z, ruledoc.CFL003.Code)
		}
	})
