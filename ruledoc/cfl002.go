package ruledoc

import "github.com/cudaforklint/cudaforklint/finding"

// CFL002 documents forkserver-inherits-cuda.
var CFL002 = &Doc{
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
  (3.13.8+, 3.14.1+ and 3.15; not 3.14.0); before that the import was dead code;
- modules the main module imports at its top level (their top level runs in the server too);
- modules named in ` + "`set_forkserver_preload([...])`" + `, which the server imports on every version;

and whose children's code certainly touches CUDA. When the children provably never touch CUDA
the program works today, and CFL006 reports it instead, as CFL003 does for CFL001; so does
CFL006 when whether they touch it could not be seen (their code, or the device of a value they
touch: [what an error means](README.md#what-an-error-means)). What the forkserver imported is in
the children's ` + "`sys.modules`" + `: their own import of it runs nothing.

A ` + "`current_process().name == \"MainProcess\"`" + ` guard does not keep an initialization out of the
server: the forkserver process is itself named MainProcess when it imports the main module (spawn
children, named after their process, do skip it).

An initialization in the main module that only runs after a "spawn" or "forkserver" start the
server's import always makes first (the server's own method is the platform's default) is not
reported: the server raises RuntimeError at that start, because it is still bootstrapping, and
dies before it forks any child. That start is the hazard, and CFL005 reports it.`,
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
import this one. So it is only shown, never applied, when code outside the guard reads them (a
function a child runs, a method, top-level code after it; docs/fixes.md).`,
	Versions: `Top-level code of the main module and the modules it imports: CPython 3.13.8+, 3.14.1+
and 3.15 (the server imports ` + "`__main__`" + ` only since the fix for python/cpython#126631, released
in 3.13.8 and 3.14.1; before that, 3.14.0 included, each child re-imports the main module itself,
which CFL004 reports). On 3.15 an import made lazy (PEP 810: ` + "`lazy import`" + `, or named in
` + "`__lazy_modules__`" + `) runs where its name is first used, so a lazily imported initializer used
only in the children or under the main guard is not reported. ` + "`set_forkserver_preload`" + `
modules: every version. Linux and macOS (forkserver does not exist on Windows; CUDA does not run
on macOS).`,
	References: []string{
		"https://github.com/python/cpython/issues/126631",
		"https://docs.python.org/3/library/multiprocessing.html#multiprocessing.set_forkserver_preload",
	},
}
