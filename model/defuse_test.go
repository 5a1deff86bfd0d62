package model

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// readsOf renders the reads of name in src as "line:how" entries, how
// being "now" (runs with its top-level statement), or the function whose
// body holds the read, with "()" for a call.
func readsOf(t *testing.T, src, name string) string {
	t.Helper()
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	var out []string
	for _, r := range m.GlobalReads() {
		if r.Name != name {
			continue
		}
		line := strings.Count(src[:r.Span.Start], "\n") + 1
		how := "now"
		if r.Deferred {
			how = r.Func
		}
		if r.Called {
			how += "()"
		}
		out = append(out, fmt.Sprintf("%d:%s", line, how))
	}
	return strings.Join(out, " ")
}

// TestGlobalReads: what reads a global, and when, in the shapes that
// decide whether code can move under the main guard.
func TestGlobalReads(t *testing.T) {
	tests := []struct {
		name, src, global, want string
	}{
		{"top level and a function",
			"model = 1\nprint(model)\ndef infer(x):\n    return model(x)\n", "model", "2:now 4:infer()"},
		{"a parameter or local hides it",
			"def f(model):\n    return model\ndef g():\n    model = 2\n    return model\ndef h():\n    for model in xs: pass\n    return model\n", "model", ""},
		{"global declaration: the function's assignments are the global's",
			"def f():\n    global model\n    model += 1\n", "model", "3:f"},
		{"an augmented assignment at the top level reads",
			"n = 1\nn += 1\n", "n", "2:now"},
		{"a closure reads the enclosing function's local, not the global",
			"def f():\n    model = 1\n    def g():\n        return model\n    return g\n", "model", ""},
		{"a nested function reads the global",
			"def f():\n    def g():\n        return model\n    return g\n", "model", "3:f.<locals>.g"},
		{"methods, decorators, defaults, bases and class bodies",
			"@register(model)\ndef f(x=model):\n    pass\nclass C(Base, meta=model):\n    size = model.size\n    model = 3\n    def m(self):\n        return model\n", "model",
			"1:now 2:now 4:now 5:now 8:C.m"},
		{"lambdas run later; comprehensions now; generators when iterated",
			"f = lambda x: model(x)\nys = [model(x) for x in xs]\ng = (model(x) for x in xs)\n", "model", "1:<lambda>() 2:now() 3:<genexpr>()"},
		{"a comprehension variable hides it",
			"ys = [model for model in models]\n", "model", ""},
		{"a walrus in a comprehension binds in the function",
			"def f():\n    ys = [(model := x) for x in xs]\n    return model\n", "model", ""},
		{"annotations run with the def",
			"def f(x: Model, y: int = 1) -> Model:\n    pass\n", "Model", "1:now 1:now"},
		{"postponed annotations do not",
			"from __future__ import annotations\ndef f(x: Model) -> Model:\n    pass\n", "Model", ""},
		{"match patterns read their value names",
			"match x:\n    case Color.RED:\n        pass\n    case Point(x=0):\n        pass\n", "Color", "2:now"},
		{"del and assert read",
			"del model\nassert model\n", "model", "1:now 2:now"},
		{"f-strings, subscripts, keyword arguments",
			"print(f\"{model!r}\", d[model], key=model)\n", "model", "1:now 1:now 1:now"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := readsOf(t, tt.src, tt.global); got != tt.want {
				t.Errorf("reads of %s: %q, want %q", tt.global, got, tt.want)
			}
		})
	}
}

func TestTopLevelBinds(t *testing.T) {
	src := "import a.b, c as d\nfrom e import f as g, h\ndef fn(): x = 1\nclass K: y = 1\nfor i, (j, *k) in z:\n    if (w := 1): pass\nwith o as p: pass\ntry: pass\nexcept E as q: pass\nr: int\ndel s\n"
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	var got []string
	for _, s := range m.File.Body {
		for n := range TopLevelBinds(s) {
			got = append(got, n)
		}
	}
	sort.Strings(got)
	if want := "K a d fn g h i j k p q r s w"; strings.Join(got, " ") != want {
		t.Errorf("binds %q, want %q", strings.Join(got, " "), want)
	}
}

func TestDynamicGlobalAccessAndImportedBy(t *testing.T) {
	for src, want := range map[string]bool{
		"x = globals()['model']\n":                true,
		"import sys\nm = sys.modules[__name__]\n": true,
		"def f():\n    return eval('model')\n":    true,
		"from __main__ import model\n":            true,
		"x = model\n":                             false,
	} {
		m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
		if _, got := m.DynamicGlobalAccess(); got != want {
			t.Errorf("%q: dynamic access %v, want %v", src, got, want)
		}
	}
	// worker imports train by name; helper imports __main__ and train
	// imports helper; debugger imports __main__ but is not part of train's
	// program.
	files := memSource{
		"/p/train.py":    "import helper\nmodel = 1\n",
		"/p/worker.py":   "import train\n",
		"/p/helper.py":   "def f():\n    import __main__\n    return __main__.model\n",
		"/p/debugger.py": "import __main__\n",
		"/p/other.py":    "import os\n",
	}
	p := NewProgram(files, Options{})
	train, _ := p.Module("/p/train.py")
	for _, f := range []string{"/p/worker.py", "/p/helper.py", "/p/debugger.py", "/p/other.py"} {
		p.Module(f)
	}
	var got []string
	for _, by := range train.ImportedBy() {
		got = append(got, by.By.Path)
	}
	if strings.Join(got, " ") != "/p/helper.py /p/worker.py" {
		t.Errorf("imported by %v", got)
	}
}
