package rules

import (
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// CFL006 reports CUDA initialized in the forkserver process when the
// children it forks are not seen to use CUDA: a model.ForkserverInherits
// hazard (model/toplevel.go) whose child is CPU-only or could not be seen. Its message and fix are
// reportForkserver's, in toplevel_cuda.go, as for CFL002; its
// documentation is ruledoc/cfl006.go.
var CFL006 = newRule(ruledoc.CFL006, "report CUDA initialized in the forkserver process whose children never use CUDA",
	func(r reporter, z *model.Hazard) {
		if z.Kind == model.ForkserverInherits && !z.Seen() {
			r.reportForkserver(z, ruledoc.CFL006.Code)
		}
	})
