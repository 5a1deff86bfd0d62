package model

import (
	"slices"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestReachingBindings checks which assignments reach a use: one that
// dominates the use hides the bindings before it; conditional ones, later
// ones (a loop's next pass) and those on other paths (an except arm) do not.
// One made after the use reaches it only through a loop around both.
func TestReachingBindings(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"straight line", "x = 'a'\nx = 'b'\nuse(x)\n", []string{"b"}},
		{"conditional rebinding", "x = 'a'\nif c:\n    x = 'b'\nuse(x)\n", []string{"a", "b"}},
		{"dominated inside a branch", "x = 'a'\nif c:\n    x = 'b'\n    use(x)\n", []string{"b"}},
		{"next pass of a loop", "x = 'a'\nfor i in r:\n    use(x)\n    x = 'b'\n", []string{"a", "b"}},
		{"except arm", "x = 'a'\ntry:\n    x = 'b'\nexcept E:\n    use(x)\n", []string{"a", "b"}},
		{"rebinding from itself", "def f(y):\n    return y\nx = 'a'\nx = f(x)\nuse(x)\n", []string{"a"}},
		{"parameter rebound", "def g(x='p'):\n    x = 'q'\n    use(x)\n", []string{"q"}},
		{"augmented assignment", "x = 'a'\nx += 'b'\nuse(x)\n", []string{"a"}},
		{"tuple target", "x = 'a'\ny, x = 'c', 'b'\nuse(x)\n", []string{"b"}},
		{"rebound in an if arm", "x = 'a'\nif c:\n    x = 'b'\n    x = 'c'\nuse(x)\n", []string{"a", "c"}},
		{"if arm left by continue", "for i in r:\n    if c:\n        x = 'b'\n        if d:\n            continue\n        x = 'c'\n    use(x)\n", []string{"b", "c"}},
		{"if arm under try", "try:\n    if c:\n        x = 'b'\n        f()\n        x = 'c'\nexcept E:\n    use(x)\n", []string{"b", "c"}},
		{"library wrapper of itself", "import lib\nx = 'a'\nx = lib.wrap(x)\nuse(x)\n", []string{"a"}},
		{"library call of another name", "import lib\ny = 'c'\nx = 'a'\nx = lib.wrap(y)\nuse(x)\n", nil},
		{"def rebinding", "x = 'a'\ndef x():\n    pass\nuse(x)\n", nil},
		{"class rebinding", "x = 'a'\nclass x:\n    pass\nuse(x)\n", nil},
		{"conditional def", "x = 'a'\nif c:\n    def x():\n        pass\nuse(x)\n", []string{"a"}},
		{"def after the use", "x = 'a'\nuse(x)\ndef x():\n    pass\n", []string{"a"}},
		{"assigned after the use", "def g(x='p'):\n    use(x)\n    if x is None:\n        x = 'q'\n", []string{"p"}},
		{"assigned after the use in a while", "x = 'a'\nwhile c:\n    use(x)\n    if d:\n        x = 'b'\n", []string{"a", "b"}},
		{"assigned after the use, a loop after both", "x = 'a'\nuse(x)\nx = 'b'\nfor i in r:\n    x = 'c'\n", []string{"a"}},
		{"used in a nested function", "x = 'a'\ndef h():\n    use(x)\nx = 'b'\n", []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := load(t, memSource{"/p/m.py": tt.src}, "/p/m.py")
			use, sc := usedName(m)
			if use == nil {
				t.Fatal("no use(x) in the source")
			}
			var got []string
			for _, v := range m.Eval(use, sc) {
				if v.Kind == VStr {
					got = append(got, v.Str)
				}
			}
			slices.Sort(got)
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("use(x) sees %v, want %v", got, tt.want)
			}
		})
	}
}

// usedName finds the argument of the call use(x) and the scope it is in.
func usedName(m *Module) (*syntax.Name, *Scope) {
	var found *syntax.Name
	var in *syntax.FunctionDef
	var def *syntax.FunctionDef
	for _, s := range m.File.Body {
		if d, ok := s.(*syntax.FunctionDef); ok {
			def = d
		} else {
			def = nil
		}
		syntax.Inspect(s, func(n syntax.Node) bool {
			c, ok := n.(*syntax.Call)
			if !ok {
				return true
			}
			if f, ok := c.Func.(*syntax.Name); ok && f.ID == "use" && len(c.Args) == 1 {
				found, _ = c.Args[0].Value.(*syntax.Name)
				in = def
			}
			return true
		})
	}
	if found == nil || in == nil {
		return found, m.Scope
	}
	for _, b := range m.Scope.Bindings[in.Name] {
		if b.Func != nil {
			return found, b.Func.Scope
		}
	}
	return found, m.Scope
}

// TestArmTestsIndependentOfOrder: an if test that reads, through a loop,
// a name its own arm binds is settled with the values it reads, whichever
// is asked first. Here the test reads current, current reads mode, and the
// body's `mode = "forkserver"` reaches current only if the test can be
// true; it cannot (current is never "spawn"), so the body is dead and
// choose() returns "fork". The test used to answer "unknown" to itself, so
// current was cached as fork and forkserver in either order, and, asked
// first, left the test undecided for choose() as well.
func TestArmTestsIndependentOfOrder(t *testing.T) {
	const src = `def choose(n):
    mode = "fork"
    for _ in range(n):
        current = mode
        if current == "spawn":
            mode = "forkserver"
    return mode
`
	ask := map[string]func(ev *evaluator, f *Function) []Value{
		"returns": func(ev *evaluator, f *Function) []Value { return ev.returns(f) },
		"current": func(ev *evaluator, f *Function) []Value { return ev.binding(f.Scope.bindingsOf("current")[0]) },
	}
	for _, order := range [][]string{{"returns", "current"}, {"current", "returns"}} {
		m := load(t, memSource{"/p/choose.py": src}, "/p/choose.py")
		got := map[string][]string{}
		for _, q := range order {
			var ev evaluator
			var strs []string
			for _, v := range ask[q](&ev, funcNamed(m, "choose")) {
				strs = append(strs, v.Str)
			}
			got[q] = sorted(strs)
		}
		if !slices.Equal(got["returns"], []string{"fork"}) || !slices.Equal(got["current"], []string{"fork"}) {
			t.Errorf("asked in the order %v: choose() returns %q, current holds %q; want [fork] for both", order, got["returns"], got["current"])
		}
	}
}
