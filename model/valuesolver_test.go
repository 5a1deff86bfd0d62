package model

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestValuesOfCyclesIndependentOfOrder: the memoized values of code that
// reaches itself (functions returning each other's results, names bound to
// each other) are those of the whole cycle, whichever member is asked
// first. Each member is asked in every order, each time of a new program;
// a member is "function" (what it returns) or "name#i" (the values of the
// i-th binding of a module-level name). The first case is
// testdata/py/cfl003/recursive_pool_factory.py, whose make_pool was cached
// as returning only its own Pool when make_capped_pool was asked first.
func TestValuesOfCyclesIndependentOfOrder(t *testing.T) {
	factory, err := os.ReadFile("../testdata/py/cfl003/recursive_pool_factory.py")
	if err != nil {
		t.Fatal(err)
	}
	ring := `import multiprocessing as mp

def first():
    return second()

def second():
    return third()

def third():
    if mp.cpu_count() > 64:
        return first()
    return mp.Pool(2)
`
	// pool's second binding and spare read each other, through the loop.
	names := `import multiprocessing as mp

pool = mp.Pool(2)
for attempt in range(3):
    spare = pool
    pool = spare
`
	// A computed module attribute (dynattr.go) and a name reading it: spare
	// is stored from current, which reads spare.
	dynamic := `import multiprocessing as mp
import sys

this = sys.modules[__name__]
setattr(this, "pool", mp.Pool(2))
current = this.spare
setattr(this, "spare", current)
setattr(this, "spare", this.pool)


def get_spare():
    return this.spare
`
	files := memSource{"/p/factory.py": string(factory), "/p/ring.py": ring, "/p/names.py": names, "/p/dynamic.py": dynamic}
	bothPools := []string{`mp.get_context("fork").Pool(MAX_WORKERS)`, `mp.get_context("fork").Pool(os.cpu_count())`}
	tests := []struct {
		path    string
		members []string
		objects [][]string // the sites of the process objects each member holds
	}{
		{"/p/factory.py", []string{"make_pool", "make_capped_pool"}, [][]string{bothPools, bothPools}},
		{"/p/ring.py", []string{"first", "second", "third"}, [][]string{{"mp.Pool(2)"}, {"mp.Pool(2)"}, {"mp.Pool(2)"}}},
		{"/p/names.py", []string{"spare#0", "pool#1"}, [][]string{{"mp.Pool(2)"}, {"mp.Pool(2)"}}},
		{"/p/dynamic.py", []string{"get_spare", "current#0"}, [][]string{{"mp.Pool(2)"}, {"mp.Pool(2)"}}},
	}
	for _, tt := range tests {
		for _, order := range permutations(len(tt.members)) {
			prog := NewProgram(files, Options{Roots: []string{"/p"}})
			m, err := prog.Module(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			got := make([][]string, len(tt.members))
			for _, i := range order {
				got[i] = objectSites(m, valuesOf(t, m, tt.members[i]))
			}
			for i := range got {
				if !slices.Equal(got[i], sorted(tt.objects[i])) {
					t.Errorf("%s: %v asked in the order %v: %s holds %q, want %q", tt.path, tt.members, order, tt.members[i], got[i], sorted(tt.objects[i]))
				}
			}
		}
	}
}

// valuesOf evaluates a member of TestValuesOfCyclesIndependentOfOrder.
func valuesOf(t *testing.T, m *Module, member string) []Value {
	t.Helper()
	var ev evaluator
	if name, index, ok := strings.Cut(member, "#"); ok {
		bs := m.Scope.bindingsOf(name)
		i := int(index[0] - '0')
		if i >= len(bs) {
			t.Fatalf("%s: no binding %s", m.Path, member)
		}
		return ev.binding(bs[i])
	}
	for _, f := range m.Funcs {
		if f.Name == member {
			return ev.returns(f)
		}
	}
	t.Fatalf("%s: no function %s", m.Path, member)
	return nil
}

// objectSites are the sources of the calls that made the process objects
// among vs, sorted.
func objectSites(m *Module, vs []Value) []string {
	var out []string
	for _, v := range vs {
		if v.Obj != nil {
			out = append(out, string(m.Src[v.Obj.Site.Span.Start:v.Obj.Site.Span.End]))
		}
	}
	return sorted(out)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// TestProgramWideReturnsIgnoreTheAsker: what a function returns outside
// any call context is one memo for the program, so it is computed with no
// context whichever context asks first: the DataLoader a Lightning-style
// hook returns is the module's own object, not one made for the context
// of the code that happened to ask (iteration.go asks for a hook's returns
// in the context of the call handing it the model).
func TestProgramWideReturnsIgnoreTheAsker(t *testing.T) {
	const src = `from torch.utils.data import DataLoader


class DigitsModule:
    def train_dataloader(self):
        return DataLoader(range(64), num_workers=4)


def fit(module, epochs):
    for _ in range(epochs):
        module.train_dataloader()
`
	for _, askerFirst := range []bool{true, false} {
		m := load(t, memSource{"/p/train.py": src}, "/p/train.py")
		hook, fit := funcNamed(m, "DigitsModule.train_dataloader"), funcNamed(m, "fit")
		// The asker: code running in a context of fit().
		asker := evaluator{ctx: &callContext{fn: fit}}
		var plain evaluator
		var first, second []Value
		if askerFirst {
			first, second = asker.returns(hook), plain.returnsIn(hook, nil)
		} else {
			first, second = plain.returnsIn(hook, nil), asker.returns(hook)
		}
		for i, vs := range [][]Value{first, second} {
			if len(vs) != 1 || vs[0].Obj == nil {
				t.Fatalf("asker first %v: answer %d is %v, want one loader", askerFirst, i, vs)
			}
			if o := vs[0].Obj; m.Prog.values().objects[o.Site].obj != o {
				t.Errorf("asker first %v: answer %d is a loader made for a call context, not the module's own", askerFirst, i)
			}
		}
	}
}

// TestOneValueSetsShared: memos that settle on the same single value share
// one set, and it is capped, so that a caller appending to it copies. Two
// names bound to the same library path, and a function returning a third,
// hold the same set; a name with two values does not take part.
func TestOneValueSetsShared(t *testing.T) {
	files := memSource{"/p/train.py": `import torch

device_lib = torch.cuda
cuda = torch.cuda


def backend():
    return torch.cuda


either = torch.cuda if device_lib else torch.backends
`}
	prog := NewProgram(files, Options{Roots: []string{"/p"}})
	m, err := prog.Module("/p/train.py")
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string][]Value{}
	for _, member := range []string{"device_lib#0", "cuda#0", "backend", "either#0"} {
		sets[member] = valuesOf(t, m, member)
	}
	for _, member := range []string{"cuda#0", "backend"} {
		got, want := sets[member], sets["device_lib#0"]
		if len(got) != 1 || len(want) != 1 || got[0].Path != "torch.cuda" {
			t.Fatalf("%s holds %v, device_lib %v: want torch.cuda each", member, got, want)
		}
		if &got[0] != &want[0] {
			t.Errorf("%s and device_lib hold torch.cuda in two sets, want one shared", member)
		}
	}
	if one := sets["device_lib#0"]; cap(one) != 1 {
		t.Errorf("the shared set has capacity %d, want 1: an append would write into it", cap(one))
	}
	if either := sets["either#0"]; len(either) != 2 {
		t.Errorf("either holds %v, want torch.cuda and torch.backends", either)
	}
}
