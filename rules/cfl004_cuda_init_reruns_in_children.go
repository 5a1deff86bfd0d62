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

// DocCFL004 documents cuda-init-reruns-in-children.
var DocCFL004 = &ruledoc.Doc{
	Code:           "CFL004",
	Name:           "cuda-init-reruns-in-children",
	Summary:        "CUDA is initialized at the top level of a main module that every child re-imports",
	Severity:       finding.Warning,
	DefaultEnabled: true,
	Precision:      "high",
	Tags:           []string{"performance", "cuda", "multiprocessing"},
	FixAvailable:   "sometimes",
	WhatItDoes: `Checks for CUDA initialized at the top level of a main module (outside
` + "`if __name__ == \"__main__\":`" + `, directly or in a module it imports at its top level) when the program
starts children that re-import the main module: the "spawn" start method (the default on macOS
and Windows, and ` + "`torch.multiprocessing.spawn`" + `), and "forkserver" on CPython releases whose server
does not import ` + "`__main__`" + ` (before 3.13.8), where each child imports it itself.`,
	WhyIsThisBad: `Every child runs the main module's top level again, so every child initializes CUDA and
creates its own context: hundreds of megabytes of GPU memory and seconds of start-up per child,
for work the child may never do. It is also a sign that the initialization was meant for the
parent only.`,
	Example: `import torch
import torch.multiprocessing as mp

device = torch.device("cuda")
weights = torch.randn(1024, 1024, device=device)   # runs again in every child

def worker(rank):
    print(rank, torch.cuda.current_device())

if __name__ == "__main__":
    mp.spawn(worker, nprocs=4)`,
	UseInstead: `import torch
import torch.multiprocessing as mp

def worker(rank):
    print(rank, torch.cuda.current_device())

if __name__ == "__main__":
    device = torch.device("cuda")
    weights = torch.randn(1024, 1024, device=device)
    mp.spawn(worker, nprocs=4)`,
	FixSafety: `As CFL002: the fix moves a plain run of top-level statements under the main guard, and is
unsafe because names it defines disappear from children and importers.`,
	Versions: `"spawn": every version and platform. "forkserver": CPython 3.10–3.13.7 (from 3.13.8 and
3.14 the server imports the main module once and CFL002 applies instead).`,
}

// CFL004 reports top-level CUDA initialization re-run in every child.
var CFL004 = &analysis.Analyzer{
	Name:     "CFL004",
	Doc:      "report top-level CUDA initialization that children re-run\n\n" + DocCFL004.Summary,
	URL:      DocCFL004.URL(),
	Requires: []*analysis.Analyzer{pyprogram.Analyzer, forkhazard.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		r := newReporter(pass)
		for _, z := range hazards(pass) {
			if z.Kind != model.ReinitInChildren {
				continue
			}
			at := z.Init.Site
			msg := fmt.Sprintf("%s initializes CUDA while the main module is imported%s, and every child started at %s re-imports it, initializing CUDA again %s. Move it under `if __name__ == \"__main__\":`",
				apiName(z.Init.API), r.importDetail(z), r.startsRef(z, at), versions(z))
			d := r.diagnostic(DocCFL004.Code, at, msg, r.initRelated(z.Init), r.startRelated(z.Start), r.moreStartsRelated(z))
			if at.Mod == z.Entry && len(z.Init.Chain) == 0 {
				if f, ok := r.guardFix(at, "Move the top-level CUDA initialization under `if __name__ == \"__main__\":`"); ok {
					d.SuggestedFixes = append(d.SuggestedFixes, f)
				}
			}
			pass.Report(d)
		}
		return nil, nil
	},
}
