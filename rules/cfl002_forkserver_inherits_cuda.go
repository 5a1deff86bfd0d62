package rules

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/passes/forkhazard"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// DocCFL002 documents forkserver-inherits-cuda.
var DocCFL002 = &ruledoc.Doc{
	Code:           "CFL002",
	Name:           "forkserver-inherits-cuda",
	Summary:        "The forkserver process initializes CUDA while importing, and every child inherits it",
	Severity:       finding.Error,
	DefaultEnabled: true,
	Precision:      "high",
	Tags:           []string{"correctness", "cuda", "multiprocessing"},
	FixAvailable:   "sometimes",
	WhatItDoes: `Checks for programs using the "forkserver" start method (explicitly, or as the Linux default
from Python 3.14) whose forkserver process initializes CUDA while it imports:

- the main module's top level, outside ` + "`if __name__ == \"__main__\":`" + ` — the server imports
  ` + "`__main__`" + ` by default, but only in CPython releases with the fix for python/cpython#126631
  (3.14, and 3.13.8 onwards); before that the import was dead code;
- modules the main module imports at its top level (their top level runs in the server too);
- modules named in ` + "`set_forkserver_preload([...])`" + `, which the server imports on every version.`,
	WhyIsThisBad: `The forkserver is a fresh interpreter that forks every child. Whatever it runs before
forking — here, a CUDA initialization — every child inherits, and a child forked from a process
that initialized CUDA fails when it touches CUDA, exactly as with the "fork" start method. The
failure shows up in the children, far from the top-level line that caused it.`,
	Example: `import multiprocessing as mp
import torch

model = torch.nn.Linear(4, 4).cuda()   # runs in the forkserver too

def infer(x):
    return model(torch.tensor(x, device="cuda")).sum().item()

if __name__ == "__main__":
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(infer, [[1.0] * 4] * 4))`,
	UseInstead: `import multiprocessing as mp
import torch

def infer(x):
    model = torch.nn.Linear(4, 4).cuda()
    return model(torch.tensor(x, device="cuda")).sum().item()

if __name__ == "__main__":
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(infer, [[1.0] * 4] * 4))`,
	FixSafety: `When the initialization is part of a plain run of top-level assignments and calls in the
main module, the fix moves that run under the main guard (creating one at the end of the file if
there is none). It is unsafe: names it defines are then missing in children and in modules that
import this one.`,
	Versions: `Top-level code of the main module and the modules it imports: CPython 3.13.8+ and 3.14
(the server imports ` + "`__main__`" + ` only since the fix for python/cpython#126631; before that each
child re-imports the main module itself, which CFL004 reports). ` + "`set_forkserver_preload`" + `
modules: every version. Linux and macOS (forkserver does not exist on Windows; CUDA does not run
on macOS).`,
	References: []string{
		"https://github.com/python/cpython/issues/126631",
		"https://docs.python.org/3/library/multiprocessing.html#multiprocessing.set_forkserver_preload",
	},
}

// CFL002 reports CUDA initialized in the forkserver process.
var CFL002 = &analysis.Analyzer{
	Name:     "CFL002",
	Doc:      "report CUDA initialized in the forkserver process\n\n" + DocCFL002.Summary,
	URL:      DocCFL002.URL(),
	Requires: []*analysis.Analyzer{pyprogram.Analyzer, forkhazard.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		r := newReporter(pass)
		for _, z := range hazards(pass) {
			if z.Kind == model.ForkserverInherits {
				r.reportForkserver(z)
			}
		}
		return nil, nil
	},
}

func (r reporter) reportForkserver(z *model.Hazard) {
	at := z.Init.Site
	children := "children that touch CUDA will fail or hang"
	switch z.Child.Verdict {
	case model.ChildUsesCUDA:
		children = "the children use CUDA and will fail or hang"
	case model.ChildNoCUDA:
		children = "the children do not touch CUDA today, but any that does will fail"
	}
	var msg string
	if z.Via == "__main__" {
		msg = fmt.Sprintf("%s initializes CUDA while the main module is imported%s, and the forkserver imports it before forking each child it starts for %s; %s %s. Move it under `if __name__ == \"__main__\":`",
			apiName(z.Init.API), r.importDetail(z), r.startsRef(z, at), children, versions(z))
	} else {
		msg = fmt.Sprintf("%s initializes CUDA when `%s` is imported, and `set_forkserver_preload` makes the forkserver import it before forking each child it starts for %s; %s %s. Initialize CUDA in the children instead",
			apiName(z.Init.API), z.Via, r.startsRef(z, at), children, versions(z))
	}
	d := r.diagnostic(DocCFL002.Code, at, msg, r.initRelated(z.Init), r.startRelated(z.Start), r.moreStartsRelated(z), r.childRelated(z))
	if z.Via == "__main__" && at.Mod == z.Entry && len(z.Init.Chain) == 0 {
		if f, ok := r.guardFix(at, "Move the top-level CUDA initialization under `if __name__ == \"__main__\":`"); ok {
			d.SuggestedFixes = append(d.SuggestedFixes, f)
		}
	}
	r.pass.Report(d)
}
