package config

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
)

var update = flag.Bool("update", false, "rewrite testdata/config/errors.golden")

// TestExampleFixture loads testdata/config/example, the documented example
// with every key.
func TestExampleFixture(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("..", "testdata", "config", "example"))
	l := loader(t, Overrides{})
	s := settings(t, l, filepath.Join(dir, "src", "pkg", "mod.py"))
	if want := []string{"CFL001", "CFL002", "CFL003", "CFL004"}; !reflect.DeepEqual(s.Codes(), want) {
		t.Errorf("codes %v, want %v", s.Codes(), want)
	}
	want := pytarget.Versions(pytarget.Py311, pytarget.Py315) & pytarget.Platforms(pytarget.Linux, pytarget.Windows)
	if s.Targets != want {
		t.Errorf("targets %s, want %s", s.Targets.Describe(), want.Describe())
	}
	if !reflect.DeepEqual(s.ExtraInitializers, []string{"example.gpu.setup"}) {
		t.Errorf("extra initializers %v", s.ExtraInitializers)
	}
	if s := settings(t, l, filepath.Join(dir, "tests", "test_mod.py")); !s.PerFileIgnored("CFL002") || s.PerFileIgnored("CFL001") {
		t.Error("tests/** per-file ignore")
	}
	if s := settings(t, l, filepath.Join(dir, "src", "pkg", "__init__.py")); !s.PerFileIgnored("CFL001") {
		t.Error("__init__.py per-file ignore")
	}
	if ex, _ := l.Excluded(filepath.Join(dir, "src", "generated", "x.py"), false); !ex {
		t.Error("extend-exclude")
	}
}

// TestErrorFixtures: every directory under testdata/config/errors holds a
// bad config; their messages are in errors.golden.
func TestErrorFixtures(t *testing.T) {
	root := filepath.Join("..", "testdata", "config")
	t.Chdir(filepath.Join(root, "errors"))
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		_, err := loader(t, Overrides{}).For(filepath.Join(e.Name(), "x.py"))
		if err == nil {
			t.Errorf("%s: no error", e.Name())
			continue
		}
		b.WriteString(err.Error() + "\n")
	}
	golden := filepath.Join("..", "errors.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./config -update)", err)
	}
	if b.String() != string(want) {
		t.Errorf("error messages differ from %s (run go test ./config -update):\n%s", golden, b.String())
	}
}
