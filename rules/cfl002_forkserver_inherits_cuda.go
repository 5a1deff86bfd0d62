package rules

import (
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// CFL002 reports CUDA initialized in the forkserver process when the
// children it forks use CUDA: a model.ForkserverInherits hazard
// (model/toplevel.go) whose child certainly reaches a CUDA use (an unseen
// child is CFL006's). Its message
// and fix (move the initialization under the main guard) are
// reportForkserver's, in toplevel_cuda.go; its documentation is
// ruledoc/cfl002.go.
var CFL002 = newRule(ruledoc.CFL002, "report CUDA initialized in the forkserver process whose children may use CUDA",
	func(r reporter, z *model.Hazard) {
		if z.Kind == model.ForkserverInherits && z.Seen() {
			r.reportForkserver(z, ruledoc.CFL002.Code)
		}
	})
