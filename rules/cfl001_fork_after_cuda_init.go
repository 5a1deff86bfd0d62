package rules

import (
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// CFL001 reports forks after CUDA initialization whose children use CUDA:
// a model.ForkAfterInit hazard (model/simulate.go) whose child certainly
// reaches a CUDA use (an error is a proof: an unseen child is CFL003's). Its message and fixes (switch to "spawn", or make
// torch.cuda.is_available() ask NVML) are reportForkAfterInit's, in
// start_method.go; its documentation is ruledoc/cfl001.go.
var CFL001 = newRule(ruledoc.CFL001, "report forks after CUDA initialization whose children may use CUDA",
	func(r reporter, z *model.Hazard) {
		if z.Kind == model.ForkAfterInit && z.Seen() {
			r.reportForkAfterInit(z, ruledoc.CFL001.Code)
		}
	})
