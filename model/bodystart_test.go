package model

import (
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

// TestUncalledShortcutsChangeNoFinding: sharing a module's import run among
// its uncalled functions, and not running the bodies that cannot start,
// must give the findings that running every entry in full gives, on every
// fixture directory and on a package whose import starts a pool (below).
func TestUncalledShortcutsChangeNoFinding(t *testing.T) {
	dirs := fixtureDirs(t)
	dirs["pool at import"] = poolAtImport
	sameFindingsWithout(t, "the shortcuts", dirs, &uncalledShortcuts)
}

// poolAtImport is a package most of whose modules import one that starts a
// pool at its top level (under spawn), with a test module of uncalled
// functions: one imports lazily a module the test module imported already;
// one a module it did not import, whose import starts processes only
// through the module already imported; one a module whose import starts
// a pool of its own; one forks after initializing CUDA itself.
var poolAtImport = memSource{
	"/p/pkg/__init__.py":  "",
	"/p/pkg/constants.py": "import multiprocessing as mp\n\nmp.set_start_method(\"spawn\")\npool = mp.Pool(2)\nLIMIT = 4\n",
	"/p/pkg/accel.py":     "from pkg import constants\n\n\ndef device():\n    return constants.LIMIT\n",
	"/p/pkg/other.py":     "from pkg import constants\n\n\ndef size():\n    return constants.LIMIT\n",
	"/p/pkg/workers.py":   "import multiprocessing as mp\n\nworkers = mp.Pool(1)\n",
	"/p/test_accel.py": `import torch
import multiprocessing as mp
from pkg import accel


def test_lazy_seen():
    from pkg import accel as again
    return again.device()


def test_lazy_other():
    from pkg import other
    return other.size()


def test_lazy_new():
    from pkg import workers
    return workers.workers


def work():
    torch.ones(1, device="cuda")


def test_fork():
    torch.cuda.init()
    mp.get_context("fork").Process(target=work).start()
`,
}

// TestBodyMayStart: after its module's import, a body starts nothing when
// the only starts it reaches are imports of modules imported already, or
// of new modules whose own imports those are; a lazy import of a module that
// starts processes itself, or a start of its own, may.
func TestBodyMayStart(t *testing.T) {
	prog := NewProgram(poolAtImport, Options{})
	m, err := prog.Module("/p/test_accel.py")
	if err != nil {
		t.Fatal(err)
	}
	prog.values().newEntry()
	s := &simulator{cfg: configClasses(pytarget.Default())[0].rep, entry: m, out: &hazardSet{}, budget: maxSimEvents, importOnly: true}
	st := newState()
	s.run(m.topSummary(), st)
	for _, tc := range []struct {
		fn   string
		want bool
	}{
		{"test_lazy_seen", false},
		{"test_lazy_other", false},
		{"test_lazy_new", true},
		{"test_fork", true},
	} {
		var f *Function
		for _, g := range m.Funcs {
			if g.Name == tc.fn {
				f = g
			}
		}
		if f == nil {
			t.Fatalf("no function %s", tc.fn)
		}
		if !f.facts().starts {
			t.Fatalf("%s: the facts say it cannot start; the case proves nothing", tc.fn)
		}
		if got := bodyMayStart(f.summaryOf(), st); got != tc.want {
			t.Errorf("%s: bodyMayStart = %v, want %v", tc.fn, got, tc.want)
		}
	}
}
