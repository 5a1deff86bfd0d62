package pyprogram_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/benchcorpus"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/rules"
)

// allRules is the policy of these tests: every rule (CFL100 too), no
// configuration file, the project root dir.
func allRules(t *testing.T, dir string) *config.Policy {
	t.Helper()
	l, err := config.NewLoader(ruledoc.All(), config.Overrides{Select: []string{"ALL"}, Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	pol := config.NewPolicy(l)
	pol.Roots = []string{dir}
	return pol
}

// run checks dir with every rule, with or without the prefilter, and returns
// the findings, errors and notices as comparable lines.
func run(t *testing.T, dir string, full bool, paths ...string) ([]string, *analyzer.Result) {
	t.Helper()
	if len(paths) == 0 {
		paths = []string{dir}
	}
	res, err := analyzer.Run(context.Background(), analyzer.Options{
		Paths:     paths,
		Analyzers: rules.All(),
		WorkDir:   dir,
		Policy:    allRules(t, dir),
		Split:     pyprogram.Split,
		ForceFull: full,
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		out = append(out, fmt.Sprintf("%s:%d:%d: %s %s (suppressed=%v, %d related, %d fixes)",
			f.Path, f.Start.Line, f.Start.Column, f.Code, f.Message, f.Suppressed, len(f.Related), len(f.Fixes)))
	}
	for _, e := range res.Errors {
		out = append(out, fmt.Sprintf("error %s:%d: %s", e.Path, e.Line, e.Message))
	}
	return out, res
}

func same(t *testing.T, name string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: the prefilter changed the findings\nwith prefilter:\n%s\nforced full:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// projectWriter returns a function that writes a file of the project at
// dir, making its directories.
func projectWriter(t *testing.T, dir string) func(rel, src string) {
	return func(rel, src string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPrefilterSkipsNothingThatMatters runs every fixture directory, each on
// its own and all together, and the generated corpus, with and without the
// prefilter, and requires identical findings and errors.
func TestPrefilterSkipsNothingThatMatters(t *testing.T) {
	root, err := filepath.Abs("../../testdata/py")
	if err != nil {
		t.Fatal(err)
	}
	dirs := []string{root}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	for _, d := range dirs {
		got, _ := run(t, d, false)
		want, _ := run(t, d, true)
		same(t, d, got, want)
	}

	gen := t.TempDir()
	if _, err := benchcorpus.Generate(gen, 120, 1); err != nil {
		t.Fatal(err)
	}
	got, res := run(t, gen, false)
	want, _ := run(t, gen, true)
	same(t, "generated corpus", got, want)
	if len(want) == 0 {
		t.Error("the generated corpus has no findings")
	}
	if res.Skipped == 0 {
		t.Error("the prefilter skipped none of the generated corpus's plain modules")
	}
	// Each job checked alone, as pre-commit does: its helpers are found on
	// disk through its imports.
	for _, f := range []string{"proj00/job_0000.py", "proj00/job_0001.py", "proj00/job_0005.py", "proj00/job_0006.py"} {
		got, _ := run(t, gen, false, filepath.Join(gen, f))
		want, _ := run(t, gen, true, filepath.Join(gen, f))
		same(t, f, got, want)
	}
}

// TestPrefilterThroughLocalHelpers: files with no CUDA and no process API of
// their own that reach both through local helpers (imported plainly, from a
// package, relatively, as a submodule attribute, by star imports, as a
// submodule a star import takes from its package's __all__, and named only
// in a set_forkserver_preload list) keep their findings, checked together or
// alone; a file that reaches neither is skipped.
func TestPrefilterThroughLocalHelpers(t *testing.T) {
	dir := t.TempDir()
	write := projectWriter(t, dir)
	write("gpuhelp.py", "import torch\n\ndef init():\n    torch.cuda.init()\n")
	write("poolhelp.py", "import multiprocessing as mp\n\ndef work(x):\n    return x\n\ndef start(fn):\n    with mp.get_context('fork').Pool(2) as p:\n        return p.map(fn, [1])\n")
	write("plain_user.py", "import gpuhelp\nimport poolhelp\n\nif __name__ == '__main__':\n    gpuhelp.init()\n    poolhelp.start(poolhelp.work)\n")
	write("pkg/__init__.py", "")
	write("pkg/sub/__init__.py", "")
	write("pkg/sub/gpu.py", "import torch\n\ndef init():\n    torch.zeros(1, device='cuda')\n")
	write("pkg/sub/pool.py", "from multiprocessing import get_context\n\ndef start(fn):\n    get_context('fork').Pool(2).map(fn, [1])\n")
	write("pkg/sub/job.py", "from . import gpu\nfrom .pool import start\n\ndef work(x):\n    return x\n\ndef main():\n    gpu.init()\n    start(work)\n")
	write("attr_user.py", "import pkg.sub\nfrom pkg.sub import gpu\nimport pkg as p\n\ndef work(x):\n    return x\n\ndef main():\n    gpu.init()\n    p.sub.pool.start(work)\n")
	write("warmup.py", "import torch\ntorch.cuda.init()\n")
	write("fs_user.py", "import multiprocessing as mp\n\ndef work(x):\n    return x\n\nif __name__ == '__main__':\n    mp.set_start_method('forkserver')\n    mp.set_forkserver_preload(['warmup'])\n    mp.Process(target=work, args=(1,)).start()\n")
	write("unrelated.py", "import json\n\ndef f(x):\n    return json.dumps(x)\n")
	// Star imports: the names come from the modules imported, and
	// `from starpkg import *` imports the submodule its __all__ names. An
	// os.fork() keeps a file only with CUDA in its reach (a Pool would keep
	// it alone: CFL005).
	write("forkhelp.py", "import os\n\ndef fork_child():\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n    os.waitpid(pid, 0)\n")
	write("star_user.py", "from gpuhelp import *\nfrom forkhelp import *\n\nif __name__ == '__main__':\n    init()\n    fork_child()\n")
	write("starpkg/__init__.py", "__all__ = ['boot']\n")
	write("starpkg/boot.py", "import torch\ntorch.cuda.init()\n")
	write("pkgstar_user.py", "from starpkg import *\nfrom forkhelp import fork_child\n\nif __name__ == '__main__':\n    fork_child()\n")

	// A backend chosen by a computed import_module name: no file names
	// the backend module, and only it names CUDA.
	write("dynpkg/__init__.py", "import importlib\nimport os\n\nmod = importlib.import_module('.' + os.environ['BACKEND'], __name__)\nfor k in dir(mod):\n    globals()[k] = getattr(mod, k)\n")
	write("dynpkg/accel.py", "import torch\n\ndef boot():\n    torch.zeros(1).to('cuda:0')\n")
	write("absdyn/__init__.py", "")
	write("absdyn/warm.py", "import torch\n\ndef boot():\n    torch.cuda.init()\n")
	write("jobs/absdyn_user.py", "import importlib\nfrom forkhelp import fork_child\n\nif __name__ == '__main__':\n    importlib.import_module('absdyn.warm').boot()\n    fork_child()\n")
	write("dyn_user.py", "import dynpkg\nfrom forkhelp import fork_child\n\nif __name__ == '__main__':\n    dynpkg.boot()\n    fork_child()\n")

	got, res := run(t, dir, false)
	want, _ := run(t, dir, true)
	same(t, "all files", got, want)
	for _, f := range []string{"plain_user.py", "pkg/sub/job.py", "attr_user.py", "fs_user.py", "star_user.py", "pkgstar_user.py", "dyn_user.py", "jobs/absdyn_user.py"} {
		g, _ := run(t, dir, false, filepath.Join(dir, f))
		w, _ := run(t, dir, true, filepath.Join(dir, f))
		same(t, f, g, w)
		if len(w) == 0 {
			t.Errorf("%s: no findings even without the prefilter; the case tests nothing", f)
		}
	}
	if res.Skipped == 0 {
		t.Error("no file was skipped")
	}
	if _, alone := run(t, dir, false, filepath.Join(dir, "unrelated.py")); alone.Files != 1 || alone.Skipped != 1 {
		t.Errorf("unrelated.py alone: %d files, %d skipped; want it skipped unparsed", alone.Files, alone.Skipped)
	}
}
