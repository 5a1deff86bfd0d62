package ruledoc

import (
	"fmt"
	"strings"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// ErrorPolicy says what an error means, for the rule index
// (docs/rules/README.md) and the pages of the rules it concerns: the
// fork rules claim a failure only when the analysis saw every link of it,
// since a finding it could not see through was most often false when the
// tool was run from the roots of public repositories.
const ErrorPolicy = `An error (CFL001, CFL002) says that a child process will fail, and is reported only when the
analysis saw every link from the cause to the failure:

1. the parent initializes CUDA on a path that reaches the start: where ` + "`if workers > 1:`" + ` forks
   and its ` + "`else:`" + ` works on the GPU, pass after pass of a loop, the two never meet, as long as
   the test cannot change (it reads only constants, parameters, locals bound once before the
   loop, and attributes of ` + "`self`" + ` that only ` + "`__init__`" + ` assigns); a test the analysis
   can evaluate takes one arm, reading an instance's attributes with the arguments of the call
   that built it, defaults included (` + "`self.use_pool = backend == \"process\"`" + ` where the script
   leaves ` + "`backend`" + ` at ` + "`\"thread\"`" + `);
2. the start forks after it, or the forkserver that forks the children initialized it;
3. the child's own code certainly touches CUDA: a call the catalog measured, a tensor or module
   the parent put on the GPU that the child computes with, CUDA tensors it receives through a
   queue.

When a link could not be seen, the finding is a warning — CFL003 for a fork, CFL006 for the
forkserver, which are not selected by default — and its message names what could not be seen:

| missing link | example | reported as |
| --- | --- | --- |
| the child's code | a function from an installed package; a callable handed in as a parameter; a tokenizer passed through ` + "`datasets.map(fn_kwargs=...)`" + ` | CFL003 / CFL006: "whose code could not be seen" |
| the device of what the child touches | a device read from the environment; an attribute read from a GPU object other than a tensor's (` + "`model.config.bos_token_id`" + `, an int or a tokenizer as often as a tensor; ` + "`.weight`" + `, ` + "`.data`" + `, ` + "`.T`" + ` stay on the GPU), also where it is packed with other values (the image processor a loader returns beside its GPU model, ` + "`None`" + ` for a language-only checkpoint) or read from an element of a GPU checkpoint | CFL003 / CFL006: "could not tell whether" |
| the initialization and the fork meeting | ` + "`if self.workers > 1:`" + ` forks and ` + "`else:`" + ` initializes, in a loop | nothing: no path initializes and then forks |
| the fork where CUDA is available | ` + "`num_workers = 0 if torch.cuda.is_available() else 2`" + `: a parent that initialized CUDA has a GPU, so its loader starts no workers | nothing: no path initializes and then forks |
| the initialization and the fork meeting, in two calls | one call takes the ` + "`else:`" + ` of ` + "`if self.workers > 1:`" + ` and initializes, a later call of the same function takes its body and forks, and the test could not be evaluated in either (two instances built from one configuration file) | CFL003: "could not tell whether ` + "`self.workers>1`" + ` can take this arm after an earlier call took the arm that initialized CUDA" |
| the start method | ` + "`mp.get_context(cfg[\"start_method\"])`" + `, ` + "`mp.set_start_method(args.method)`" + `: a value that could not be evaluated; a fork in a package module that is never run as a script (it imports relatively, or only defines names, and has no main guard), whose importing program's entry point may choose another method | CFL003 / CFL006: "could not evaluate", "is a package module that is not run as a script"; CFL004 and CFL005, which rest on the method too: nothing |
| a loader's iteration | a ` + "`DataLoader`" + ` stored into a dict that a helper it is handed to fills (` + "`registry[split] = DataLoader(...)`" + `), which the analysis does not follow to where it is iterated; a loader handed to a library call the analysis does not know, whose result the program drops (it may iterate the loader) | CFL003 / CFL006: "kept in a container the analysis does not follow", "handed to a library call that may iterate it"; CFL004, CFL005 and CFL007, which rest on the start: nothing |
| the environment opting in | ` + "`if os.getenv(\"SHARE_POOL\", \"0\") == \"1\":`" + ` initializes, ` + "`if \"SLURM_ARRAY_TASK_ID\" in os.environ:`" + ` starts workers: a variable read with a default holds it unless the user sets it (one read without a default, ` + "`os.environ[\"X\"]`" + `, is as unknown as a command-line argument, and keeps both arms) | nothing: the test takes the default's arm |
| the child's import running anything | ` + "`import helper`" + ` inside the child's function, where the parent (or the forkserver) had already imported ` + "`helper`" + ` | nothing runs: the child never touches CUDA there (CFL003 / CFL006 if nothing else does) |

A warning is not a promise that the program works: select CFL003 and CFL006 to see the forks
whose children could not be followed.`

// PythonRange says which Pythons a finding is checked on, for the rule
// index: the targets, less those the program cannot run on because its
// import reaches an API its library removed, or none after an import that
// certainly fails. The table is pytarget's.
func PythonRange() string {
	var b strings.Builder
	b.WriteString(pythonRangeIntro)
	b.WriteString("| import | library | removed in | last release with it | its newest Python |\n| --- | --- | --- | --- | --- |\n")
	for _, r := range pytarget.RemovedAPIs() {
		names := r.Label
		if names == "" {
			names = "`" + strings.Join(r.Names, "`, `") + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | 3.%d |\n", names, r.Library, r.RemovedIn, r.LastRelease, r.NewestPython)
	}
	b.WriteString(pythonRangeRest)
	return b.String()
}

const pythonRangeIntro = `Every finding names the Python versions and platforms it holds on: the targets (3.11–3.15 on
Linux by default; ` + "`--target-version`" + `, ` + "`--platform`" + `, ` + "`requires-python`" + `), less those the program
cannot run on. A program whose import certainly reaches an API its library removed runs only with
a release from before the removal, and so on no Python newer than that release supports; for the
standard library, whose releases are CPython's, on no Python newer than the last one that had it
(pytarget/removed.go cites the release notes, What's New pages and pull requests of each row):

`

const pythonRangeRest = `
Such a program (` + "`from torch._six import container_abcs`" + `, ` + "`from numpy.lib.arraypad import pad`" + `) never meets
Python 3.14's default start method, forkserver: CFL004, CFL005 and CFL007 findings that need it are not reported for it, and
a fork finding names the Pythons the program runs on ("Python 3.11 on Linux"). Where it runs on
none of the targets (` + "`torch.utils.ffi`" + `), the oldest target stands for the older Pythons it runs
on, which fork by default on Linux alike.

"Certainly" means that the import runs whenever the program does: a module-level import of the
script or of a local module that such imports load (through packages, and through the directories
the module put on ` + "`sys.path`" + ` before, as in ` + "`sys.path.append(os.path.join(ROOT_DIR, \"dataset\"))`" + `), outside any ` + "`if`" + `,
loop, ` + "`with`" + `, function or class, and not in a ` + "`try`" + ` whose ` + "`except`" + ` can catch the ImportError and go
on (one that raises again or exits stops the program as the import would). A module-level read of
a removed name as an attribute of a module the module imported before, that always runs
(` + "`if torch._six.PY3:`" + `, an AttributeError on torch 2; ` + "`LCM = a * b // fractions.gcd(a, b)`" + ` after
` + "`import fractions`" + `, one on 3.9), bounds the program as its import does; a read inside a function
bounds nothing, even where the module calls the function. An import under a
version test (` + "`if TORCH_MAJOR < 2:`" + `), in ` + "`try: ... except ImportError:`" + ` with a fallback, or
lazy (PEP 810) bounds nothing: the program runs on newer releases too. The program fails only
where the import runs: processes it starts at a top-level statement before that one (a notebook
that trains in its third cell and imports a torch 1.x helper in its twentieth), and those the
handlers and ` + "`finally`" + ` of a ` + "`try`" + ` around it start, are checked on every target. A name counts as the library's only where no local module of that
name shadows it, and bounds nothing where a module the program certainly imports puts it back
(` + "`collections.Iterable = collections.abc.Iterable`" + `, under a version test or not).

A standard module that a distribution on PyPI puts back under its own name bounds nothing, since the
program imports it wherever that distribution is installed: ` + "`distutils`" + ` (setuptools), ` + "`imp`" + `
(zombie-imp), and the modules PEP 594 removed in 3.13 (` + "`imghdr`" + `, ` + "`pipes`" + `, ` + "`cgi`" + `, ` + "`telnetlib`" + `, …:
python-deadlib's standard-* distributions: standard-imghdr, standard-pipes, …). Nor do NumPy 1.24's
removed type aliases (` + "`np.float`" + `, ` + "`np.int`" + `), which programs and libraries put back
(` + "`np.float = float`" + `) to run old code on a newer NumPy.

An import that certainly raises ImportError bounds the program to no Python at all: nothing after
it runs, so no hazard whose processes start after it is reported, nor one of CFL004 (CFL002,
CFL006) whose initialization the children (the forkserver) reach, importing the script, after it.
A stale example script that still writes
` + "`from mypkg import Container, Logs`" + ` after its package dropped them stops there. The import must
certainly run, as above, and certainly fail:

- ` + "`from M import n`" + ` where M is a module or regular package of the project whose source never spells
  ` + "`n`" + ` (not in a string or comment either) and names nothing that binds names unseen: a module
  ` + "`__getattr__`" + `, ` + "`globals()`" + `, ` + "`vars()`" + `, ` + "`__dict__`" + `, ` + "`sys.modules`" + `, ` + "`setattr`" + `, ` + "`exec`" + `, ` + "`eval`" + `,
  ` + "`__path__`" + `, transformers' ` + "`_LazyModule`" + `, ` + "`lazy_loader.attach`" + `; each of its star imports is of a
  module of the project that cannot bind ` + "`n`" + ` either; and ` + "`n`" + ` is no submodule: M's directory has
  no entry named ` + "`n`" + ` or ` + "`n.*`" + ` (a file, a directory, a compiled extension).
- ` + "`import P.x`" + ` or ` + "`from P.x import n`" + ` where P is a regular package of the project (it has an
  ` + "`__init__.py`" + `, which does not touch ` + "`__path__`" + ` or ` + "`sys.modules`" + `) and P's directory has no entry
  named ` + "`x`" + ` or ` + "`x.*`" + `: a regular package's submodules are looked for in its own directory alone. A
  namespace package (a directory without ` + "`__init__.py`" + `) may have portions in any ` + "`sys.path`" + `
  entry, and its imports are never concluded about.
- M resolves to one file: every directory the import may be searched in holds one candidate, a
  ` + "`.py`" + ` file or a regular package, and the project builds no extensions (a ` + "`setup.py`" + `,
  ` + "`pyproject.toml`" + ` or ` + "`setup.cfg`" + ` naming ` + "`ext_modules`" + `, ` + "`CUDAExtension`" + `, ` + "`CppExtension`" + `, CMake,
  scikit-build, pybind11, Cython and the like, or a ` + "`CMakeLists.txt`" + ` beside or above the package),
  which could put a compiled submodule where the repository shows none.
- Nothing that may run first writes the name from outside: the script's code before the import
  and the project's modules it and M import never spell ` + "`n`" + ` outside import statements, and write no
  ` + "`sys.modules`" + `, import hook, or attribute through ` + "`setattr`" + `, ` + "`vars()`" + ` or ` + "`__dict__`" + ` other than
  on ` + "`self`" + `.

As everywhere, the project's own package is taken to be the one that runs: a same-named package
installed from elsewhere is another program. The directories searched are those of the script's
own run; a function nothing in the program calls, which a script elsewhere may import and call
with another ` + "`sys.path`" + `, is checked as ever.`
