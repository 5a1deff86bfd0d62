package cpythondiff_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/internal/cpythondiff"
)

// write puts each source in a file of dir named by its key and returns the
// paths by key.
func write(t *testing.T, dir string, srcs map[string]string) map[string]string {
	t.Helper()
	paths := map[string]string{}
	for name, src := range srcs {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

// TestRejected checks which files count as a syntax error of ours, and
// where: a region the parser cannot parse, what CPython's tokenizer
// rejects (tokcheck), a declared encoding that is not UTF-8 (left out and
// counted), and a file that cannot be read (an error, not a verdict).
func TestRejected(t *testing.T) {
	paths := write(t, t.TempDir(), map[string]string{
		"train.py":     "import torch\n\ndef main():\n    print(torch.cuda.is_available())\n",
		"broken.py":    "x = 1\ndef main(:\n    pass\n",
		"broken2.py":   "x = 1\ndef main(:\n    pass\n", // the same content, parsed once
		"tabs.py":      "if True:\n        x = 1\n\ty = 2\n",
		"dedent.py":    "if True:\n        x = 1\n    y = 2\n",
		"bom.py":       "x = 1\n\ufeffy = 2\n",
		"latin1.py":    "# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n",
		"fstring.py":   "w = 3\nprint(f\"{'a':>{w}} {w!r:^8}\")\n",
		"doc_bom.py":   "s = '\ufeff'\n", // inside a string CPython takes it
		"utf8_decl.py": "# -*- coding: utf-8 -*-\nx = 1\n",
	})
	missing := filepath.Join(t.TempDir(), "gone.py")
	var files []string
	for _, p := range paths {
		files = append(files, p)
	}
	rejected, encodings, err := cpythondiff.Rejected(append(files, missing))
	if err == nil || !strings.Contains(err.Error(), "gone.py") {
		t.Errorf("an unreadable file: err = %v, want it named", err)
	}
	if encodings != 1 {
		t.Errorf("encodings = %d, want 1 (latin1.py)", encodings)
	}
	want := map[string]string{
		"broken.py":  "2: cannot parse",
		"broken2.py": "2: cannot parse",
		"tabs.py":    "3: TabError",
		"dedent.py":  "3: IndentationError",
		"bom.py":     "2: SyntaxError: invalid non-printable character U+FEFF",
	}
	for name, p := range paths {
		got, ok := rejected[p]
		switch w, rejects := want[name]; {
		case rejects && !strings.HasPrefix(got, w):
			t.Errorf("%s: rejected as %q, want %q…", name, got, w)
		case !rejects && ok:
			t.Errorf("%s: rejected as %q, want accepted", name, got)
		}
	}
	if len(rejected) != len(want) {
		t.Errorf("rejected %d files, want %d: %v", len(rejected), len(want), rejected)
	}
}

// TestCompare hands files to the interpreters found and checks that a file
// one of them compiles is a disagreement naming the versions of the
// interpreters that judge it, and that what CPython refuses is not: a
// syntax error, and a file its parser reads but its compiler refuses.
// The rejections are made up: the syntax layer rejects none of these.
func TestCompare(t *testing.T) {
	pys := cpythondiff.ForTest(t)
	if len(pys) == 0 {
		return
	}
	paths := write(t, t.TempDir(), map[string]string{
		"valid.py":      "import os\nprint(os.getpid())\n",
		"only_first.py": "x = [i for i in range(3)]\n",
		"unjudged.py":   "x = 1\n",
		"invalid.py":    "def f(:\n    pass\n",
		"future.py":     "from __future__ import *\n",
	})
	rejected := map[string]string{}
	for name, p := range paths {
		rejected[p] = "1: made up for " + name
	}
	var all []int
	var names []string
	for i, py := range pys {
		all = append(all, i)
		names = append(names, py.Version)
	}
	judges := map[string][]int{
		paths["valid.py"]:      all,
		paths["only_first.py"]: {0},
		paths["invalid.py"]:    all,
		paths["future.py"]:     all,
	}
	got, err := cpythondiff.Compare(pys, rejected, judges)
	if err != nil {
		t.Fatal(err)
	}
	want := []cpythondiff.Disagreement{
		{Path: paths["only_first.py"], Where: "1: made up for only_first.py", Versions: names[:1]},
		{Path: paths["valid.py"], Where: "1: made up for valid.py", Versions: names},
	}
	if want[1].String() < want[0].String() {
		want[0], want[1] = want[1], want[0]
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Compare:\n got %v\nwant %v", got, want)
	}
	if s := want[0].String(); !strings.HasPrefix(s, want[0].Path+":1: made up") || !strings.HasSuffix(s, " parses it)") {
		t.Errorf("String() = %q, want path:line: what (CPython … parses it)", s)
	}
}

// TestInterpreters checks that a named interpreter that does not run is an
// error, not left out: the numbers would be recorded against fewer versions
// than asked for.
func TestInterpreters(t *testing.T) {
	if _, err := cpythondiff.Interpreters(filepath.Join(t.TempDir(), "python3.99")); err == nil {
		t.Error("a named interpreter that does not exist: no error")
	}
	pys, err := cpythondiff.Interpreters()
	if err != nil {
		t.Fatal(err)
	}
	for i, py := range pys {
		if py.Path == "" || py.Stdlib == "" || !strings.HasPrefix(py.Version, "3.") {
			t.Errorf("found %+v", py)
		}
		if i > 0 && minor(pys[i-1].Version) > minor(py.Version) {
			t.Errorf("not sorted by version: %s before %s", pys[i-1].Version, py.Version)
		}
	}
	if len(pys) > 0 {
		named, err := cpythondiff.Interpreters(pys[0].Path)
		if err != nil || len(named) != 1 || named[0] != pys[0] {
			t.Errorf("Interpreters(%s) = %v, %v; want %v", pys[0].Path, named, err, pys[0])
		}
	}
}

func minor(version string) int {
	var major, minor int
	fmt.Sscanf(version, "%d.%d", &major, &minor)
	return minor
}
