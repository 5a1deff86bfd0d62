package rules

import (
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// CFL007 reports processes started from a notebook under spawn or
// forkserver whose children run code defined in the notebook: a
// model.NotebookTarget hazard (model/notebook.go). Its message and its
// display-only fix (move the code into a module) are reportNotebookTarget's,
// in notebook_target.go; its
// documentation is ruledoc/cfl007.go.
var CFL007 = newRule(ruledoc.CFL007, "report spawn and forkserver children that run a function defined in a notebook",
	func(r reporter, z *model.Hazard) {
		if z.Kind == model.NotebookTarget {
			r.reportNotebookTarget(z, ruledoc.CFL007.Code)
		}
	})
