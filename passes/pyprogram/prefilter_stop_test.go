package pyprogram

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestPrefilterStopsOnceKept: the prefilter stops reading a checked file's
// reach as soon as what it read keeps the file (a keep cannot be undone by
// more bits), and reads on while the file is still undecided.
func TestPrefilterStopsOnceKept(t *testing.T) {
	dir := writeTree(t, map[string]string{
		// main reaches a start through pool (one import away) and,
		// separately, a long chain of plain modules.
		"main.py": "import pool\nimport chain1\n\npool.run()\n",
		"pool.py": "import multiprocessing as mp\n\ndef run():\n    mp.Process(target=print).start()\n",
		// plain reaches only the chain, whose last module starts
		// processes: it is kept, after reading the whole chain.
		"plain.py":  "import chain1\n",
		"chain1.py": "import chain2\n",
		"chain2.py": "import chain3\n",
		"chain3.py": "import multiprocessing as mp\nmp.Pool(2)\n",
		// alone reaches nothing that starts: skipped, everything read.
		"alone.py":     "import chain_end\n",
		"chain_end.py": "x = 1\n",
	})
	dirs := newDirCache()
	for _, tc := range []struct {
		checked  string
		simulate bool
		read     []string
	}{
		{"main.py", true, []string{"chain1.py", "main.py", "pool.py"}},
		{"plain.py", true, []string{"chain1.py", "chain2.py", "chain3.py", "plain.py"}},
		{"alone.py", false, []string{"alone.py", "chain_end.py"}},
	} {
		var r readLog
		d := runPrefilter([]string{filepath.Join(dir, tc.checked)}, r.read, dirs.IsFile, isolatedPolicy(t, dir).ImportRoots, nil, 2, nil)
		if got := d.simulate[filepath.Join(dir, tc.checked)]; got != tc.simulate {
			t.Errorf("%s: simulated %v, want %v", tc.checked, got, tc.simulate)
		}
		if read := r.names(); !slices.Equal(read, tc.read) {
			t.Errorf("%s: read %q, want %q", tc.checked, read, tc.read)
		}
	}
}
