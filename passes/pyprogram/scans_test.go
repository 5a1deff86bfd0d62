package pyprogram

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// TestPrefilterTakesProgramsScans: the prefilter of a program's pass takes
// the scans Programs made of the run's files instead of reading them
// again, reads only what Programs did not, and decides as it would alone;
// scans made with other settings are not taken.
func TestPrefilterTakesProgramsScans(t *testing.T) {
	dir := writeTree(t, map[string]string{
		// Two programs: main reaches a start through pool; alone reaches
		// nothing that starts.
		"main.py":      "import pool\nimport chain1\n\npool.run()\n",
		"pool.py":      "import multiprocessing as mp\n\ndef run():\n    mp.Process(target=print).start()\n",
		"chain1.py":    "import chain2\n",
		"chain2.py":    "x = 2\n",
		"alone.py":     "import chain_end\n",
		"chain_end.py": "x = 1\n",
		// a and b are joined by their first imports: Programs stops
		// there, before common's chain, which a's prefilter reads on.
		"a.py": "import common\n", "b.py": "import common\n",
		"common.py": "import far\n", "far.py": "import multiprocessing as mp\nmp.Pool(2)\n",
	})
	paths := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(dir, n))
		}
		return out
	}
	for _, tc := range []struct {
		name        string
		run         []string // the files checked, split by Programs
		checked     []string // one program's files, whose pass prefilters them
		extra       []string // the pass's extra initializers, when not the run's
		readWith    []string // what the prefilter reads, given Programs' scans
		readWithout []string // what it reads alone
	}{
		{
			name: "every file scanned", run: []string{"main.py", "alone.py"}, checked: []string{"main.py"},
			readWith:    nil,
			readWithout: []string{"chain1.py", "main.py", "pool.py"},
		},
		{
			name: "the other program", run: []string{"main.py", "alone.py"}, checked: []string{"alone.py"},
			readWith:    nil,
			readWithout: []string{"alone.py", "chain_end.py"},
		},
		{
			name: "past where Programs stopped", run: []string{"a.py", "b.py"}, checked: []string{"a.py", "b.py"},
			readWith:    []string{"common.py", "far.py"},
			readWithout: []string{"a.py", "b.py", "common.py", "far.py"},
		},
		{
			name: "other settings", run: []string{"main.py", "alone.py"}, checked: []string{"main.py"},
			extra:       []string{"mylib.init_gpu"},
			readWith:    []string{"chain1.py", "main.py", "pool.py"},
			readWithout: []string{"chain1.py", "main.py", "pool.py"},
		},
	} {
		pol := isolatedPolicy(t, dir)
		run := paths(tc.run...)
		_, scans := Programs(run, (&readLog{}).read, pol)
		extra := runExtraInitializers(pol, run)
		if tc.extra != nil {
			extra = tc.extra
		}
		checked := paths(tc.checked...)

		var with, alone readLog
		got := runPrefilter(checked, with.read, newDirCache().IsFile, pol.ImportRoots, extra, 2, scans)
		want := runPrefilter(checked, alone.read, newDirCache().IsFile, pol.ImportRoots, extra, 2, nil)
		// The verdicts, not the scans handed on: those taken from
		// Programs hold more files.
		got.scans, want.scans = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: with Programs' scans %v, alone %v", tc.name, got, want)
		}
		if read := with.names(); !slices.Equal(read, tc.readWith) {
			t.Errorf("%s: with Programs' scans read %q, want %q", tc.name, read, tc.readWith)
		}
		if read := alone.names(); !slices.Equal(read, tc.readWithout) {
			t.Errorf("%s: alone read %q, want %q", tc.name, read, tc.readWithout)
		}
	}
}
