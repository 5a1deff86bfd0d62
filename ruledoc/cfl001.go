package ruledoc

import "github.com/cudaforklint/cudaforklint/finding"

// CFL001 documents fork-after-cuda-init.
var CFL001 = &Doc{
	Code:           "CFL001",
	Name:           "fork-after-cuda-init",
	Summary:        "A process forks after CUDA was initialized in it, and the child uses CUDA",
	Severity:       finding.Error,
	DefaultEnabled: true,
	Precision:      "high",
	Tags:           []string{"correctness", "cuda", "multiprocessing"},
	FixAvailable:   "sometimes",
	WhatItDoes: `Checks for processes that fork — through the "fork" start method (explicit, or the
Linux default up to Python 3.13), ` + "`os.fork()`" + `, a ` + "`multiprocessing.Pool`" + `, a
` + "`ProcessPoolExecutor`" + ` or PyTorch ` + "`DataLoader(num_workers>0)`" + ` workers — after CUDA was
initialized in the same process, when the child's code certainly uses CUDA. An error needs every
link seen ([what an error means](README.md#what-an-error-means)): when the analysis could not see
whether the child touches CUDA — its code, or the device of a value it touches — the fork is
reported as CFL003, a warning, with what could not be seen.

The child's code is read with what the parent hands it: ` + "`Process(args=...)`" + `, the elements of a
pool's ` + "`map`" + `, ` + "`functools.partial`" + ` arguments, ` + "`initargs`" + `, the attributes a ` + "`Dataset`" + ` or a callable
object was constructed with. A method called on a CPU tensor (` + "`torch.tensor([i]).float()`" + `) is
not CUDA use; the same method on a tensor the parent put on the GPU is. When the analysis cannot
tell on which device a value the child touches lives (a device read from the environment), the
CFL003 message says so instead of guessing; for DataLoader workers such a value is taken to be on
the CPU, as datasets almost always are. A child's ` + "`import`" + ` of a module the parent had
already imported runs nothing (the module is in ` + "`sys.modules`" + `), so what that module's top level
does is not the child's CUDA use. Code the child reaches only under an
NCCL process group (` + "`if dist.get_backend() == \"nccl\":`" + `) does not count once the child set up
its group with another backend.

Any initializer counts: torch, cupy, jax, numba, cuda.core, cuda.bindings, pycuda, tensorflow
and more (the catalog lists them, with the measurement behind each). Calls that only ask the
driver a question initialize it too: ` + "`torch.cuda.is_available()`" + `, ` + "`torch.cuda.get_device_name()`" + `,
` + "`cupy.cuda.runtime.getDeviceCount()`" + `, ` + "`cuda.core.Device()`" + `, ` + "`numba.cuda.gpus`" + ` and
` + "`jax.devices()`" + ` were all measured to break forked children.

A ` + "`DataLoader`" + `'s workers fork where it is iterated — a ` + "`for`" + ` loop, ` + "`iter()`" + `, ` + "`enumerate()`" + `,
` + "`tqdm(loader)`" + ` iterated, a Lightning trainer's ` + "`fit`" + `, a local function it is passed to — and again at
each iteration unless ` + "`persistent_workers=True`" + `; a loader made or wrapped (` + "`accelerator.prepare`" + `)
and never iterated forks nothing, and walking a list or dict of loaders forks nothing itself: each
loader forks where it is iterated in turn. The finding is reported at the first initialization that always
runs before the fork (one inside a loop after the fork only when nothing earlier initialized: the
fork on the loop's next iteration), and, when that initialization happens inside a library, at the
script's own import or call of it.`,
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
	FixSafety: `The fix gives every start of the finding the "spawn" start method: an explicit "fork"
becomes "spawn", and a start that takes the default method is given "spawn" where its object is
made: ` + "`mp.Pool(4)`" + ` becomes ` + "`mp.get_context(\"spawn\").Pool(4)`" + `, a ` + "`Pool`" + ` or ` + "`Process`" + `
imported by name becomes ` + "`multiprocessing.get_context(\"spawn\").Pool(...)`" + ` (importing
` + "`multiprocessing`" + ` when nothing binds it), a ` + "`ProcessPoolExecutor(...)`" + ` is given
` + "`mp_context=multiprocessing.get_context(\"spawn\")`" + ` and a ` + "`DataLoader(...)`" + `
` + "`multiprocessing_context=\"spawn\"`" + `. The message says the same for the start it names. It is unsafe: spawn children re-import the
main module and receive their arguments by pickling, so objects that cannot be pickled, or
top-level code that should not run again, change behaviour. It is only shown, never applied, when
a spawn child could not run what the fork child ran: the start does not run under the main guard,
a child runs a lambda or a function it cannot import, or that function reads a global only the
main guard binds (docs/fixes.md). It is not offered when a start cannot be switched by an edit
(` + "`os.fork()`" + `, a ` + "`Process`" + ` subclass, a start method chosen by an expression, a call that may pass
the argument through ` + "`**`" + `). When every initialization before the fork is
` + "`torch.cuda.is_available()`" + `, a second unsafe fix sets ` + "`PYTORCH_NVML_BASED_CUDA_CHECK=1`" + ` so that
the check asks NVML instead of the driver; it is not offered when anything else initializes CUDA
before the fork (a ` + "`.to(device)`" + ` after the check), since the fork would still follow an
initialization.`,
	Versions: `Explicit "fork" start methods, ` + "`os.fork()`" + ` and pools or DataLoaders built on them: every
version on Linux and macOS (CUDA itself does not run on macOS, so findings are reported for Linux).
The default start method is "fork" on Linux up to Python 3.13 and "forkserver" from 3.14, so code
relying on the default is flagged for 3.11–3.13 only (3.10 too when target-version or
requires-python includes it).`,
	KnownProblems: `The child's CUDA use is decided from the code the analysis can see. A child that
calls into a library the catalog does not know, with a CUDA object it did not receive as an
argument, may be judged CPU-only (CFL003) although it uses CUDA. A function called with many
different arguments is followed with the first sixteen of them; its other calls are read with its
parameters unknown.`,
	References: []string{
		"https://docs.python.org/3/library/multiprocessing.html#contexts-and-start-methods",
		"https://pytorch.org/docs/stable/notes/multiprocessing.html",
	},
}
