package model

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// memSource is a model.Source over in-memory files.
type memSource map[string]string

func (m memSource) Parse(path string) (*syntax.File, []byte, error) {
	src := []byte(m[path])
	f, err := syntax.Parse(src)
	return f, src, err
}

func (m memSource) IsFile(path string) bool { _, ok := m[path]; return ok }

func load(t *testing.T, files memSource, path string) *Module {
	t.Helper()
	m, err := NewProgram(files, Options{}).Module(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMainGuardSpellings(t *testing.T) {
	tests := []struct {
		src   string
		guard bool
		want  Guard // Kind, Negated, Partial, EarlyExit; Body by its length
		body  int
	}{
		{`if __name__ == "__main__": pass`, true, Guard{}, 1},
		{`if __name__ == '__main__': pass`, true, Guard{}, 1},
		{`if "__main__" == __name__: pass`, true, Guard{}, 1},
		{`if __name__ in ("__main__",): pass`, true, Guard{}, 1},
		{`if (__name__ == "__main__"): pass`, true, Guard{}, 1},
		{"if __name__ != '__main__':\n    pass\nelse:\n    pass", true, Guard{Negated: true}, 1},
		{`if not __name__ != "__main__": pass`, true, Guard{}, 1},
		{`if __name__ == "main": pass`, false, Guard{}, 0},
		{`if name == "__main__": pass`, false, Guard{}, 0},
		{`if __name__ == "__main__" and x: pass`, true, Guard{Partial: true}, 1},
		{`if x and "__main__" == __name__: pass`, true, Guard{Partial: true}, 1},
		{`if __name__ == "__main__" or x: pass`, true, Guard{Partial: true}, 1},
		{`if not (__name__ == "__main__" and x): pass`, true, Guard{Negated: true, Partial: true}, 0},
		{"import sys\nif __name__ != '__main__':\n    sys.exit()\nx = 1\ny = 2", true, Guard{Negated: true, EarlyExit: true}, 2},
		{"if __name__ != '__main__':\n    raise SystemExit\nx = 1", true, Guard{Negated: true, EarlyExit: true}, 1},
		{"if __name__ != '__main__':\n    print('imported')\nx = 1", true, Guard{Negated: true}, 0},
		{`if mp.current_process().name == "MainProcess": pass`, true, Guard{Kind: ProcessGuard}, 1},
		{`if current_process().name != 'MainProcess': pass`, true, Guard{Kind: ProcessGuard, Negated: true}, 0},
		{`if mp.parent_process() is None: pass`, false, Guard{}, 0},
		{`if __name__ == "__main__" and mp.current_process().name == "MainProcess": pass`, false, Guard{}, 0},
	}
	for _, tt := range tests {
		m := load(t, memSource{"/p/m.py": tt.src + "\n"}, "/p/m.py")
		if got := len(m.Guards) == 1; got != tt.guard {
			t.Errorf("%q: guard %v, want %v", tt.src, got, tt.guard)
			continue
		}
		if !tt.guard {
			continue
		}
		g := m.Guards[0]
		if g.Kind != tt.want.Kind || g.Negated != tt.want.Negated || g.Partial != tt.want.Partial || g.EarlyExit != tt.want.EarlyExit || len(g.Body) != tt.body {
			t.Errorf("%q: kind %v negated %v partial %v early exit %v body %d, want %v %v %v %v %d", tt.src,
				g.Kind, g.Negated, g.Partial, g.EarlyExit, len(g.Body),
				tt.want.Kind, tt.want.Negated, tt.want.Partial, tt.want.EarlyExit, tt.body)
		}
		plain := tt.want.Kind == NameGuard && !tt.want.Negated && !tt.want.Partial && !tt.want.EarlyExit
		if g.Plain() != plain {
			t.Errorf("%q: plain %v", tt.src, g.Plain())
		}
	}
}

// TestEvalPaths checks import and alias resolution to qualified paths.
func TestEvalPaths(t *testing.T) {
	src := `import torch as th
from torch import cuda as tc
import multiprocessing as mp
from cuda.core.experimental import Device
import torch.multiprocessing
ctx = mp.get_context("fork")
DEV = th.device("cuda")
x = th.zeros(3).cuda()
`
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	tests := []struct {
		expr string
		want string
	}{
		{"th.cuda.is_available", "torch.cuda.is_available"},
		{"tc.init", "torch.cuda.init"},
		{"Device", "cuda.core.Device"},
		{"torch.multiprocessing.Pool", "torch.multiprocessing.Pool"},
		{"Device().set_current", "cuda.core.Device().set_current"},
	}
	for _, tt := range tests {
		f, err := syntax.Parse([]byte(tt.expr + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		e := f.Body[0].(*syntax.ExprStmt).X
		vs := m.Eval(e, m.Scope)
		if len(vs) == 0 || vs[0].Kind != VPath || vs[0].Path != tt.want {
			t.Errorf("%s = %+v, want path %s", tt.expr, vs, tt.want)
		}
	}
	ctx := m.Eval(&syntax.Name{ID: "ctx"}, m.Scope)
	if len(ctx) != 1 || ctx[0].Kind != VContext || ctx[0].Method.Kind != MethodExplicit || ctx[0].Method.Method != pytarget.Fork {
		t.Errorf("ctx = %+v", ctx)
	}
	dev := m.Eval(&syntax.Name{ID: "DEV"}, m.Scope)
	if len(dev) != 1 || dev[0].Kind != VDevice || dev[0].Dev != DevCUDA {
		t.Errorf("DEV = %+v", dev)
	}
	x := m.Eval(&syntax.Name{ID: "x"}, m.Scope)
	if len(x) != 1 || x[0].Dev != DevCUDA {
		t.Errorf("x = %+v", x)
	}
}

// TestLocalImports resolves absolute and relative imports to project files,
// and keeps well-known libraries external even when the project has a
// directory of that name.
func TestLocalImports(t *testing.T) {
	files := memSource{
		"/p/main.py":              "import helper\nfrom pkg import sub\nfrom pkg.sub import f\nimport torch\n",
		"/p/helper.py":            "",
		"/p/pkg/__init__.py":      "",
		"/p/pkg/sub.py":           "from . import sibling\nfrom .. import helper\ndef f(): pass\n",
		"/p/pkg/sibling.py":       "",
		"/p/torch/__init__.py":    "",
		"/p/multiprocessing/x.py": "",
	}
	m := load(t, files, "/p/main.py")
	tests := []struct {
		from  *Module
		name  string
		level int
		want  string
	}{
		{m, "helper", 0, "/p/helper.py"},
		{m, "pkg", 0, "/p/pkg/__init__.py"},
		{m, "pkg.sub", 0, "/p/pkg/sub.py"},
		{m, "torch", 0, ""},
		{m, "multiprocessing", 0, ""},
		{m, "nothere", 0, ""},
	}
	sub := load(t, files, "/p/pkg/sub.py")
	tests = append(tests, []struct {
		from  *Module
		name  string
		level int
		want  string
	}{
		{sub, "sibling", 1, "/p/pkg/sibling.py"},
		{sub, "", 1, "/p/pkg/__init__.py"},
	}...)
	for _, tt := range tests {
		got, _ := tt.from.resolveImport(tt.name, tt.level)
		if filepath.ToSlash(got) != tt.want {
			t.Errorf("%s: import %q level %d = %q, want %q", tt.from.Path, tt.name, tt.level, got, tt.want)
		}
	}
	if sub.Name != "pkg.sub" {
		t.Errorf("module name %q", sub.Name)
	}
}

func TestConfigClasses(t *testing.T) {
	classes := configClasses(pytarget.Default())
	// 3.11–3.13.7 (fork, no main import), 3.13.8+ (fork, main import),
	// 3.14.0 (forkserver, no main import), 3.14.1+ (forkserver, main
	// import), 3.15 (the same, with lazy imports).
	if len(classes) != 5 {
		t.Fatalf("%d classes, want 5", len(classes))
	}
	var all pytarget.Set
	for _, c := range classes {
		all |= c.all
	}
	if all != pytarget.Default() {
		t.Errorf("classes cover %v", all.Describe())
	}
	if got := configClasses(pytarget.Default() | pytarget.Platforms(pytarget.Windows)); len(got) != 7 {
		t.Errorf("with Windows: %d classes, want 7", len(got))
	}
}

// TestAnalyzeFindsForkAfterInit is a small end-to-end check of the model
// without the analysis driver.
func TestAnalyzeFindsForkAfterInit(t *testing.T) {
	src := strings.Join([]string{
		"import os, torch",
		"def main():",
		"    torch.cuda.init()",
		"    pid = os.fork()",
		"    if pid == 0:",
		"        torch.ones(1, device='cuda')",
		"if __name__ == '__main__':",
		"    main()",
	}, "\n") + "\n"
	files := memSource{"/p/m.py": src}
	prog := NewProgram(files, Options{})
	m, err := prog.Module("/p/m.py")
	if err != nil {
		t.Fatal(err)
	}
	hz := prog.Analyze([]*Module{m}, pytarget.Default())
	if len(hz) != 1 {
		t.Fatalf("%d hazards", len(hz))
	}
	z := hz[0]
	if z.Kind != ForkAfterInit || z.Child.Verdict != ChildUsesCUDA || z.Configs != pytarget.Default() || z.Start.Obj.Kind != ObjFork {
		t.Errorf("hazard %+v", z)
	}
	if len(z.Init.Chain) != 1 || z.Init.Chain[0].Func != "main" {
		t.Errorf("chain %+v", z.Init.Chain)
	}
}

// TestCyclicBasesEnd: a class whose base expression needs the class itself
// (NameError at run time, but a linter sees it before) once made the
// evaluator recurse with an exponential fan-out: FuzzCheck's input
// analyzer/testdata/fuzz/FuzzCheck/21312c0758b85e31 ran for hours.
func TestCyclicBasesEnd(t *testing.T) {
	for name, src := range map[string]string{
		"itself":    "from multiprocessing import Process\n\n\nclass GpuWorker(GpuWorker()):\n    pass\n\n\nw = GpuWorker()\nw.start()\n",
		"mutual":    "from multiprocessing import Process\n\n\nclass A(B()):\n    pass\n\n\nclass B(A()):\n    pass\n\n\nA().start()\nB().run()\n",
		"attribute": "import multiprocessing as mp\n\n\nclass C(w.base, mp.Process):\n    pass\n\n\nw = C()\nw.start()\nw.run()\n",
	} {
		done := make(chan int, 1)
		go func() {
			files := memSource{"/p/m.py": src}
			prog := NewProgram(files, Options{})
			m, err := prog.Module("/p/m.py")
			if err != nil {
				t.Error(err)
				done <- 0
				return
			}
			done <- len(prog.Analyze([]*Module{m}, pytarget.Default()))
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the analysis did not end in 20 s", name)
		}
	}
}
