package model

import (
	"sort"
	"strings"
	"testing"
)

// TestPropertyValues checks what reading a property evaluates to: what its
// getter returns, run on the instance read, and nothing of the kind where
// the name is not a property of the instance's class.
func TestPropertyValues(t *testing.T) {
	const classes = `import functools

class Plain:
    @property
    def x(self):
        return "getter"

class WithSetter:
    @property
    def x(self):
        return "getter"

    @x.setter
    def x(self, v):
        self._x = v

class Cached:
    @functools.cached_property
    def x(self):
        return "cached"

class Assigned:
    def _get_x(self):
        return "assigned"

    x = property(_get_x)

class Lambda:
    x = property(fget=lambda self: "lambda")

class Holder:
    def __init__(self, device):
        self.device = device

    @property
    def x(self):
        return self.device

class Derived(Holder):
    pass

class Shadowed(Plain):
    def x(self):
        return "method"

class Rebound:
    @property
    def x(self):
        return "getter"

    def x(self):
        return "method"

class Chained:
    @property
    def inner(self):
        return "inner"

    @property
    def x(self):
        return self.inner

class Loop:
    @property
    def x(self):
        return self.x
`
	tests := []struct {
		expr string
		want string // the string constant it evaluates to; "" for none
	}{
		{"Plain().x", "getter"},
		{"WithSetter().x", "getter"},
		{"Cached().x", "cached"},
		{"Assigned().x", "assigned"},
		{"Lambda().x", "lambda"},
		{`Holder("cuda:1").x`, "cuda:1"},
		{`Derived("cuda:2").x`, "cuda:2"},
		{"Chained().x", "inner"},
		{"Shadowed().x", ""},
		{"Rebound().x", ""},
		{"Plain.x", ""},
		{"Loop().x", ""},
	}
	for _, tt := range tests {
		src := classes + "\nr = " + tt.expr + "\n"
		m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
		var got []string
		for _, v := range m.Eval(m.Scope.Bindings["r"][0].Value, m.Scope) {
			if v.Kind == VStr {
				got = append(got, v.Str)
			}
		}
		if strings.Join(got, ",") != tt.want {
			t.Errorf("%s: strings %q, want %q", tt.expr, got, tt.want)
		}
	}
}

// TestPrescanPropertyRead checks that a function whose only way to a start
// is reading a property whose getter starts processes may start, whichever
// module, the class's or the reader's, is loaded first.
func TestPrescanPropertyRead(t *testing.T) {
	files := memSource{
		"/p/a.py": "def read_decorated(h):\n    return h.pool\n\ndef read_assigned(h):\n    return h.spare\n\ndef read_other(h):\n    return h.label\n",
		"/p/b.py": "from multiprocessing import Pool\n\nclass Holder:\n    label = 'x'\n\n    @property\n    def pool(self):\n        return Pool(2)\n\n    def _make_spare(self):\n        return Pool(1)\n\n    spare = property(_make_spare)\n",
	}
	for _, order := range [][]string{{"/p/a.py", "/p/b.py"}, {"/p/b.py", "/p/a.py"}} {
		p := NewProgram(files, Options{})
		for _, path := range order {
			if _, err := p.Module(path); err != nil {
				t.Fatal(err)
			}
			p.mayStart()
		}
		var got []string
		for f, ok := range p.mayStart() {
			if ok {
				got = append(got, f.Module.Name+"."+f.QualName)
			}
		}
		sort.Strings(got)
		want := []string{"a.read_assigned", "a.read_decorated", "b.Holder._make_spare", "b.Holder.pool"}
		if !equalStrings(got, want) {
			t.Errorf("order %v: may start %v, want %v", order, got, want)
		}
	}
}
