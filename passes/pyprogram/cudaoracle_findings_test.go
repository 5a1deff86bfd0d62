package pyprogram_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cudaforklint/cudaforklint/benchcorpus"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
)

// TestCUDAOracleChangesNoFinding checks the fixtures, the generated corpus
// and a project whose CUDA hides behind local imports, star imports and
// comments, whole and one file at a time (where the oracle saves loads),
// as users run it and forced full, with and without the CUDA oracle, and
// requires identical findings and errors: the oracle only decides what
// gets loaded.
func TestCUDAOracleChangesNoFinding(t *testing.T) {
	root, err := filepath.Abs("../../testdata/py")
	if err != nil {
		t.Fatal(err)
	}
	gen := t.TempDir()
	if _, err := benchcorpus.Generate(gen, 40, 1); err != nil {
		t.Fatal(err)
	}
	proj := t.TempDir()
	write := projectWriter(t, proj)
	write("forkhelp.py", "import os\n\ndef fork_child():\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n    os.waitpid(pid, 0)\n")
	write("deep/__init__.py", "")
	write("deep/a.py", "from . import b\n\ndef f():\n    return b.g()\n")
	write("deep/b.py", "def g():\n    from . import c\n    return c.h\n")
	write("deep/c.py", "import numpy\n\ndef h(x):\n    return x.to('cuda')\n")
	write("starpkg/__init__.py", "__all__ = ['boot']\n")
	write("starpkg/boot.py", "import cupy\n\ndef warm():\n    cupy.zeros(1)\n")
	write("commented.py", "# import torch\n\"\"\"x.cuda() in a docstring\"\"\"\ns = 'torch.cuda.init()'\n\ndef quiet():\n    return s\n")
	write("cyc_a.py", "import cyc_b\n\ndef a():\n    return cyc_b.b()\n")
	write("cyc_b.py", "import cyc_a\nimport torch\n\ndef b():\n    return torch.cuda.device_count()\n")
	// Each user's train() is called by nothing: it is simulated as an
	// entry of its own only when CUDA is possible in the user's module,
	// which only the files its imports reach can tell.
	write("user_deep.py", "from deep import a\nfrom forkhelp import fork_child\n\ndef train(x):\n    a.f()(x)\n    fork_child()\n")
	write("user_star.py", "from starpkg import *\nfrom forkhelp import fork_child\n\ndef train():\n    boot.warm()\n    fork_child()\n")
	write("user_commented.py", "import commented\nfrom forkhelp import fork_child\n\ndef train():\n    commented.quiet()\n    fork_child()\n")
	write("user_cycle.py", "import cyc_a\nfrom forkhelp import fork_child\n\ndef train():\n    cyc_a.a()\n    fork_child()\n")
	type check struct {
		dir   string
		paths []string
	}
	var checks []check
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	checks = append(checks, check{dir: root})
	for _, e := range entries {
		if e.IsDir() {
			d := filepath.Join(root, e.Name())
			checks = append(checks, check{dir: d})
			files, _ := filepath.Glob(filepath.Join(d, "*.py"))
			for _, f := range files {
				checks = append(checks, check{dir: d, paths: []string{f}})
			}
		}
	}
	checks = append(checks, check{dir: gen})
	for _, f := range []string{"proj00/job_0000.py", "proj00/job_0001.py", "proj00/job_0005.py", "proj00/job_0006.py"} {
		checks = append(checks, check{dir: gen, paths: []string{filepath.Join(gen, f)}})
	}
	checks = append(checks, check{dir: proj})
	for _, f := range []string{"user_deep.py", "user_star.py", "user_commented.py", "user_cycle.py"} {
		checks = append(checks, check{dir: proj, paths: []string{filepath.Join(proj, f)}})
	}
	withFindings := 0
	for _, c := range checks {
		for _, full := range []bool{false, true} {
			got, _ := run(t, c.dir, full, c.paths...)
			var want []string
			pyprogram.WithoutCUDAOracle(func() { want, _ = run(t, c.dir, full, c.paths...) })
			if !slices.Equal(got, want) {
				t.Errorf("%s %v (forced full %v): the oracle changed the findings\nwith:\n%q\nwithout:\n%q", c.dir, c.paths, full, got, want)
			}
			if len(want) > 0 {
				withFindings++
			}
		}
	}
	if withFindings < len(checks) {
		t.Errorf("only %d of %d runs have findings: the comparison tests too little", withFindings, 2*len(checks))
	}
}
