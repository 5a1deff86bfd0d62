package pyprogram

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// TestPrograms: checked files are one program when the reach of one (what
// the model can load from it: imports, submodules named as attributes,
// preload lists, import_module's directory) meets the other's, and
// separate programs otherwise, even where module names repeat.
func TestPrograms(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]string
		checked []string
		want    [][]string
	}{
		{
			name:    "standalone scripts",
			files:   map[string]string{"a.py": "import os\nos.getpid()\n", "b.py": "print(1)\n"},
			checked: []string{"a.py", "b.py"},
			want:    [][]string{{"a.py"}, {"b.py"}},
		},
		{
			name: "a helper both import",
			files: map[string]string{
				"a.py": "import helper\n", "b.py": "from helper import f\n", "helper.py": "def f(): pass\n", "c.py": "x = 1\n",
			},
			checked: []string{"a.py", "c.py", "b.py"},
			want:    [][]string{{"a.py", "b.py"}, {"c.py"}},
		},
		{
			// a keeps itself by its own bytes: the prefilter would not
			// read on; Programs must.
			name: "a helper imported by a file the prefilter keeps at once",
			files: map[string]string{
				"a.py":      "import multiprocessing as mp\nimport torch\nimport helper\ntorch.cuda.init()\nmp.Pool(2)\n",
				"b.py":      "import helper\n",
				"helper.py": "x = 1\n",
			},
			checked: []string{"a.py", "b.py"},
			want:    [][]string{{"a.py", "b.py"}},
		},
		{
			name: "a chain of imports",
			files: map[string]string{
				"a.py": "import m1\n", "m1.py": "import m2\n", "m2.py": "from . import m3\n", "m3.py": "", "b.py": "import m3\n",
			},
			checked: []string{"a.py", "b.py"},
			want:    [][]string{{"a.py", "b.py"}},
		},
		{
			name: "a relative import in a package",
			files: map[string]string{
				"pkg/__init__.py": "", "pkg/a.py": "from . import b\n", "pkg/b.py": "x = 1\n", "other.py": "y = 2\n",
			},
			checked: []string{"pkg/a.py", "other.py", "pkg/b.py"},
			want:    [][]string{{"pkg/a.py", "pkg/b.py"}, {"other.py"}},
		},
		{
			name: "a submodule named as an attribute",
			files: map[string]string{
				"pkg/__init__.py": "", "pkg/sub.py": "x = 1\n", "main.py": "import pkg\nprint(pkg.sub.x)\n",
			},
			checked: []string{"main.py", "pkg/sub.py"},
			want:    [][]string{{"main.py", "pkg/sub.py"}},
		},
		{
			name: "a forkserver preload list",
			files: map[string]string{
				"main.py": "import multiprocessing as mp\nmp.set_forkserver_preload(['warm'])\n", "warm.py": "x = 1\n",
			},
			checked: []string{"main.py", "warm.py"},
			want:    [][]string{{"main.py", "warm.py"}},
		},
		{
			name: "import_module loads its directory",
			files: map[string]string{
				"plugins/__init__.py": "",
				"plugins/loader.py":   "import importlib\n\ndef load(name):\n    return importlib.import_module('.' + name, __package__)\n",
				"plugins/resize.py":   "x = 1\n",
			},
			checked: []string{"plugins/loader.py", "plugins/resize.py"},
			want:    [][]string{{"plugins/loader.py", "plugins/resize.py"}},
		},
		{
			name: "projects with the same module names",
			files: map[string]string{
				"vision/train.py": "import utils\n", "vision/utils.py": "def f(): pass\n",
				"speech/train.py": "import utils\n", "speech/utils.py": "def f(): pass\n",
			},
			checked: []string{"speech/train.py", "speech/utils.py", "vision/train.py", "vision/utils.py"},
			want:    [][]string{{"speech/train.py", "speech/utils.py"}, {"vision/train.py", "vision/utils.py"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTree(t, tc.files)
			size := 0
			for _, src := range tc.files {
				size += len(src)
			}
			var checked []string
			for _, c := range tc.checked {
				checked = append(checked, filepath.Join(dir, filepath.FromSlash(c)))
			}
			progs, _ := Programs(checked, os.ReadFile, isolatedPolicy(t, dir))
			var got [][]string
			var bytes int64
			for _, p := range progs {
				var rel []string
				for _, f := range p.Files {
					rel = append(rel, filepath.ToSlash(strings.TrimPrefix(f, dir+string(filepath.Separator))))
				}
				got = append(got, rel)
				bytes += p.Bytes
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("programs %q, want %q", got, tc.want)
			}
			// Every file of the fixture is reached from a checked one here;
			// a split is proved by reading every reach whole, so the
			// programs' sizes add up to all of them (one program stops
			// reading once joined).
			if len(progs) > 1 && bytes != int64(size) {
				t.Errorf("programs hold %d bytes, want %d", bytes, size)
			}
		})
	}
}

// TestProgramsOneFileReadsNothing: a pre-commit run on one file is one
// program, decided without reading anything.
func TestProgramsOneFileReadsNothing(t *testing.T) {
	read := func(p string) ([]byte, error) {
		t.Errorf("read %s", p)
		return os.ReadFile(p)
	}
	progs, _ := Programs([]string{"train.py"}, read, isolatedPolicy(t, t.TempDir()))
	if len(progs) != 1 || !reflect.DeepEqual(progs[0].Files, []string{"train.py"}) {
		t.Errorf("programs %v, want the one file", progs)
	}
}

// isolatedPolicy is a policy with no configuration file, rooted at dir.
func isolatedPolicy(t *testing.T, dir string) *config.Policy {
	t.Helper()
	l, err := config.NewLoader(ruledoc.All(), config.Overrides{Isolated: true})
	if err != nil {
		t.Fatal(err)
	}
	pol := config.NewPolicy(l)
	pol.Roots = []string{dir}
	return pol
}

// TestProgramsStopOnceJoined: Programs reads on until every checked file
// is joined, and no further; files it cannot join are read whole.
func TestProgramsStopOnceJoined(t *testing.T) {
	dir := writeTree(t, map[string]string{
		// a and b both import common: joined by their own imports, before
		// common or its chain is read.
		"a.py": "import common\n", "b.py": "import common\n",
		"common.py": "import chain1\n", "chain1.py": "import chain2\n", "chain2.py": "x = 1\n",
		// c shares nothing: proving it apart reads its whole reach.
		"c.py": "import lone1\n", "lone1.py": "import lone2\n", "lone2.py": "y = 2\n",
	})
	for _, tc := range []struct {
		checked []string
		read    []string
	}{
		{[]string{"a.py", "b.py"}, []string{"a.py", "b.py"}},
		{[]string{"a.py", "c.py"}, []string{"a.py", "c.py", "chain1.py", "chain2.py", "common.py", "lone1.py", "lone2.py"}},
	} {
		var checked []string
		for _, c := range tc.checked {
			checked = append(checked, filepath.Join(dir, c))
		}
		var r readLog
		Programs(checked, r.read, isolatedPolicy(t, dir))
		if read := r.names(); !reflect.DeepEqual(read, tc.read) {
			t.Errorf("%v: read %q, want %q", tc.checked, read, tc.read)
		}
	}
}

// writeTree writes files (slash-separated path → source) under a new
// temporary directory and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readLog is a ReadFile that records the base names of the files read,
// from any goroutine.
type readLog struct {
	mu   sync.Mutex
	seen []string
}

func (r *readLog) read(path string) ([]byte, error) {
	r.mu.Lock()
	r.seen = append(r.seen, filepath.Base(path))
	r.mu.Unlock()
	return os.ReadFile(path)
}

// names returns the names read, sorted.
func (r *readLog) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(r.seen)
	sort.Strings(out)
	return out
}
