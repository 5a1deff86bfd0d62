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

// TestReadableLines: a checked file whose lines end with CR alone (which
// CPython reads and the parser does not) is a tool error, not checked; LF,
// CRLF, a CR inside CRLF lines, and a file of one line without a break are
// checked.
func TestReadableLines(t *testing.T) {
	files := map[string]string{
		"cr.py":    "import os  # noqa: CFL001\rimport sys\r",
		"lf.py":    "import os\nimport sys\n",
		"crlf.py":  "import os\r\nimport sys\r\n",
		"mixed.py": "s = 'a\rb'\nimport sys\n",
		"one.py":   "import os",
		"empty.py": "",
	}
	read := func(p string) ([]byte, error) { return []byte(files[p]), nil }
	ok, errs := readableLines([]string{"crlf.py", "cr.py", "empty.py", "lf.py", "mixed.py", "one.py"}, read)
	if want := []string{"crlf.py", "empty.py", "lf.py", "mixed.py", "one.py"}; !slices.Equal(ok, want) {
		t.Errorf("checked %v, want %v", ok, want)
	}
	if len(errs) != 1 || errs[0].Path != "cr.py" || errs[0].Message != crOnlyMessage {
		t.Errorf("errors %v, want one for cr.py", errs)
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
