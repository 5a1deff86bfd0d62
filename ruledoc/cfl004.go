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
