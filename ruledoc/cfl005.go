package ruledoc

import "github.com/cudaforklint/cudaforklint/finding"

// CFL005 documents process-start-at-import.
var CFL005 = &Doc{
	Code:           "CFL005",
	Name:           "process-start-at-import",
	Summary:        "Processes are started at import time under a start method whose children re-import the module",
	Severity:       finding.Error,
	DefaultEnabled: true,
	Precision:      "high",
	Tags:           []string{"correctness", "multiprocessing"},
	FixAvailable:   "sometimes",
	WhatItDoes: `Checks for processes started at the top level of a main module, outside
` + "`if __name__ == \"__main__\":`" + ` (directly or through functions called from there), when the start
method is "spawn" or "forkserver" — including the defaults: "forkserver" on Linux from Python 3.14,
"spawn" on macOS and Windows. The ` + "`multiprocess`" + ` package (which ` + "`datasets`" + `' ` + "`map(num_proc=N)`" + `
and pathos use) keeps "fork" as its default on Linux and macOS on every Python, 3.14 and 3.15
included, so its default starts are not reported here (a fork after a CUDA initialization is
CFL001 or CFL003). A ` + "`DataLoader`" + ` starts its workers where it is iterated, so a loader
built at the top level and iterated under the main guard is not one. A start inside a library
the script calls (a trainer's ` + "`fit()`" + ` iterating the loader it was given) is reported at the
script's own call, the line to move under the guard.

A Streamlit app (a script importing ` + "`streamlit`" + `, run by ` + "`streamlit run`" + `) cannot have a main
guard: there only starts made unconditionally at the top level are reported. A start behind a
widget (` + "`if st.button(\"Run\"):`" + `) is not made again when a child re-imports the script outside
the Streamlit runtime, where every widget returns its default value.`,
	WhyIsThisBad: `Spawn and forkserver children import the main module before running their target. A
start at the top level then runs again in the child while it is still bootstrapping, and
multiprocessing stops it with "RuntimeError: An attempt has been made to start a new process
before the current process has finished its bootstrapping phase". Code that worked for years with
the "fork" default breaks on Python 3.14.`,
	Example: `import multiprocessing as mp

def square(x):
    return x * x

pool = mp.Pool(4)
print(pool.map(square, range(8)))`,
	UseInstead: `import multiprocessing as mp

def square(x):
    return x * x

if __name__ == "__main__":
    pool = mp.Pool(4)
    print(pool.map(square, range(8)))`,
	FixSafety: `When the start is part of a plain run of top-level assignments and calls, the fix moves
the run, from the start on, under the main guard; it is unsafe because names it defines disappear
for importers, and only shown, never applied, when code outside the guard reads them.`,
	Versions: `Explicit "spawn" or "forkserver": every version. The default: Python 3.14 and 3.15 on
Linux, every version on macOS and Windows; ` + "`multiprocess`" + `'s default: Windows only.`,
	References: []string{"https://docs.python.org/3/library/multiprocessing.html#the-spawn-and-forkserver-start-methods",
		"https://github.com/uqfoundation/multiprocess/blob/master/py3.14/multiprocess/context.py (`_default_context = DefaultContext(_concrete_contexts['fork']) #FIXME: forkserver`)"},
}
