package ruledoc

import "github.com/cudaforklint/cudaforklint/finding"

// CFL004 documents cuda-init-reruns-in-children.
var CFL004 = &Doc{
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
does not import ` + "`__main__`" + ` (before 3.13.8, and 3.14.0), where each child imports it itself.

When the initialization runs inside a library the script imports (` + "`import torch_geometric`" + ` runs
cuInit while importing), the finding is reported at the script's import, once per script. It is
not reported when every initialization is a library's own, run by importing it (inside a library
the script imports, or a library that initializes when imported, such as ` + "`import cudf`" + `), and
none that always runs creates a context: a driver-only initialization (cuInit without a context,
as ` + "`import torch_geometric`" + ` was measured to do) costs each child no GPU memory, and the children
usually need the library anyway. An initialization the program's own code calls is always
reported, driver-only or not: it can move under the main guard.

Nor is it reported for an initialization that only runs after a "spawn" or "forkserver" start
the re-import always makes first (a top-level ` + "`trainer.fit(...)`" + ` whose DataLoaders have workers,
a top-level ` + "`Pool`" + `, outside any ` + "`try`" + `): a child that starts a process while it is still
importing the main module raises RuntimeError ("An attempt has been made to start a new process
before the current process has finished its bootstrapping phase") and dies there, before the
initialization. That start is the hazard, and CFL005 reports it. A child starts with its parent's
start method, so a start that takes the default takes the method the parent had set. For the same
reason a top-level ` + "`set_start_method(...)`" + ` without ` + "`force=True`" + ` (outside any ` + "`try`" + `) raises
RuntimeError ("context has already been set") in every child, which never reaches an initialization
after it.`,
	WhyIsThisBad: `Every child runs the main module's top level again, so every child initializes CUDA
again: a context is hundreds of megabytes of GPU memory and seconds of start-up per child (on the
default device, even for a child meant to use another one), and a driver initialization alone
still costs start-up time, for work the child may never do. It is also a sign that the
initialization was meant for the parent only.`,
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
unsafe because names it defines disappear from children and importers; it is only shown, never
applied, when code outside the guard reads them.`,
	Versions: `"spawn": every version and platform. "forkserver": CPython 3.11–3.13.7 and 3.14.0, the
forkserver default's first release (3.10 too when asked for; from 3.13.8, 3.14.1 and in 3.15 the
server imports the main module once and CFL002 applies instead).`,
}
