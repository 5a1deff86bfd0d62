package rules

import (
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// CFL004 reports top-level CUDA initialization re-run in every child: a
// model.ReinitInChildren hazard (model/toplevel.go). Its message and fix
// (move the initialization under the main guard) are reportReinit's, in
// toplevel_cuda.go; its documentation is ruledoc/cfl004.go.
var CFL004 = newRule(ruledoc.CFL004, "report top-level CUDA initialization that children re-run",
	func(r reporter, z *model.Hazard) {
		if z.Kind == model.ReinitInChildren {
			r.reportReinit(z, ruledoc.CFL004.Code)
		}
	})
