package model

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// usedValues evaluates the argument of the module's one use(...) call, at
// the top level or in a function defined there, and renders its values:
// ints and strings as themselves, anything else as "?", sorted.
func usedValues(t *testing.T, src string) string {
	t.Helper()
	m := load(t, memSource{"/p/m.py": src}, "/p/m.py")
	var arg syntax.Expr
	sc := m.Scope
	for _, s := range m.File.Body {
		var in *Scope
		if d, ok := s.(*syntax.FunctionDef); ok {
			for _, b := range m.Scope.Bindings[d.Name] {
				if b.Func != nil {
					in = b.Func.Scope
				}
			}
		}
		syntax.Inspect(s, func(n syntax.Node) bool {
			c, ok := n.(*syntax.Call)
			if !ok {
				return true
			}
			if f, ok := c.Func.(*syntax.Name); ok && f.ID == "use" && len(c.Args) == 1 {
				arg = c.Args[0].Value
				if in != nil {
					sc = in
				}
			}
			return true
		})
	}
	if arg == nil {
		t.Fatal("no use(...) in the source")
	}
	var got []string
	for _, v := range m.Eval(arg, sc) {
		switch v.Kind {
		case VInt:
			got = append(got, strconv.Itoa(v.Int))
		case VStr:
			got = append(got, v.Str)
		default:
			got = append(got, "?")
		}
	}
	return strings.Join(sorted(got), ",")
}

// TestMinMax checks min and max of several arguments: the int where every
// value is known, and for a min whose known values are at most 0 beside
// counts that are never negative; otherwise any of the arguments' values.
func TestMinMax(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"constants", "use(min(2, 3, 5))\n", "2"},
		{"max of constants", "use(max(2, 3, 5))\n", "5"},
		{"zero and a length", "import sys\nuse(min(0, len(sys.argv)))\n", "0"},
		{"a count and a length", "import sys\nuse(min(4, len(sys.argv)))\n", "4,?"},
		{"zero and the CPUs", "import os\nuse(min(os.cpu_count(), 0))\n", "0"},
		{"zero and an unknown int", "import os\nuse(min(0, int(os.environ['N'])))\n", "0,?"},
		{"max of zero and a length", "import sys\nuse(max(0, len(sys.argv)))\n", "0,?"},
		{"a parameter's default", "import sys\ndef count(workers=0):\n    use(min(workers, len(sys.argv)))\n", "0,?"},
		{"an iterable", "use(min([3, 1]))\n", "1,3"},
		{"an argument with no value", "xs = []\nuse(min(xs[0], 1))\n", "1"},
		{"a key function", "use(min(3, -5, key=abs))\n", "-5,3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := usedValues(t, tt.src); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
