package model

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestExportedNames checks which names `from m import *` takes from m: its
// literal __all__, else its public top-level names, its own star imports'
// included.
func TestExportedNames(t *testing.T) {
	tests := []struct {
		name  string
		files memSource // m is /p/m.py
		want  string
	}{
		{"public names", memSource{"/p/m.py": "import torch\nimport numpy as np\nX = 1\n_y = 2\ndef f(): pass\ndef _g(): pass\nclass C: pass\n"},
			"C,X,f,np,torch"},
		{"comprehension variables are not top-level names", memSource{"/p/m.py": "squares = [i * i for i in range(3)]\n"},
			"squares"},
		{"names bound only under the main guard", memSource{"/p/m.py": "a = 1\nif __name__ == '__main__':\n    b = 2\n    a = 3\n"},
			"a"},
		{"names bound in a function with global", memSource{"/p/m.py": "def setup():\n    global DEV\n    DEV = 'cuda'\n"},
			"DEV,setup"},
		{"literal __all__", memSource{"/p/m.py": "__all__ = ['f', '_h']\ndef f(): pass\ndef g(): pass\ndef _h(): pass\n"},
			"_h,f"},
		{"tuple __all__", memSource{"/p/m.py": "__all__ = ('f',)\ndef f(): pass\ndef g(): pass\n"},
			"f"},
		{"__all__ extended with literals", memSource{"/p/m.py": "__all__ = ['f']\n__all__ += ['g']\n__all__.extend(['h'])\n__all__.append('i')\nif X:\n    __all__ = ['f'] + ['j']\n"},
			"f,g,h,i,j"},
		{"__all__ computed", memSource{"/p/m.py": "from sub import *\nimport sub\n__all__ = ['f'] + sub.__all__\ndef f(): pass\n_p = 1\n", "/p/sub.py": "__all__ = ['s']\ndef s(): pass\n"},
			"f,s,sub"},
		{"__all__ extended with a computed list", memSource{"/p/m.py": "__all__ = ['f']\n__all__.extend(names())\ndef f(): pass\ndef g(): pass\n"},
			"f,g"},
		{"__all__ assigned in a function", memSource{"/p/m.py": "__all__ = ['f']\ndef f():\n    global __all__\n    __all__ = []\n"},
			"f"},
		{"a star import of a module without __all__", memSource{
			"/p/m.py":   "from mid import *\ndef own(): pass\n",
			"/p/mid.py": "from low import *\ndef mid_f(): pass\n_hidden = 1\n",
			"/p/low.py": "def low_f(): pass\n"},
			"low_f,mid_f,own"},
		{"a star import of a module with __all__", memSource{
			"/p/m.py":   "from low import *\n",
			"/p/low.py": "__all__ = ['a', '_b']\na = _b = c = 1\n"},
			"a"},
		{"a library star import binds nothing", memSource{"/p/m.py": "from torch import *\nx = 1\n"},
			"x"},
		{"a cycle of star imports", memSource{
			"/p/m.py": "from a import *\ndef m_f(): pass\n",
			"/p/a.py": "from b import *\ndef a_f(): pass\n",
			"/p/b.py": "from a import *\ndef b_f(): pass\n"},
			"a_f,b_f,m_f"},
		{"a package re-exporting its modules", memSource{
			"/p/m.py":            "from pkg import *\n",
			"/p/pkg/__init__.py": "from .core import *\nfrom . import *\n",
			"/p/pkg/core.py":     "from ..m import *\ndef run(): pass\n"},
			"run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := load(t, tt.files, "/p/m.py")
			if got := strings.Join(m.exportedNames(), ","); got != tt.want {
				t.Errorf("exported %s, want %s", got, tt.want)
			}
		})
	}
}

// TestStarImportBindings checks what a name bound by a star import
// evaluates to: the exporting module's value, in binding order with the
// importing module's own bindings.
func TestStarImportBindings(t *testing.T) {
	helpers := "import torch\n__all__ = ['x', 'dev', 'torch']\nx = 'helper'\ndev = torch.device('cuda')\nhidden = 'hidden'\n"
	tests := []struct {
		name  string
		files memSource // the program is /p/main.py, which calls use(x)
		want  string
	}{
		{"bound by the star import", memSource{"/p/main.py": "from helpers import *\nuse(x)\n"},
			"str:helper"},
		{"read in a function", memSource{"/p/main.py": "from helpers import *\ndef f():\n    use(x)\n"},
			"str:helper"},
		{"a later assignment hides it", memSource{"/p/main.py": "from helpers import *\nx = 'own'\nuse(x)\n"},
			"str:own"},
		{"a later def hides it", memSource{"/p/main.py": "from helpers import *\ndef x(): pass\nuse(x)\n"},
			"func:x@/p/main.py"},
		{"a use before the later assignment", memSource{"/p/main.py": "from helpers import *\nuse(x)\nx = 'own'\n"},
			"str:helper"},
		{"a use in a loop before the later assignment", memSource{"/p/main.py": "from helpers import *\nfor i in range(2):\n    use(x)\n    x = 'own'\n"},
			"str:helper,str:own"},
		{"an earlier binding it may override", memSource{"/p/main.py": "x = 'own'\nfrom helpers import *\nuse(x)\n"},
			"str:helper,str:own"},
		{"a name __all__ leaves out", memSource{"/p/main.py": "hidden = 'own'\nfrom helpers import *\nuse(hidden)\n"},
			"str:own"},
		{"a private name", memSource{"/p/main.py": "_p = 'own'\nfrom plain import *\nuse(_p)\n", "/p/plain.py": "_p = 'private'\n"},
			"str:own"},
		{"a library path through it", memSource{"/p/main.py": "from helpers import *\nuse(torch.cuda.init)\n"},
			"path:torch.cuda.init"},
		{"through a package's re-export", memSource{"/p/main.py": "from pkg import *\nuse(x)\n", "/p/pkg/__init__.py": "from .mod import *\n", "/p/pkg/mod.py": "x = 'deep'\n"},
			"str:deep"},
		{"an attribute of a package that star-imports", memSource{"/p/main.py": "import pkg\nuse(pkg.x)\n", "/p/pkg/__init__.py": "from .mod import *\n", "/p/pkg/mod.py": "x = 'deep'\n"},
			"str:deep"},
		{"a submodule __all__ names", memSource{"/p/main.py": "from pkg import *\nuse(sub.x)\n", "/p/pkg/__init__.py": "__all__ = ['sub']\n", "/p/pkg/sub.py": "x = 'sub'\n"},
			"str:sub"},
		{"a library star import", memSource{"/p/main.py": "from torch.cuda import *\nuse(is_available)\n"},
			"unknown"},
		{"a star import in a cycle", memSource{"/p/main.py": "from a import *\nuse(x)\n", "/p/a.py": "from b import *\n", "/p/b.py": "from a import *\nx = 'b'\n"},
			"str:b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := memSource{"/p/helpers.py": helpers}
			for k, v := range tt.files {
				files[k] = v
			}
			m := load(t, files, "/p/main.py")
			call, sc := useCall(m)
			if call == nil {
				t.Fatal("no use(...) in the source")
			}
			var got []string
			for _, v := range m.Eval(call.Args[0].Value, sc) {
				got = append(got, describe(v))
			}
			slices.Sort(got)
			if s := strings.Join(got, ","); s != tt.want {
				t.Errorf("use(...) sees %s, want %s", s, tt.want)
			}
		})
	}
}

// useCall finds the call use(...) in m, and the scope it is in (the module,
// or the function around it).
func useCall(m *Module) (*syntax.Call, *Scope) {
	for _, f := range append([]*Function{nil}, m.Funcs...) {
		body, sc := m.File.Body, m.Scope
		if f != nil {
			body, sc = f.Def.Body(), f.Scope
		}
		for _, s := range body {
			if _, ok := s.(*syntax.FunctionDef); ok {
				continue
			}
			var found *syntax.Call
			syntax.Inspect(s, func(n syntax.Node) bool {
				if c, ok := n.(*syntax.Call); ok {
					if id, ok := c.Func.(*syntax.Name); ok && id.ID == "use" && len(c.Args) == 1 {
						found = c
					}
				}
				return found == nil
			})
			if found != nil {
				return found, sc
			}
		}
	}
	return nil, nil
}

// describe names a value for the tests: its kind and what it holds.
func describe(v Value) string {
	switch v.Kind {
	case VStr:
		return "str:" + v.Str
	case VPath:
		return "path:" + v.Path
	case VFunc:
		return "func:" + v.Func.Name + "@" + filepath.ToSlash(v.Func.Module.Path)
	case VUnknown:
		return "unknown"
	}
	return "other"
}

// TestStarSubmodules checks that `from pkg import *` imports the
// submodules pkg's __all__ names, and only those it does not bind.
func TestStarSubmodules(t *testing.T) {
	files := memSource{
		"/p/main.py":         "from pkg import *\n",
		"/p/pkg/__init__.py": "from . import bound\n__all__ = ['sub', 'bound', 'missing', 'f']\ndef f(): pass\n",
		"/p/pkg/sub.py":      "",
		"/p/pkg/bound.py":    "",
		"/p/pkg/other.py":    "",
	}
	m := load(t, files, "/p/main.py")
	var got []string
	for _, sub := range m.starSubmodules(m.star.stmts[0]) {
		got = append(got, sub.Name)
	}
	if s := strings.Join(got, ","); s != "pkg.sub" {
		t.Errorf("star submodules %s, want pkg.sub", s)
	}
}

// TestStarBindingsConcurrent reads the star-import bindings of modules
// that import each other from several goroutines at once (run with -race).
func TestStarBindingsConcurrent(t *testing.T) {
	files := memSource{
		"/p/a.py": "from b import *\nfrom c import *\nx = 1\n",
		"/p/b.py": "from a import *\nfrom c import *\ny = 2\n",
		"/p/c.py": "from a import *\nz = 3\n",
	}
	p := NewProgram(files, Options{})
	var mods []*Module
	for _, path := range []string{"/p/a.py", "/p/b.py", "/p/c.py"} {
		m, err := p.Module(path)
		if err != nil {
			t.Fatal(err)
		}
		mods = append(mods, m)
	}
	var wg sync.WaitGroup
	got := make([][]string, 12)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := mods[i%len(mods)]
			for _, name := range []string{"x", "y", "z"} {
				if len(lookup(name, m.Scope)) > 0 {
					got[i] = append(got[i], name)
				}
			}
		}()
	}
	wg.Wait()
	for i, names := range got {
		if strings.Join(names, ",") != "x,y,z" {
			t.Errorf("goroutine %d sees %v bound, want x, y and z", i, names)
		}
	}
}
