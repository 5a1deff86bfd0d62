package model

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestContextBindsParameters checks that a call's arguments reach the
// callee's parameters, its result and the attributes its instances read,
// and that the same arguments share one context.
func TestContextBindsParameters(t *testing.T) {
	src := `import torch
from functools import partial

def pick(device, n=2, *rest, **kw):
    where = device
    return torch.zeros(n, device=where)

class Holder:
    def __init__(self, device):
        self.device = device
    def make(self):
        return torch.ones(1, device=self.device)

def outer(device):
    def inner():
        return torch.ones(1, device=device)
    return inner

a = pick("cuda")
b = pick("cpu")
c = pick(device="cuda:1", n=3)
d = Holder("cuda").make()
e = Holder("cpu").make()
f = outer("cuda")()
g = partial(pick, "cuda")()
h = pick(unknown_name)
`
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	tests := []struct {
		name string
		want Device
	}{
		{"a", DevCUDA}, {"b", DevCPU}, {"c", DevCUDA}, {"d", DevCUDA}, {"e", DevCPU},
		{"f", DevCUDA}, {"g", DevCUDA}, {"h", DevUnknown},
	}
	for _, tt := range tests {
		d := DevNone
		for _, v := range m.Eval(&syntax.Name{ID: tt.name}, m.Scope) {
			d = d.join(held(v))
		}
		if d != tt.want {
			t.Errorf("%s: on %v, want %v", tt.name, d, tt.want)
		}
	}
	var pick *Function
	for _, f := range m.Funcs {
		if f.Name == "pick" {
			pick = f
		}
	}
	vs := m.Prog.values()
	// a, b, c, g: three distinct argument sets ("cuda" twice); h passes
	// nothing the model knows, and gets only the constant context of the
	// default n it hands to torch.zeros (constcontext.go), its device
	// unknown.
	if got := len(vs.byFunc[pick]); got != 4 {
		t.Fatalf("pick has %d contexts, want 4", got)
	}
	// Each keeps the parameters it was made with, though the calls after
	// it probed with maps of their own (contextFor's borrowParams).
	device := paramBinding(pick, 0)
	for i, c := range vs.byFunc[pick][:3] {
		if len(c.params[device]) != 1 || c.params[device][0].Kind != VStr {
			t.Errorf("pick's context %d binds device to %v", i, c.params[device])
		}
	}
	if c := vs.byFunc[pick][3]; len(c.params[device]) != 1 || c.params[device][0].Kind != VUnknown {
		t.Errorf("h's constant context binds device to %v, want it unknown", c.params[device])
	}
}

// TestOneInstancePerCall checks that a constructor call evaluated twice
// (for its effects, for its value) makes one instance: the same context,
// whose self is the instance.
func TestOneInstancePerCall(t *testing.T) {
	src := `class Holder:
    def __init__(self, device):
        self.device = device

h = Holder("cuda")
`
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	c := m.File.Body[len(m.File.Body)-1].(*syntax.Assign).Value.(*syntax.Call)
	var ev evaluator
	first, second := ev.resolveCall(c, m.Scope).values, ev.resolveCall(c, m.Scope).values
	if len(first) != 1 || len(second) != 1 || first[0].Kind != VInstance || first[0].Env == nil {
		t.Fatalf("Holder(\"cuda\") = %+v, then %+v: want an instance made in a context", first, second)
	}
	if first[0].Env != second[0].Env {
		t.Errorf("two contexts for one call: %p, %p", first[0].Env, second[0].Env)
	}
}

// TestAttributesSetByMethods checks an instance attribute assigned by a
// method other than the constructor, and read through a property with a
// setter: what the calls of the method on that instance assigned.
func TestAttributesSetByMethods(t *testing.T) {
	src := `import torch

class Holder:
    def __init__(self, name):
        self.name = name
        self._weights = None

    def load(self, weights):
        self._weights = weights

    @property
    def weights(self):
        return self._weights

    @weights.setter
    def weights(self, w):
        self._weights = w

class Counter:
    def __init__(self):
        self.total = None
        self.seen = []

    def add(self, t):
        self.total = t
        self.seen.append(t.sum())

class SubCounter(Counter):
    pass

gpu = Holder("gpu")
cpu = Holder("cpu")
gpu.load(torch.zeros(1, device="cuda"))
cpu.load(torch.zeros(1, device="cpu"))
sub = SubCounter()
sub.add(torch.ones(2, device="cpu"))
a = gpu.weights
b = cpu.weights
c = gpu._weights
d = sub.total
e = sub.seen[0]
`
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	for _, st := range m.File.Body {
		if e, ok := st.(*syntax.ExprStmt); ok {
			m.Eval(e.X, m.Scope) // the load calls, in order
		}
	}
	for name, want := range map[string]Device{"a": DevCUDA, "b": DevCPU, "c": DevCUDA, "d": DevCPU, "e": DevCPU} {
		d := DevNone
		for _, v := range m.Eval(&syntax.Name{ID: name}, m.Scope) {
			d = d.join(held(v))
		}
		if d != want {
			t.Errorf("%s: on %v, want %v", name, d, want)
		}
	}
}

// TestContextsAreCapped checks that a function called with ever new
// constants stops getting contexts of its own.
func TestContextsAreCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("def f(x):\n    return x\n")
	for i := range maxContextsPerFunc + 4 {
		fmt.Fprintf(&b, "v%d = f(%d)\n", i, i)
	}
	m := load(t, memSource{"/p/m.py": b.String()}, "/p/m.py")
	for i := range maxContextsPerFunc + 3 {
		m.Eval(&syntax.Name{ID: fmt.Sprintf("v%d", i)}, m.Scope)
	}
	last := fmt.Sprintf("v%d", maxContextsPerFunc+3)
	for _, v := range m.Eval(&syntax.Name{ID: last}, m.Scope) {
		if v.Kind == VInt {
			t.Errorf("%s = %d: a context past the cap", last, v.Int)
		}
	}
	if v := m.Eval(&syntax.Name{ID: "v0"}, m.Scope); len(v) != 1 || v[0].Kind != VInt || v[0].Int != 0 {
		t.Errorf("v0 = %+v, want 0", v)
	}
	if n := m.Prog.values().perFunc[m.Funcs[0]]; n != maxContextsPerFunc {
		t.Errorf("%d contexts, want %d", n, maxContextsPerFunc)
	}
}

// TestEachEntryGetsContexts checks that the cap on a function's contexts
// holds per module simulated as __main__: a script analyzed after many
// others that call the same helper with other arguments still gets a
// context of its own for its call.
func TestEachEntryGetsContexts(t *testing.T) {
	files := memSource{"/p/gpu.py": "import torch\n\n\ndef setup(device):\n    return torch.zeros(1, device=device)\n"}
	script := "import os\n\nimport gpu\n\ngpu.setup(%q)\npid = os.fork()\n"
	var paths []string
	for i := range maxContextsPerFunc + 2 {
		p := fmt.Sprintf("/p/cpu%02d.py", i)
		files[p] = fmt.Sprintf(script, fmt.Sprintf("cpu:%d", i))
		paths = append(paths, p)
	}
	files["/p/train.py"] = fmt.Sprintf(script, "cuda")
	paths = append(paths, "/p/train.py")
	prog := NewProgram(files, Options{})
	var mods []*Module
	for _, p := range paths {
		m, err := prog.Module(p)
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, m)
	}
	var found []string
	for _, z := range prog.Analyze(mods, pytarget.Default()) {
		found = append(found, fmt.Sprintf("%v in %s", z.Kind, z.Entry.Path))
	}
	if len(found) != 1 || found[0] != fmt.Sprintf("%v in /p/train.py", ForkAfterInit) {
		t.Errorf("hazards: %v, want the fork after gpu.setup(\"cuda\") in /p/train.py alone", found)
	}
}

// TestContainersHoldWhatIsStored checks the elements of lists and dicts
// filled after they are made.
func TestContainersHoldWhatIsStored(t *testing.T) {
	src := `import multiprocessing as mp
procs = []
for i in range(2):
    procs.append(mp.Process(target=print))
table = {}
table["gpu"] = mp.Pool(2)
class Runner:
    def __init__(self):
        self.workers = []
    def add(self):
        self.workers.append(mp.Process(target=print))
    def first(self):
        return self.workers[0]
p = procs[0]
q = table["gpu"]
r = list(table.values())[0]
s = Runner().first()
`
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	for name, kind := range map[string]ObjectKind{"p": ObjProcess, "q": ObjPool, "r": ObjPool, "s": ObjProcess} {
		vs := m.Eval(&syntax.Name{ID: name}, m.Scope)
		if len(vs) != 1 || vs[0].Kind != VObject || vs[0].Obj.Kind != kind {
			t.Errorf("%s = %+v, want a %v", name, vs, kind)
		}
	}
}

// TestSharedContextsCount checks that a script's findings do not depend on
// the modules analyzed before it: a context an earlier module made counts
// against the script's cap as one the script made, so the script gets the
// contexts it gets when analyzed alone.
func TestSharedContextsCount(t *testing.T) {
	files := memSource{"/p/gpu.py": "import torch\n\n\ndef setup(device):\n    return torch.zeros(1, device=device)\n"}
	var calls strings.Builder
	for i := range maxContextsPerFunc {
		fmt.Fprintf(&calls, "gpu.setup(\"cpu:%d\")\n", i)
	}
	files["/p/a_warm.py"] = "import os\n\nimport gpu\n\n" + calls.String() + "pid = os.fork()\n"
	files["/p/train.py"] = "import os\n\nimport gpu\n\n" + calls.String() + "gpu.setup(\"cuda\")\npid = os.fork()\n"
	hazards := func(paths ...string) []string {
		prog := NewProgram(files, Options{})
		var mods []*Module
		for _, p := range paths {
			m, err := prog.Module(p)
			if err != nil {
				t.Fatal(err)
			}
			mods = append(mods, m)
		}
		var found []string
		for _, z := range prog.Analyze(mods, pytarget.Default()) {
			found = append(found, fmt.Sprintf("%v in %s: %s at %d, child %v", z.Kind, z.Entry.Path, z.Init.API, z.Init.Site.Span.Start, z.Child.Verdict))
		}
		return found
	}
	alone := hazards("/p/train.py")
	if together := hazards("/p/a_warm.py", "/p/train.py"); !reflect.DeepEqual(together, alone) {
		t.Errorf("after a_warm.py: %v; alone: %v", together, alone)
	}
}
