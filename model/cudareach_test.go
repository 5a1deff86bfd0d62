package model

import (
	"fmt"
	"strings"
	"testing"
)

// TestCUDAPossibleThroughCycle: a module whose only way to CUDA goes
// around an import cycle (pkg.utils → pkg.utils.tools → pkg → pkg.device,
// which imports torch) can initialize CUDA, whichever module is asked
// first. The search that counted a module on its stack as false answered
// false for pkg.utils once check_a.py had been asked first: the shape of
// mmengine, whose tests/test_utils/test_progressbar_rich.py lost its CFL003
// when test_progressbar.py was checked with it.
func TestCUDAPossibleThroughCycle(t *testing.T) {
	files := memSource{
		"/p/pkg/__init__.py":       "from .utils import run\nfrom .device import init\n",
		"/p/pkg/device.py":         "import torch\n\ndef init():\n    torch.cuda.init()\n",
		"/p/pkg/utils/__init__.py": "from .tools import run\n",
		"/p/pkg/utils/tools.py":    "import pkg\n\ndef run():\n    pass\n",
		"/p/check_a.py":            "import pkg\n",
		"/p/check_b.py":            "from pkg.utils import run\n",
		"/p/plain.py":              "import json\n",
		"/p/json.py":               "x = 1\n",
	}
	for _, order := range [][]string{
		{"/p/check_a.py", "/p/check_b.py", "/p/plain.py"},
		{"/p/check_b.py", "/p/check_a.py", "/p/plain.py"},
		{"/p/plain.py", "/p/check_b.py", "/p/check_a.py"},
	} {
		prog := NewProgram(files, Options{Roots: []string{"/p"}})
		for _, path := range order {
			m, err := prog.Module(path)
			if err != nil {
				t.Fatal(err)
			}
			want := path != "/p/plain.py"
			if got := m.cudaPossible(); got != want {
				t.Errorf("asked in the order %v: cudaPossible(%s) = %v, want %v", order, path, got, want)
			}
		}
	}
}

// TestCUDAPossibleAsksTheOracle: when Options.CUDAUnreachable clears a
// module whose imports are not loaded, cudaPossible says false and loads
// none of them; when the oracle cannot tell, the search loads them and
// answers. With everything loaded, the oracle is asked only what it knows.
func TestCUDAPossibleAsksTheOracle(t *testing.T) {
	files := memSource{
		"/p/main.py":  "import a\n\ndef later():\n    a.f()\n",
		"/p/a.py":     "import b\n\ndef f():\n    return b.g()\n",
		"/p/b.py":     "def g():\n    return 1\n",
		"/p/other.py": "import b\n",
	}
	for _, clears := range []bool{true, false} {
		var asked []string
		oracle := func(path string, read bool) bool {
			asked = append(asked, fmt.Sprintf("%s read=%v", path, read))
			return clears
		}
		prog := NewProgram(files, Options{Roots: []string{"/p"}, CUDAUnreachable: oracle})
		m, err := prog.Module("/p/main.py")
		if err != nil {
			t.Fatal(err)
		}
		if m.cudaPossible() {
			t.Errorf("clears=%v: cudaPossible(main.py) = true, want false", clears)
		}
		loaded := len(prog.Loaded())
		if clears && loaded != 1 || !clears && loaded != 3 {
			t.Errorf("clears=%v: %d modules loaded, want %d", clears, loaded, map[bool]int{true: 1, false: 3}[clears])
		}
		if len(asked) != 1 || asked[0] != "/p/main.py read=true" {
			t.Errorf("clears=%v: the oracle was asked %q", clears, asked)
		}
	}
	// other.py's one import is loaded: the search costs no parse, and the
	// oracle must not read files for it.
	var asked []string
	prog := NewProgram(files, Options{Roots: []string{"/p"}, CUDAUnreachable: func(path string, read bool) bool {
		asked = append(asked, fmt.Sprintf("%s read=%v", path, read))
		return false
	}})
	if _, err := prog.Module("/p/b.py"); err != nil {
		t.Fatal(err)
	}
	other, err := prog.Module("/p/other.py")
	if err != nil {
		t.Fatal(err)
	}
	other.cudaPossible()
	if len(asked) != 1 || asked[0] != "/p/other.py read=false" {
		t.Errorf("the oracle was asked %q, want other.py without reading", asked)
	}
}

// TestImportTimeImports: the imports that run when a module is imported
// are those outside function bodies, in classes and branches included.
func TestImportTimeImports(t *testing.T) {
	prog := NewProgram(memSource{"/p/m.py": "import a\nif x:\n    from b import c\nclass K:\n    import d\n    def m(self):\n        import e\ndef f():\n    import g\n    class L:\n        import h\ntry:\n    import i\nexcept ImportError:\n    pass\n"}, Options{})
	m, err := prog.Module("/p/m.py")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range m.importTimeImports() {
		got = append(got, strings.TrimSpace(string(m.Src[s.Pos().Start:s.Pos().End])))
	}
	want := []string{"import a", "from b import c", "import d", "import i"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("import-time imports %q, want %q", got, want)
	}
}
