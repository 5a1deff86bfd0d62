package model

import (
	"fmt"
	"strings"
	"testing"
)

// describeBindings lists a scope's bindings of the given names in order, as
// "name:kind@line".
func describeBindings(m *Module, sc *Scope, names ...string) string {
	var out []string
	for _, n := range names {
		for _, b := range sc.bindingsOf(n) {
			out = append(out, fmt.Sprintf("%s:%d@%d", n, b.Kind, lineIn(m.Src, int(b.Span.Start))))
		}
	}
	return strings.Join(out, " ")
}

func lineIn(src []byte, off int) int { return strings.Count(string(src[:off]), "\n") + 1 }

func funcNamed(m *Module, qual string) *Function {
	for _, f := range m.Funcs {
		if f.QualName == qual {
			return f
		}
	}
	return nil
}

// TestFunctionScopesIndexedOnFirstRead: the load pass leaves a function's
// own bindings out, but records what its body binds elsewhere (global
// names, in statement order with the module's; self.x stores; nested
// definitions); the first read of the function's scope indexes its
// parameters and locals, giving nested definitions the objects the load
// pass made.
func TestFunctionScopesIndexedOnFirstRead(t *testing.T) {
	src := `g = 0

def f(a, b=1, *c, **d):
    x = a
    y, (z, w) = b, c
    if a:
        global g
    g = 2
    [v for v in c]
    if (k := d):
        pass
    def inner(p):
        q = p
        return q
    class Local:
        def m(self):
            self.kept = 1
    h = lambda r: r
    for i in c:
        pass
    return inner

g = 3

class C:
    def __init__(self, n):
        self.n = n
        local = n
`
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	f := funcNamed(m, "f")
	if f == nil {
		t.Fatal("no function f")
	}
	for _, fn := range m.Funcs {
		if fn.Scope.indexed || fn.Scope.Bindings != nil {
			t.Errorf("%s: indexed at load", fn.QualName)
		}
	}
	// The global binding made in f's body is the module's, between the
	// module's own, before any function scope is read.
	if got, want := describeBindings(m, m.Scope, "g"), fmt.Sprintf("g:%d@1 g:%d@8 g:%d@23", BindAssign, BindAssign, BindAssign); got != want {
		t.Errorf("module bindings of g: %s, want %s", got, want)
	}
	c := m.Classes[len(m.Classes)-1]
	if c.Name != "C" || len(c.SelfAttrs["n"]) != 1 {
		t.Fatalf("class C's self.n stores: %v", c.SelfAttrs)
	}

	got := describeBindings(m, f.Scope, "a", "b", "c", "d", "x", "y", "z", "w", "g", "v", "k", "inner", "Local", "h", "i")
	want := fmt.Sprintf("a:%[1]d@3 b:%[1]d@3 c:%[1]d@3 d:%[1]d@3 x:%[2]d@4 y:%[2]d@5 z:%[2]d@5 w:%[2]d@5 v:%[3]d@9 k:%[2]d@10 inner:%[4]d@12 Local:%[5]d@15 h:%[2]d@18 i:%[3]d@19",
		BindParam, BindAssign, BindIter, BindDef, BindClass)
	if got != want {
		t.Errorf("f's bindings:\n got %s\nwant %s", got, want)
	}
	if !f.Scope.indexed {
		t.Error("f's scope not marked indexed after the read")
	}
	// Nested definitions are bound to the objects the load pass made.
	inner := funcNamed(m, "f.<locals>.inner")
	if bs := f.Scope.bindingsOf("inner"); len(bs) != 1 || bs[0].Func != inner || inner == nil {
		t.Errorf("inner bound to %v, want the load pass's %p", bs, inner)
	}
	var local *Class
	for _, cl := range m.Classes {
		if cl.Name == "Local" {
			local = cl
		}
	}
	if bs := f.Scope.bindingsOf("Local"); len(bs) != 1 || bs[0].Class != local || local == nil {
		t.Errorf("Local bound to %v, want the load pass's %p", bs, local)
	}
	// Reading f's scope indexes f alone; a nested function's own scope, and
	// the method's, are indexed when they are read, without recording the
	// self.x stores again.
	if inner.Scope.indexed {
		t.Error("inner indexed along with f")
	}
	if got, want := describeBindings(m, inner.Scope, "p", "q"), fmt.Sprintf("p:%d@12 q:%d@13", BindParam, BindAssign); got != want {
		t.Errorf("inner's bindings: %s, want %s", got, want)
	}
	init := funcNamed(m, "C.__init__")
	if got, want := describeBindings(m, init.Scope, "self", "n", "local"), fmt.Sprintf("self:%[1]d@26 n:%[1]d@26 local:%[2]d@28", BindParam, BindAssign); got != want {
		t.Errorf("C.__init__'s bindings: %s, want %s", got, want)
	}
	if len(c.SelfAttrs["n"]) != 1 {
		t.Errorf("self.n recorded %d times after C.__init__ was indexed", len(c.SelfAttrs["n"]))
	}
	// The lambda's parameter is its own scope's.
	var lam *Function
	for _, fn := range m.Funcs {
		if fn.Lambda != nil {
			lam = fn
		}
	}
	if got, want := describeBindings(m, lam.Scope, "r"), fmt.Sprintf("r:%d@18", BindParam); got != want {
		t.Errorf("the lambda's bindings: %s, want %s", got, want)
	}
	// f's global declaration is complete after its own pass, as after load.
	if !f.Scope.Globals["g"] {
		t.Error("f's global g lost")
	}
}
