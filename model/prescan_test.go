package model

import (
	"sort"
	"testing"
)

// TestPrescanIncremental checks that the prescan, extended with modules
// loaded after it was first computed, says what computing it afresh over all
// of them says: the relation is a least fixpoint, so the order in which the
// modules arrive must not matter.
func TestPrescanIncremental(t *testing.T) {
	files := memSource{
		"/p/a.py": "import b\n\ndef top():\n    helper()\n\ndef uses_worker():\n    Worker()\n\ndef idle():\n    print(1)\n",
		"/p/b.py": "import multiprocessing as mp\n\ndef helper():\n    inner()\n\nclass Base(mp.Process):\n    pass\n",
		"/p/c.py": "from multiprocessing import Pool\n\ndef inner():\n    Pool(2)\n\nclass Worker(Base):\n    def run(self):\n        idle()\n",
	}
	paths := []string{"/p/a.py", "/p/b.py", "/p/c.py"}
	names := func(may map[*Function]bool) []string {
		var out []string
		for f, ok := range may {
			if ok {
				out = append(out, f.Module.Name+"."+f.QualName)
			}
		}
		sort.Strings(out)
		return out
	}
	fresh := NewProgram(files, Options{})
	for _, p := range paths {
		if _, err := fresh.Module(p); err != nil {
			t.Fatal(err)
		}
	}
	want := names(fresh.mayStart())
	wantSet := map[string]bool{}
	for _, n := range want {
		wantSet[n] = true
	}
	for _, n := range []string{"a.top", "a.uses_worker", "b.helper", "c.inner"} {
		if !wantSet[n] {
			t.Errorf("%s: not a function that may start processes (got %v)", n, want)
		}
	}
	if wantSet["a.idle"] || wantSet["c.Worker.run"] {
		t.Errorf("functions that start nothing may start: %v", want)
	}
	// Every order of arrival, one module at a time, asking in between.
	orders := [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for _, order := range orders {
		p := NewProgram(files, Options{})
		for _, i := range order {
			if _, err := p.Module(paths[i]); err != nil {
				t.Fatal(err)
			}
			p.mayStart()
		}
		if got := names(p.mayStart()); !equalStrings(got, want) {
			t.Errorf("order %v: %v, afresh %v", order, got, want)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
