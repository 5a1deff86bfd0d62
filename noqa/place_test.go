package noqa

import (
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// TestPlace: where a `# noqa` for a finding on a line goes, and that the
// directive placed there suppresses the finding (read back from the
// parser's comments) and leaves the code parsing as before.
func TestPlace(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		line  int
		codes []string
		want  string // the source with the directive; "" when none is placed
	}{
		{"plain line", "x = f()\ny = 2\n", 1, nil,
			"x = f()  # noqa: CFL001\ny = 2\n"},
		{"trailing whitespace", "x = f()   \ny = 2\n", 1, nil,
			"x = f()  # noqa: CFL001   \ny = 2\n"},
		{"last line without a line break", "x = f()", 1, nil,
			"x = f()  # noqa: CFL001"},
		{"backslash continuation", "x = f(1) + \\\n    g()\ny = 2\n", 1, nil,
			"x = f(1) + \\\n    g()  # noqa: CFL001\ny = 2\n"},
		{"two continuations, finding on the middle line", "x = 1 + \\\n    f() + \\\n    2\n", 2, nil,
			"x = 1 + \\\n    f() + \\\n    2  # noqa: CFL001\n"},
		{"line opening a triple-quoted string", "p = start(\"\"\"\nhello # not a comment\n\"\"\")\nq = 1\n", 1, nil,
			"p = start(\"\"\"\nhello # not a comment\n\"\"\")  # noqa: CFL001\nq = 1\n"},
		{"line inside a triple-quoted string", "p = start('''\nhello\n''', 2)\n", 2, nil,
			"p = start('''\nhello\n''', 2)  # noqa: CFL001\n"},
		{"f-string with nested quotes across lines", "x = f\"\"\"{d[\"k\"]}\n\"\"\"\n", 1, nil,
			"x = f\"\"\"{d[\"k\"]}\n\"\"\"  # noqa: CFL001\n"},
		{"brackets spanning lines", "pool = mp.Pool(\n    4,  # workers\n)\npool.close()\n", 1, nil,
			"pool = mp.Pool(\n    4,  # workers\n)  # noqa: CFL001\npool.close()\n"},
		{"compound statement header", "if (ready and\n        f()):\n    pass\n", 1, nil,
			"if (ready and\n        f()):  # noqa: CFL001\n    pass\n"},
		{"other tool's codes: merged", "x = f()  # noqa: E501\n", 1, nil,
			"x = f()  # noqa: E501, CFL001\n"},
		{"merged before the reason", "x = f()  # noqa: E501 (long)\n", 1, nil,
			"x = f()  # noqa: E501, CFL001 (long)\n"},
		{"merged at the logical line's end", "x = f(1) + \\\n    g()  # noqa: E501\n", 1, nil,
			"x = f(1) + \\\n    g()  # noqa: E501, CFL001\n"},
		{"after another comment", "x = f()  # type: ignore\n", 1, nil,
			"x = f()  # type: ignore  # noqa: CFL001\n"},
		{"quotes in a comment open no string", "x = f()  # don't \"quote\" '''\ny = 2\n", 1, nil,
			"x = f()  # don't \"quote\" '''  # noqa: CFL001\ny = 2\n"},
		{"a comment ending in a backslash continues nothing", "x = f()  # C:\\\ny = 2\n", 1, nil,
			"x = f()  # C:\\  # noqa: CFL001\ny = 2\n"},
		{"a bracket in a string opens nothing", "x = f(\"(\")\ny = 2\n", 1, nil,
			"x = f(\"(\")  # noqa: CFL001\ny = 2\n"},
		{"CRLF continuation", "x = f(1) + \\\r\n    g()\r\ny = 2\r\n", 1, nil,
			"x = f(1) + \\\r\n    g()  # noqa: CFL001\r\ny = 2\r\n"},
		{"CRLF triple-quoted string", "p = start(\"\"\"\r\nhi\r\n\"\"\")\r\n", 1, nil,
			"p = start(\"\"\"\r\nhi\r\n\"\"\")  # noqa: CFL001\r\n"},
		{"a notebook cell's text (no final line break)", "%matplotlib inline\nx = f(\n    1)", 2, nil,
			"%matplotlib inline\nx = f(\n    1)  # noqa: CFL001"},
		// The misplaced file directive is ignored (and reported), and the
		// `# noqa` after it in the same comment must still be read: it was
		// not, so --add-noqa appended another each run and none suppressed.
		{"after a file directive misplaced on a code line", "x = f()  # cudaforklint: noqa: CFL004\n", 1, nil,
			"x = f()  # cudaforklint: noqa: CFL004  # noqa: CFL001\n"},
		{"two codes, one there already", "x = f()  # noqa: CFL001\n", 1, []string{"CFL001", "CFL002"},
			"x = f()  # noqa: CFL001, CFL002\n"},
		{"already covered", "x = f()  # noqa: CFL001\n", 1, nil, ""},
		{"already covered after a misplaced file directive", "x = f()  # cudaforklint: noqa: CFL004  # noqa: CFL001\n", 1, nil, ""},
		{"already covered at the logical line's end", "x = f(\n    1)  # noqa: CFL001\n", 1, nil, ""},
		{"blanket there", "x = f()  # NOQA\n", 1, nil, ""},
		{"no such line", "x = f()\n", 3, nil, ""},
		{"line 0", "x = f()\n", 0, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			codes := tt.codes
			if codes == nil {
				codes = []string{"CFL001"}
			}
			p, ok := Place([]byte(tt.src), tt.line, codes...)
			if !ok {
				if tt.want != "" {
					t.Fatalf("no placement, want %q", tt.want)
				}
				return
			}
			if tt.want == "" {
				t.Fatalf("placed %+v, want none", p)
			}
			got := tt.src[:p.Edit.Start] + p.Edit.NewText + tt.src[p.Edit.End:]
			if got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			if wantLine := 1 + strings.Count(tt.src[:p.Edit.Start], "\n"); p.Line != wantLine {
				t.Errorf("Line %d, want %d", p.Line, wantLine)
			}
			before, errB := syntax.Parse([]byte(tt.src))
			after, errA := syntax.Parse([]byte(got))
			if errB != nil || errA != nil || len(after.Errors) > len(before.Errors) {
				t.Fatalf("the directive breaks the code: %v %v", errA, after.Errors)
			}
			set := Parse([]byte(got), after.Comments)
			for _, c := range codes {
				if !set.Suppresses(c, tt.line) {
					t.Errorf("the placed directive does not suppress %s on line %d", c, tt.line)
				}
			}
		})
	}
}

// TestLogicalLineSuppression: a directive at the end of a logical line
// covers its other lines; one on a line of its own does not cover the
// next statement, nor a directive in a string anything.
func TestLogicalLineSuppression(t *testing.T) {
	src := "x = f(1) + \\\n    g()  # noqa: CFL001\ny = h(\n    2)\nz = 3  # noqa: CFL002\ns = '''\n# noqa: CFL003\n'''\n"
	f, err := syntax.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	set := Parse([]byte(src), f.Comments)
	for _, tc := range []struct {
		code string
		line int
		want bool
	}{
		{"CFL001", 1, true}, {"CFL001", 2, true}, {"CFL001", 3, false},
		{"CFL002", 3, false}, {"CFL002", 4, false}, {"CFL002", 5, true},
		{"CFL003", 6, false}, {"CFL003", 7, false},
	} {
		if got := set.Suppresses(tc.code, tc.line); got != tc.want {
			t.Errorf("%s on line %d: %v, want %v", tc.code, tc.line, got, tc.want)
		}
	}
}
