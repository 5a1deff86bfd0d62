package ruledoc

import "github.com/cudaforklint/cudaforklint/finding"

// CFL003 documents benign-fork-after-cuda-init.
var CFL003 = &Doc{
	Code:           "CFL003",
	Name:           "benign-fork-after-cuda-init",
	Summary:        "A process forks after CUDA was initialized in it, but the children never touch CUDA, or whether they do could not be seen",
	Severity:       finding.Warning,
	DefaultEnabled: false,
	Precision:      "medium",
	Tags:           []string{"maintainability", "cuda", "multiprocessing"},
	FixAvailable:   "sometimes",
	WhatItDoes: `Checks for the same forks as CFL001 — a process forking after CUDA was initialized in it —
when the children provably never touch CUDA, or when the analysis could not see whether they do
(CFL001 needs every link seen: [what an error means](README.md#what-an-error-means)); the
message then names what could not be seen: the child's code, or the device of a value it
touches. Provably CPU-only children are CPU-only pool tasks, and the usual PyTorch
training loop, whose ` + "`DataLoader`" + ` workers load and collate batches on the CPU while the parent
moves them to the GPU. DataLoader workers whose dataset code cannot be seen, or whose dataset
touches a value on a device the analysis cannot tell (a device read from the environment), are
assumed CPU-only and reported here rather than as CFL001; the message says which. A ` + "`Manager()`" + `'s server process is not reported: it runs
only multiprocessing's own server loop, so no edit of the program makes it touch CUDA.

Not selected by default: select it with ` + "`--select CFL003`" + ` or ` + "`extend-select = [\"CFL003\"]`" + `.`,
	WhyIsThisBad: `It works today, and the fork matrix measured exactly that: children that never use CUDA
run fine. But the program is one edit away from CFL001: the first CUDA call added to a worker
(a ` + "`.cuda()`" + ` in ` + "`__getitem__`" + `, a GPU augmentation) fails with an error that points at the worker,
not at the parent's initialization.`,
	Example: `import torch
from torch.utils.data import DataLoader, TensorDataset

if __name__ == "__main__":
    model = torch.nn.Linear(8, 1).cuda()
    data = TensorDataset(torch.randn(64, 8))
    for epoch in range(3):
        for (x,) in DataLoader(data, batch_size=8, num_workers=2):
            model(x.cuda())`,
	UseInstead: `import torch
from torch.utils.data import DataLoader, TensorDataset

if __name__ == "__main__":
    model = torch.nn.Linear(8, 1).cuda()
    data = TensorDataset(torch.randn(64, 8))
    for epoch in range(3):
        for (x,) in DataLoader(data, batch_size=8, num_workers=2,
                               multiprocessing_context="spawn", persistent_workers=True):
            model(x.cuda())`,
	FixSafety: `The fixes are CFL001's: the "spawn" start method for every start of the finding,
given where the start method is chosen or where a default-start object is made
(` + "`DataLoader(..., multiprocessing_context=\"spawn\")`" + `), and the NVML check when
` + "`torch.cuda.is_available()`" + ` is the only initialization before the fork. They are unsafe for the
reasons given under CFL001.`,
	Versions: `As CFL001: explicit fork everywhere fork exists; the default start method only on
Python 3.11–3.13 on Linux (and 3.10 when target-version or requires-python includes it).`,
}
