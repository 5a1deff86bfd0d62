package model

import (
	"sort"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestFindLazyImports: which imported names are lazy, and whether the
// module uses the keyword.
func TestFindLazyImports(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		lazy    []string // alias texts, sorted
		keyword bool
	}{
		{"keyword", "lazy import cudf\nlazy from a.b import c as d, e\nimport torch\n", []string{"c as d", "cudf", "e"}, true},
		{"keyword in if and with", "if x:\n    lazy import a\nwith y:\n    lazy import b\n", []string{"a", "b"}, true},
		{"keyword in try stays eager", "try:\n    lazy import a\nexcept ImportError:\n    pass\n", nil, true},
		{"keyword in a function stays eager", "def f():\n    lazy import a\n", nil, true},
		{"__lazy_modules__ list", "__lazy_modules__ = ['cudf', 'a.b']\nimport cudf, torch\nimport a.b as ab\nfrom a.b import c\nfrom a import b\n", []string{"a.b as ab", "c", "cudf"}, false},
		{"__lazy_modules__ set()", "__lazy_modules__ = frozenset({'cudf'})\nimport cudf\n", []string{"cudf"}, false},
		{"__lazy_modules__ after the import", "import cudf\n__lazy_modules__ = ['cudf']\n", nil, false},
		{"__lazy_modules__ not for try", "__lazy_modules__ = ['cudf']\ntry:\n    import cudf\nexcept ImportError:\n    cudf = None\n", nil, false},
		{"__lazy_modules__ not for star imports", "__lazy_modules__ = ['m']\nfrom m import *\n", nil, false},
		{"__lazy_modules__ not relative", "__lazy_modules__ = ['m']\nfrom .m import x\n", nil, false},
		{"__lazy_modules__ computed", "__lazy_modules__ = names()\nimport cudf\n", nil, false},
		{"lazy as a name", "lazy = 1\nimport cudf\n", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := syntax.Parse([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			li := findLazyImports(f)
			var got []string
			for sp := range li.aliases {
				got = append(got, tt.src[sp.Start:sp.End])
			}
			sort.Strings(got)
			if strings.Join(got, "|") != strings.Join(tt.lazy, "|") || li.keyword != tt.keyword {
				t.Errorf("lazy %q keyword %v, want %q %v", got, li.keyword, tt.lazy, tt.keyword)
			}
		})
	}
}

// TestLazyImportTiming: the initialization of a lazily imported module is
// where its name is first read, on 3.15 only; before, __lazy_modules__ is
// an ordinary variable and the import initializes at its line.
func TestLazyImportTiming(t *testing.T) {
	src := strings.Join([]string{
		"import multiprocessing as mp",
		"__lazy_modules__ = ['cudf']",
		"import cudf",
		"def work(i):",
		"    return i",
		"if __name__ == '__main__':",
		"    cudf.DataFrame()",
		"    mp.get_context('fork').Process(target=work).start()",
	}, "\n") + "\n"
	prog := NewProgram(memSource{"/p/m.py": src}, Options{})
	m, err := prog.Module("/p/m.py")
	if err != nil {
		t.Fatal(err)
	}
	linux := pytarget.Platforms(pytarget.Linux)
	hz := prog.Analyze([]*Module{m}, pytarget.Versions(pytarget.Py314Late, pytarget.Py315)&linux)
	lines := map[string]string{}
	for _, z := range hz {
		line := strings.Count(src[:z.Init.Site.Span.Start], "\n") + 1
		lines[z.Configs.Describe()] = z.Init.API + " @" + string(rune('0'+line))
	}
	want := map[string]string{
		"Python 3.14.1+ on Linux": "import cudf @3",
		"Python 3.15 on Linux":    "lazy import cudf @7",
	}
	if len(lines) != len(want) {
		t.Fatalf("hazards %v, want %v", lines, want)
	}
	for k, v := range want {
		if lines[k] != v {
			t.Errorf("%s: %q, want %q", k, lines[k], v)
		}
	}
}
