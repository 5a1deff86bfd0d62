package ruledoc

import "github.com/cudaforklint/cudaforklint/finding"

// CFL006 documents benign-forkserver-inherits-cuda.
var CFL006 = &Doc{
	Code:           "CFL006",
	Name:           "benign-forkserver-inherits-cuda",
	Summary:        "The forkserver process initializes CUDA while importing, but the children it forks never touch CUDA, or whether they do could not be seen",
	Severity:       finding.Warning,
	DefaultEnabled: false,
	Precision:      "medium",
	Tags:           []string{"maintainability", "cuda", "multiprocessing"},
	FixAvailable:   "sometimes",
	WhatItDoes: `Checks for the same forkserver programs as CFL002 — the forkserver process initializes CUDA while
it imports the main module, a module that one imports at its top level, or a
` + "`set_forkserver_preload`" + ` module — when the children it forks provably never touch CUDA, or
when the analysis could not see whether they do (the message names what could not be seen):
CPU-only pool tasks, and ` + "`DataLoader`" + ` workers that load and collate on the CPU (workers whose
dataset code cannot be seen are assumed CPU-only and reported here rather than as CFL002).

This is to CFL002 what CFL003 is to CFL001. Not selected by default: select it with
` + "`--select CFL006`" + ` or ` + "`extend-select = [\"CFL006\"]`" + `.`,
	WhyIsThisBad: `It works today: the fork matrix measured that a child forked from a process with an
initialized driver runs fine as long as it never touches CUDA. But every child the server forks
inherits that state, so the first CUDA call added to one (a GPU augmentation, a ` + "`.cuda()`" + ` in a
worker) fails with an error far from the top-level line that caused it, and the server process
holds whatever the initialization allocated for as long as the program runs.`,
	Example: `import multiprocessing as mp
import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"   # runs in the forkserver too

def tokenize(line):
    return line.split()

if __name__ == "__main__":
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(tokenize, ["a b", "c d"]))`,
	UseInstead: `import multiprocessing as mp
import torch

def tokenize(line):
    return line.split()

if __name__ == "__main__":
    DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
    with mp.get_context("forkserver").Pool(2) as pool:
        print(pool.map(tokenize, ["a b", "c d"]))`,
	FixSafety: `As CFL002: the fix moves a plain run of top-level statements of the main module under the main
guard, and is unsafe because names it defines disappear from children and importers.`,
	Versions: `As CFL002: top-level code of the main module and the modules it imports on the CPython
releases whose forkserver imports ` + "`__main__`" + `; ` + "`set_forkserver_preload`" + ` modules on every version.`,
	References: []string{
		"https://github.com/python/cpython/issues/126631",
	},
}
