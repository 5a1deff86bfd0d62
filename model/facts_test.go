package model

import (
	"slices"
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
