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
	files := memSource{"/p/factory.py": string(factory), "/p/ring.py": ring, "/p/names.py": names}
	bothPools := []string{`mp.get_context("fork").Pool(MAX_WORKERS)`, `mp.get_context("fork").Pool(os.cpu_count())`}
	tests := []struct {
		path    string
		members []string
		objects [][]string // the sites of the process objects each member holds
	}{
		{"/p/factory.py", []string{"make_pool", "make_capped_pool"}, [][]string{bothPools, bothPools}},
		{"/p/ring.py", []string{"first", "second", "third"}, [][]string{{"mp.Pool(2)"}, {"mp.Pool(2)"}, {"mp.Pool(2)"}}},
		{"/p/names.py", []string{"spare#0", "pool#1"}, [][]string{{"mp.Pool(2)"}, {"mp.Pool(2)"}}},
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
