package model

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestImportFactsSkipNameGuards: importing a module runs neither its name
// guard's body nor what that body calls, so importFacts neither counts it
// nor builds the summaries (and loads the modules) it would take; running
// the module as __main__ does both. A process guard's body runs on import
// in the main process, and counts either way.
func TestImportFactsSkipNameGuards(t *testing.T) {
	files := memSource{
		"/p/heavy.py":   "import multiprocessing\n\ndef run():\n    multiprocessing.Process(target=print).start()\n",
		"/p/named.py":   "def main():\n    import heavy\n    heavy.run()\n\nif __name__ == \"__main__\":\n    main()\n",
		"/p/negated.py": "def main():\n    import heavy\n    heavy.run()\n\nif __name__ != \"__main__\":\n    pass\nelse:\n    main()\n",
		"/p/by_process.py": "import multiprocessing\n\ndef main():\n    import heavy\n    heavy.run()\n\n" +
			"if multiprocessing.current_process().name == \"MainProcess\":\n    main()\n",
		"/p/outside.py": "def main():\n    import heavy\n    heavy.run()\n\nif __name__ == \"__main__\":\n    pass\nelse:\n    main()\n",
	}
	for _, tt := range []struct {
		path         string
		importStarts bool
	}{
		{"/p/named.py", false},
		{"/p/negated.py", false},
		{"/p/by_process.py", true},
		{"/p/outside.py", true},
	} {
		prog := NewProgram(files, Options{Roots: []string{"/p"}})
		m, err := prog.Module(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.importFacts().starts; got != tt.importStarts {
			t.Errorf("%s: importFacts().starts = %v, want %v", tt.path, got, tt.importStarts)
		}
		heavyLoaded := func() bool {
			return slices.ContainsFunc(prog.Loaded(), func(l *Module) bool { return l.Path == "/p/heavy.py" })
		}
		if !tt.importStarts && heavyLoaded() {
			t.Errorf("%s: importing it loaded heavy.py, which only its guarded main() imports", tt.path)
		}
		if !m.topFacts().starts {
			t.Errorf("%s: topFacts().starts = false: as __main__ it starts a process", tt.path)
		}
		if !heavyLoaded() {
			t.Errorf("%s: running it as __main__ did not load heavy.py", tt.path)
		}
	}
}

// TestFactsOfCyclesIndependentOfOrder: the facts of code that reaches
// itself are those of the whole cycle, whichever member is asked first.
// Each question is asked in every order, each time of a new program; the
// members are named "module.py" (importFacts) or "module.py:function"
// (facts). The first case is testdata/py/cfl003/recursive_fan_out.py,
// whose second member was cached as doing nothing when the first was asked
// first.
func TestFactsOfCyclesIndependentOfOrder(t *testing.T) {
	retry, err := os.ReadFile("../testdata/py/cfl003/recursive_fan_out.py")
	if err != nil {
		t.Fatal(err)
	}
	ring := `import multiprocessing as mp

def first():
    second()

def second():
    third()

def third():
    if mp.cpu_count() > 64:
        first()
    mp.Process(target=print).start()
`
	// drain iterates its parameter, and its recursive call hands it a
	// loader with workers: calling drain starts processes.
	drain := `import torch
from torch.utils.data import DataLoader

def drain(batches, again):
    for batch in batches:
        pass
    if again:
        drain(DataLoader(range(8), num_workers=2), False)
`
	pkg := memSource{
		"/p/shards/__init__.py": "from . import worker\n",
		"/p/shards/worker.py":   "import multiprocessing as mp\n\nimport shards\n\nmp.Process(target=print).start()\n",
		"/p/retry.py":           string(retry),
		"/p/ring.py":            ring,
		"/p/drain.py":           drain,
	}
	tests := []struct {
		members []string
		starts  []bool
	}{
		{[]string{"/p/retry.py:load_shards", "/p/retry.py:load_shards_after_backoff"}, []bool{true, true}},
		{[]string{"/p/ring.py:first", "/p/ring.py:second", "/p/ring.py:third"}, []bool{true, true, true}},
		{[]string{"/p/drain.py:drain"}, []bool{true}},
		{[]string{"/p/shards/__init__.py", "/p/shards/worker.py"}, []bool{true, true}},
	}
	for _, tt := range tests {
		for _, order := range permutations(len(tt.members)) {
			prog := NewProgram(pkg, Options{Roots: []string{"/p"}})
			got := make([]bool, len(tt.members))
			for _, i := range order {
				got[i] = factsOf(t, prog, tt.members[i]).starts
			}
			if !slices.Equal(got, tt.starts) {
				t.Errorf("%v asked in the order %v: starts %v, want %v", tt.members, order, got, tt.starts)
			}
		}
	}
}

// factsOf returns the facts of member: "path" for importing the module,
// "path:name" for calling its top-level function name.
func factsOf(t *testing.T, prog *Program, member string) facts {
	t.Helper()
	path, name, isFunc := strings.Cut(member, ":")
	m, err := prog.Module(path)
	if err != nil {
		t.Fatal(err)
	}
	if !isFunc {
		return m.importFacts()
	}
	for _, f := range m.Funcs {
		if f.Name == name {
			return f.facts()
		}
	}
	t.Fatalf("%s: no function %s", path, name)
	return facts{}
}

// permutations returns every order of 0..n-1.
func permutations(n int) [][]int {
	if n == 1 {
		return [][]int{{0}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := slices.Insert(slices.Clone(p), i, n-1)
			out = append(out, q)
		}
	}
	return out
}
