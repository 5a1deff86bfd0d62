package ruledoc

import "github.com/cudaforklint/cudaforklint/finding"

// CFL007 documents notebook-target-under-spawn.
var CFL007 = &Doc{
	Code:           "CFL007",
	Name:           "notebook-target-under-spawn",
	Summary:        "Processes started from a notebook under spawn or forkserver run a function defined in the notebook, which the children cannot find",
	Severity:       finding.Error,
	DefaultEnabled: true,
	Precision:      "high",
	Tags:           []string{"correctness", "multiprocessing", "notebook"},
	FixAvailable:   "never",
	WhatItDoes: `Checks Jupyter notebooks for processes started with the "spawn" or "forkserver" start
method — explicitly, or as the default: "forkserver" on Linux from Python 3.14, "spawn" on macOS
and Windows, always for ` + "`torch.multiprocessing.spawn`" + ` — whose children run a function or
class defined in the notebook: a ` + "`Process`" + ` target, a function handed to a ` + "`Pool`" + ` or a
` + "`ProcessPoolExecutor`" + `, a pool's initializer, a ` + "`DataLoader`" + `'s dataset class, collate or
worker-init function, the function of ` + "`torch.multiprocessing.spawn`" + `.`,
	WhyIsThisBad: `A spawn or forkserver child is a new interpreter. It receives its target pickled by
reference (` + "`__main__.square`" + `) and looks it up in its own ` + "`__main__`" + `. A script's children
import the script as their ` + "`__main__`" + ` first, so they find it; a notebook's kernel runs the cells
in IPython's user module, which has no file to import, so the children's ` + "`__main__`" + ` is the
spawn bootstrap's and the lookup fails:
` + "`AttributeError: Can't get attribute 'square' on <module '__main__' (built-in)>`" + ` (Python
3.11; 3.14 words pickle's errors differently, the AttributeError is the same). The error
is printed by the child, to the kernel's log rather than the notebook: a ` + "`Process`" + ` exits with
code 1, every ` + "`Pool`" + ` worker dies and ` + "`pool.map`" + ` waits forever, a
` + "`ProcessPoolExecutor`" + ` raises ` + "`BrokenProcessPool`" + `, DataLoader workers exit unexpectedly.
Code that works on Linux up to Python 3.13, where the default start method is "fork" and the
children inherit the kernel's memory, breaks on macOS, on Windows and on Python 3.14. Switching
a notebook from "fork" to "spawn" to avoid a CUDA + fork crash (CFL001) lands here too.`,
	Example: `# cell 1
import multiprocessing as mp

def square(x):
    return x * x

# cell 2
with mp.get_context("spawn").Pool(4) as pool:
    print(pool.map(square, range(8)))`,
	UseInstead: `# cell 1: write the function to a module next to the notebook
%%writefile squares.py
def square(x):
    return x * x

# cell 2
import multiprocessing as mp
from squares import square

with mp.get_context("spawn").Pool(4) as pool:
    print(pool.map(square, range(8)))`,
	FixSafety: `No fix is applied: the function may use names the notebook defines, so moving it into a
module is for a person to do. The suggestion says which function to move.`,
	Versions: `Explicit "spawn" or "forkserver", and torch.multiprocessing.spawn: every version and
platform. The default: Python 3.14 on Linux, every version on macOS and Windows.`,
	KnownProblems: `The rule sees functions handed to the children by name, as the model resolves them. A
function that reaches the children another way (an attribute of an object passed as an
argument, say) is not checked. Lambdas and functions defined inside other functions are not
reported: they cannot be pickled at all, notebook or not, and the parent raises when it starts
the children.`,
	References: []string{
		"https://docs.python.org/3/library/multiprocessing.html#the-spawn-and-forkserver-start-methods",
		"https://docs.python.org/3/library/multiprocessing.html#multiprocessing-programming",
	},
}
