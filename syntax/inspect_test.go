package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// describe names a node for the Inspect tests.
func describe(n Node) string {
	switch n := n.(type) {
	case *Name:
		return n.ID
	case *Call:
		return "call"
	case *Number:
		return n.Text
	case *String:
		return fmt.Sprintf("%q", n.Value)
	default:
		return strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax.")
	}
}

func inspectAll(f *File) []string {
	var got []string
	for _, s := range f.Body {
		Inspect(s, func(n Node) bool {
			if n != nil {
				got = append(got, describe(n))
			}
			return true
		})
	}
	return got
}

// TestInspectReachesEverything checks that every place an expression can sit
// is visited, in source order.
func TestInspectReachesEverything(t *testing.T) {
	src := `@d1(a1)
def f(p=d2(), *, q=d3()):
    with w1() as t1, w2():
        pass
    try:
        pass
    except e1() as e:
        h1()
    else:
        h2()
    finally:
        h3()
    match s1():
        case [x] if g1():
            m1()
    for i in it():
        b1()
    else:
        b2()
    while c1():
        pass
    return [v1() for v in l1() if c2()]
class C(B1(), metaclass=M1()):
    x: A1() = v2()
y = {k1(): v3(), **s2()}
z = f"{i1()} {i2():{i3()}}"
del o1()[0]
assert a2(), a3()
raise r1() from r2()
lam = lambda q=l2(): l3()
n = (w := x1()) if c3() else c4()
`
	f := mustParse(t, src)
	var calls []string
	for _, s := range f.Body {
		Inspect(s, func(n Node) bool {
			if c, ok := n.(*Call); ok {
				if name, ok := c.Func.(*Name); ok {
					calls = append(calls, name.ID)
				}
			}
			return true
		})
	}
	want := "d1 d2 d3 w1 w2 e1 h1 h2 h3 s1 g1 m1 it b1 b2 c1 v1 l1 c2 B1 M1 A1 v2 k1 v3 s2 i1 i2 i3 o1 a2 a3 r1 r2 l2 l3 x1 c3 c4"
	if got := strings.Join(calls, " "); got != want {
		t.Errorf("calls visited:\n%s\nwant:\n%s", got, want)
	}
}

func TestInspectPruneAndNil(t *testing.T) {
	f := mustParse(t, "f(g(1), h(2))\nx = 3\n")
	// Returning false for a call skips its arguments.
	var got []string
	for _, s := range f.Body {
		Inspect(s, func(n Node) bool {
			if n == nil {
				got = append(got, "nil")
				return true
			}
			got = append(got, describe(n))
			_, isCall := n.(*Call)
			return !isCall
		})
	}
	want := "ExprStmt call nil Assign x nil 3 nil nil"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("got %s\nwant %s", s, want)
	}
	// Inspect(nil) and typed nils do nothing.
	Inspect(nil, func(Node) bool { t.Error("called for nil"); return true })
	var c *Call
	Inspect(c, func(Node) bool { t.Error("called for a typed nil"); return true })
	// Missing optional children are skipped, not passed as nil nodes.
	got = inspectAll(mustParse(t, "def f(a=None):\n    return\nwith x: pass\n"))
	if s := strings.Join(got, " "); s != `FunctionDef Constant Return With x OtherStmt` {
		t.Errorf("got %s", s)
	}
}

func TestDump(t *testing.T) {
	f := mustParse(t, "import a as b\nx[1:2] = -y\n")
	if got := Dump(f.Body[1]); got != "(= [([] x (?slice 1 2))] (- y))" {
		t.Errorf("Dump: %s", got)
	}
	if got := Dump(nil); got != "<nil>" {
		t.Errorf("Dump(nil) = %s", got)
	}
	if got := DumpFile(f); got != "(import a as b)\n(= [([] x (?slice 1 2))] (- y))" {
		t.Errorf("DumpFile: %s", got)
	}
}
