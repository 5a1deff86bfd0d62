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

// DocCFL001 documents fork-after-cuda-init.
var DocCFL001 = &ruledoc.Doc{
	Code:           "CFL001",
	Name:           "fork-after-cuda-init",
	Summary:        "A process forks after CUDA was initialized in it, and the child may use CUDA",
	Severity:       finding.Error,
	DefaultEnabled: true,
	Precision:      "high",
	Tags:           []string{"correctness", "cuda", "multiprocessing"},
	FixAvailable:   "sometimes",
	WhatItDoes: `Checks for processes that fork — through the "fork" start method (explicit, or the
Linux default up to Python 3.13), ` + "`os.fork()`" + `, a ` + "`multiprocessing.Pool`" + `, a
` + "`ProcessPoolExecutor`" + ` or PyTorch ` + "`DataLoader(num_workers>0)`" + ` workers — after CUDA was
initialized in the same process, when the child's code uses CUDA or cannot be seen.

Any initializer counts: torch, cupy, jax, numba, cuda.core, cuda.bindings, pycuda, tensorflow
and more (the catalog lists them, with the measurement behind each). Calls that only ask the
driver a question initialize it too: ` + "`torch.cuda.is_available()`" + `, ` + "`torch.cuda.get_device_name()`" + `,
` + "`cupy.cuda.runtime.getDeviceCount()`" + `, ` + "`cuda.core.Device()`" + `, ` + "`numba.cuda.gpus`" + ` and
` + "`jax.devices()`" + ` were all measured to break forked children.`,
	WhyIsThisBad: `CUDA driver state does not survive ` + "`fork()`" + `. A child forked from a process that ran
` + "`cuInit`" + ` fails as soon as it touches CUDA, far from the cause: PyTorch raises "Cannot
re-initialize CUDA in forked subprocess", CuPy ` + "`cudaErrorInitializationError`" + `, cuda.core and
cuda.bindings ` + "`CUDA_ERROR_NOT_INITIALIZED`" + `, numba "CUDA initialized before forking", and JAX
hangs or aborts.`,
	Example: `import multiprocessing as mp
import torch

def work(i):
    return torch.ones(1, device="cuda").item() + i

if __name__ == "__main__":
    print(torch.cuda.get_device_name(0))
    with mp.get_context("fork").Pool(4) as pool:
        print(pool.map(work, range(4)))`,
	UseInstead: `import multiprocessing as mp
import torch

def work(i):
    return torch.ones(1, device="cuda").item() + i

if __name__ == "__main__":
    print(torch.cuda.get_device_name(0))
    with mp.get_context("spawn").Pool(4) as pool:
        print(pool.map(work, range(4)))`,
	FixSafety: `The fix replaces an explicit "fork" start method with "spawn". It is unsafe: spawn
children re-import the main module and receive their arguments by pickling, so objects that
cannot be pickled, or top-level code that should not run again, change behaviour. When the
initialization is ` + "`torch.cuda.is_available()`" + `, a second unsafe fix sets
` + "`PYTORCH_NVML_BASED_CUDA_CHECK=1`" + ` so that the check asks NVML instead of the driver.`,
	Versions: `Explicit "fork" start methods, ` + "`os.fork()`" + ` and pools or DataLoaders built on them: every
version on Linux and macOS (CUDA itself does not run on macOS, so findings are reported for Linux).
The default start method is "fork" on Linux up to Python 3.13 and "forkserver" from 3.14, so code
relying on the default is flagged for 3.10–3.13 only.`,
	KnownProblems: `The child's CUDA use is decided from the code the analysis can see. A child that
calls into a library the catalog does not know, with a CUDA object it did not receive as an
argument, may be judged CPU-only (CFL003) although it uses CUDA.`,
	References: []string{
		"https://docs.python.org/3/library/multiprocessing.html#contexts-and-start-methods",
		"https://pytorch.org/docs/stable/notes/multiprocessing.html",
	},
}

// CFL001 reports forks after CUDA initialization whose children may use CUDA.
var CFL001 = &analysis.Analyzer{
	Name:     "CFL001",
	Doc:      "report forks after CUDA initialization whose children may use CUDA\n\n" + DocCFL001.Summary,
	URL:      DocCFL001.URL(),
	Requires: []*analysis.Analyzer{pyprogram.Analyzer, forkhazard.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		r := newReporter(pass)
		for _, z := range hazards(pass) {
			if z.Kind == model.ForkAfterInit && z.Child.Verdict != model.ChildNoCUDA {
				r.reportForkAfterInit(z, DocCFL001.Code)
			}
		}
		return nil, nil
	},
}

// reportForkAfterInit reports a ForkAfterInit hazard as CFL001 or CFL003.
func (r reporter) reportForkAfterInit(z *model.Hazard, code string) {
	at := z.Init.Site
	start := r.startsRef(z, at) + loopNote(z)
	var msg string
	switch z.Child.Verdict {
	case model.ChildUsesCUDA:
		use := "it"
		if z.Child.Evidence.Valid() {
			use = fmt.Sprintf("%s, %s", apiName(z.Child.API), r.where(z.Child.Evidence, at))
		}
		msg = fmt.Sprintf("%s initializes CUDA before the process forks at %s; the child uses CUDA (%s) and will fail or hang %s. Use the \"spawn\" or \"forkserver\" start method, or initialize CUDA after the fork",
			apiName(z.Init.API), start, use, versions(z))
	case model.ChildUnknown:
		msg = fmt.Sprintf("%s initializes CUDA before the process forks at %s; %s, and it fails or hangs %s if it touches CUDA. Use the \"spawn\" or \"forkserver\" start method, or initialize CUDA after the fork",
			apiName(z.Init.API), start, z.Child.Reason, versions(z))
	default:
		what := "the children never touch CUDA"
		if z.Child.Assumed {
			what = "the workers' dataset code could not be seen and is assumed CPU-only"
		}
		msg = fmt.Sprintf("%s initializes CUDA before the process forks at %s; %s, so this works %s, but any CUDA use in the children would fail. Prefer the \"spawn\" start method, or initialize CUDA after the fork",
			apiName(z.Init.API), start, what, versions(z))
	}
	d := r.diagnostic(code, at, msg, r.initRelated(z.Init), r.startRelated(z.Start), r.moreStartsRelated(z), r.childRelated(z))
	if f, ok := r.spawnFix(z.Start); ok {
		d.SuggestedFixes = append(d.SuggestedFixes, f)
	}
	if f, ok := r.nvmlFix(z.Init); ok {
		d.SuggestedFixes = append(d.SuggestedFixes, f)
	}
	r.pass.Report(d)
}
