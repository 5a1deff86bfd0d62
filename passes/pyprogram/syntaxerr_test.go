package pyprogram

import (
	"go/token"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestParseProblems: regions the parser cannot read are syntax errors,
// except the Python 3.13/3.14 constructs the grammar predates, which are
// warnings.
func TestParseProblems(t *testing.T) {
	for _, tt := range []struct {
		src          string
		syntaxErrors int
		notices      int
	}{
		{"x = (1 +\n", 1, 0},
		{"def f(:\n    pass\n", 1, 0},
		{"msg = t\"hello {name}\"\nsql(T'{q}', rt'{x}')\n", 0, 3},
		{"def f[T = int](x):\n    pass\nclass C[T = str]:\n    pass\n", 0, 2},
		{"try:\n    pass\nexcept* A, B, C:\n    pass\n", 0, 1},
		{"x = 1\n", 0, 0},
	} {
		src := []byte(tt.src)
		f, err := syntax.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		tf := token.NewFileSet().AddFile("x.py", -1, len(src))
		tf.SetLinesForContent(src)
		se, notices := parseProblems("x.py", src, f.Errors, tf)
		if len(se) != tt.syntaxErrors || len(notices) != tt.notices {
			t.Errorf("%q: %d syntax errors %v, %d notices %v; want %d and %d", tt.src, len(se), se, len(notices), notices, tt.syntaxErrors, tt.notices)
		}
	}
}
