package pyprogram

import (
	"fmt"
	"go/token"
	"slices"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/tokcheck"
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
		{"msg = t\"hello {name:=^{w}}\"\nsql(T'{q}', rt'{x}')\n", 0, 0}, // template strings parse
		{"def f[T = int](x):\n    pass\nclass C[T = str]:\n    pass\n", 0, 2},
		{"try:\n    pass\nexcept* A, B, C:\n    pass\n", 0, 1},
		{"x = 1\n", 0, 0},
		{"import os\rx = 1\rif x:\r    pass\r", 0, 1}, // CR line endings, which CPython reads: a warning
	} {
		src := []byte(tt.src)
		f, err := syntax.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		tf := token.NewFileSet().AddFile("x.py", -1, len(src))
		tf.SetLinesForContent(src)
		se, notices := parseProblems("x.py", src, f.Errors, tokcheck.Scan(src).Problems, tf)
		if len(se) != tt.syntaxErrors || len(notices) != tt.notices {
			t.Errorf("%q: %d syntax errors %v, %d notices %v; want %d and %d", tt.src, len(se), se, len(notices), notices, tt.syntaxErrors, tt.notices)
		}
	}
}

// TestTokenizerProblems: what tree-sitter parses but CPython rejects is a
// syntax error with CPython's message.
func TestTokenizerProblems(t *testing.T) {
	for src, want := range map[string]string{
		"import os\n\ufeffimport sys\n":             "x.py:2:1: SyntaxError: invalid non-printable character U+FEFF",
		"if x:\n\tif y:\n\t\tpass\n        z = 1\n": "x.py:4:9: TabError: inconsistent use of tabs and spaces in indentation",
	} {
		b := []byte(src)
		f, err := syntax.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		tf := token.NewFileSet().AddFile("x.py", -1, len(b))
		tf.SetLinesForContent(b)
		se, _ := parseProblems("x.py", b, f.Errors, tokcheck.Scan(b).Problems, tf)
		if len(se) != 1 || fmt.Sprintf("%s:%d:%d: %s", se[0].Path, se[0].Line, se[0].Column, se[0].Message) != want {
			t.Errorf("%q: %v, want %s", src, se, want)
		}
	}
}

// TestLineStarts: the line tables the load's workers make are those
// token.File makes from the content.
func TestLineStarts(t *testing.T) {
	for _, src := range []string{"", "x", "\n", "\n\n", "a\nb", "a\nb\n", "a\r\nb\r\n", "\r", "é\nü\n\nlast"} {
		want := token.NewFileSet().AddFile("x.py", -1, len(src))
		want.SetLinesForContent([]byte(src))
		got := lineStarts([]byte(src))
		if !slices.Equal(got, want.Lines()) {
			t.Errorf("lineStarts(%q) = %v, want %v", src, got, want.Lines())
		}
	}
}
