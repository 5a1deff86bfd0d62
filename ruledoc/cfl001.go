package ruledoc

import "github.com/cudaforklint/cudaforklint/finding"

// CFL001 documents fork-after-cuda-init.
var CFL001 = &Doc{
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
