package rules

import (
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// CFL005 reports processes started at import time under spawn or
// forkserver: a model.StartAtImport hazard (model/toplevel.go). Its message
// and fix (move the start under the main guard) are reportStartAtImport's,
// in toplevel_cuda.go; its documentation is ruledoc/cfl005.go.
var CFL005 = newRule(ruledoc.CFL005, "report processes started at import time under spawn or forkserver",
	func(r reporter, z *model.Hazard) {
		if z.Kind == model.StartAtImport {
			r.reportStartAtImport(z, ruledoc.CFL005.Code)
		}
	})
