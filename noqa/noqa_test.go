package noqa

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// comments finds the comments of a small source the way the parser would,
// for sources without '#' inside strings (strings are the parser's job; see
// TestStringsAreNotComments).
func comments(src string) []syntax.Comment {
	var out []syntax.Comment
	off := 0
	for _, line := range strings.SplitAfter(src, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			text := strings.TrimRight(line[i:], "\r\n")
			out = append(out, syntax.Comment{Span: syntax.Span{Start: int32(off + i), End: int32(off + i + len(text))}, Text: text})
		}
		off += len(line)
	}
	return out
}

func parse(src string) *Set { return Parse([]byte(src), comments(src)) }

func TestLineDirectives(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		codes   []string // nil: blanket; []string{}: not a directive
		invalid bool
	}{
		{"blanket", "x = 1  # noqa", nil, false},
		{"blanket upper", "x = 1  # NOQA", nil, false},
		{"blanket mixed case", "x = 1  # NoQa", nil, false},
		{"no space after hash", "x = 1  #noqa:CFL001", []string{"CFL001"}, false},
		{"one code", "x = 1  # noqa: CFL001", []string{"CFL001"}, false},
		{"two codes comma", "x = 1  # noqa: CFL001, CFL002", []string{"CFL001", "CFL002"}, false},
		{"two codes no space", "x = 1  # noqa:CFL001,CFL002", []string{"CFL001", "CFL002"}, false},
		{"whitespace separated", "x = 1  # noqa: CFL001 CFL002", []string{"CFL001", "CFL002"}, false},
		{"trailing comma", "x = 1  # noqa: CFL001,", []string{"CFL001"}, false},
		{"reason after codes", "x = 1  # noqa: CFL001 some reason", []string{"CFL001"}, false},
		{"space before colon", "x = 1  # noqa : CFL003", []string{"CFL003"}, false},
		{"other tools codes kept", "x = 1  # noqa: F401, CFL002, E501", []string{"F401", "CFL002", "E501"}, false},
		{"after another comment", "x = 1  # type: ignore  # noqa: CFL002", []string{"CFL002"}, false},
		{"after another comment blanket", "x = 1  # type: ignore # noqa", nil, false},
		{"lowercase code of ours is not a code", "x = 1  # NOQA: cfl001", []string{}, true},
		{"lowercase code of ours among others", "x = 1  # noqa: CFL002, cfl001", []string{"CFL002"}, true},
		{"code of ours glued to letters", "x = 1  # noqa: CFL001abc", []string{}, true},
		{"no codes but one of ours named", "x = 1  # noqa: see CFL001", []string{}, true},
		{"glued word naming ours", "x = 1  # noqa-CFL001", []string{}, true},
		{"noqa not after hash", "x = 1  # this is noqa", []string{}, false},
		{"no directive", "x = 1  # hello", []string{}, false},
		// Other tools' dialects: never invalid, never ours.
		{"flake8 digits only", "x = 1  # noqa: 501", []string{"501"}, false},
		{"pycodestyle code", "x = 1  # noqa: E501", []string{"E501"}, false},
		{"codes without spaces", "x = 1  # noqa:E501,W291", []string{"E501", "W291"}, false},
		{"lowercase code of another tool", "x = 1  # noqa:e501", []string{"e501"}, false},
		{"flake8 space before colon", "x = 1  # noqa : E501", []string{"E501"}, false},
		{"digits then ours", "x = 1  # noqa: 501, CFL001", []string{"501", "CFL001"}, false},
		{"colon and nothing", "x = 1  # noqa:", []string{}, false},
		{"colon and prose", "x = 1  # noqa: see the issue", []string{}, false},
		{"noqa glued to digits", "x = 1  # noqa123", []string{}, false},
		{"noqa glued to a word", "x = 1  # noqa-foo", []string{}, false},
		{"type ignore then blanket", "x = 1  # type: ignore # noqa", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parse(tt.line + "\n")
			if got := len(s.Invalid()) > 0; got != tt.invalid {
				t.Fatalf("invalid = %v (%v), want %v", got, s.Invalid(), tt.invalid)
			}
			ds := s.Directives()
			if tt.codes != nil && len(tt.codes) == 0 {
				if len(ds) != 0 {
					t.Fatalf("got directive %+v, want none", ds[0])
				}
				return
			}
			if len(ds) != 1 {
				t.Fatalf("got %d directives, want 1", len(ds))
			}
			if !reflect.DeepEqual(ds[0].Codes, tt.codes) {
				t.Errorf("codes = %q, want %q", ds[0].Codes, tt.codes)
			}
			if ds[0].Kind != Line || ds[0].Line != 1 {
				t.Errorf("kind/line = %v/%d", ds[0].Kind, ds[0].Line)
			}
		})
	}
}

func TestSuppresses(t *testing.T) {
	src := `import os
os.fork()  # noqa: CFL001
os.fork()  # noqa
os.fork()  # noqa: F401
os.fork()  # noqa: cfl001
os.fork()
`
	s := parse(src)
	tests := []struct {
		code string
		line int
		want bool
	}{
		{"CFL001", 2, true},
		{"CFL002", 2, false},
		{"CFL002", 3, true}, // blanket
		{"CFL001", 4, false},
		{"CFL001", 5, false}, // invalid directive suppresses nothing
		{"CFL001", 6, false},
		{"CFL001", 1, false},
	}
	for _, tt := range tests {
		if got := s.Suppresses(tt.code, tt.line); got != tt.want {
			t.Errorf("Suppresses(%s, %d) = %v, want %v", tt.code, tt.line, got, tt.want)
		}
	}
}

func TestFileDirectives(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		code    string
		want    bool
		invalid bool
	}{
		{"blanket", "import os\n# cudaforklint: noqa\nos.fork()\n", "CFL001", true, false},
		{"at end of file", "import os\nos.fork()\n    # cudaforklint: noqa", "CFL004", true, false},
		{"one code", "# cudaforklint: noqa: CFL001\nos.fork()\n", "CFL001", true, false},
		{"other code", "# cudaforklint: noqa: CFL001\nos.fork()\n", "CFL002", false, false},
		{"no spaces", "#cudaforklint:noqa:CFL002\n", "CFL002", true, false},
		{"noqa case-insensitive", "# cudaforklint: NOQA\n", "CFL002", true, false},
		{"tool name case-sensitive", "# Cudaforklint: noqa\n", "CFL002", false, false},
		{"trailing is invalid", "os.fork()  # cudaforklint: noqa\n", "CFL001", false, true},
		{"no codes", "# cudaforklint: noqa:\n", "CFL001", false, true},
		{"ruff's is not ours", "# ruff: noqa\n", "CFL001", false, false},
		{"flake8's is not ours", "# flake8: noqa\n", "CFL001", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := parse(tt.src)
			if got := s.Suppresses(tt.code, 99); got != tt.want {
				t.Errorf("Suppresses = %v, want %v", got, tt.want)
			}
			if got := len(s.Invalid()) > 0; got != tt.invalid {
				t.Errorf("invalid = %v (%v), want %v", got, s.Invalid(), tt.invalid)
			}
		})
	}
}

// TestStringsAreNotComments: the parser gives no comment for a `# noqa`
// inside a string literal, so nothing is suppressed there.
func TestStringsAreNotComments(t *testing.T) {
	src := "x = '# noqa: CFL001'; os.fork()\n"
	s := Parse([]byte(src), nil)
	if s.Suppresses("CFL001", 1) {
		t.Fatal("a string literal suppressed a finding")
	}
}

func TestUnused(t *testing.T) {
	src := "" +
		"import os\n" + // 1
		"os.fork()  # noqa: CFL001, CFL002\n" + // 2: CFL001 used, CFL002 unmatched
		"x = 1  # noqa\n" + // 3: blanket unused
		"x = 2  # noqa: F401\n" + // 4: other tool only: never reported
		"x = 3  # noqa: CFL999, CFL005, E501\n" + // 5: unknown, disabled
		"# noqa: CFL003\n" + // 6: own line, unmatched
		"x = 4  # noqa: CFL003 the pool uses spawn\n" + // 7: reason kept
		"x = 5  # type: ignore  # noqa: CFL004\n" + // 8
		"# cudaforklint: noqa: CFL001, CFL004\n" + // 9: CFL001 used by line 2
		"os.fork()  # noqa\n" // 10: blanket used
	s := parse(src)
	for _, c := range []struct {
		code string
		line int
	}{{"CFL001", 2}, {"CFL002", 10}} {
		if !s.Suppresses(c.code, c.line) {
			t.Fatalf("Suppresses(%s, %d) = false", c.code, c.line)
		}
	}
	known := func(c string) bool { return c >= "CFL001" && c <= "CFL005" }
	enabled := func(c string) bool { return c != "CFL005" }
	got := s.Unused(UnusedOptions{Known: known, Enabled: enabled})
	type row struct {
		Line                         int
		Blanket                      bool
		Unmatched, Disabled, Unknown string
		Result                       string // the line after applying Edit
	}
	var rows []row
	for _, u := range got {
		fixed := src[:u.Edit.Start] + u.Edit.NewText + src[u.Edit.End:]
		lines := strings.SplitAfter(fixed, "\n")
		var res string
		if u.Line-1 < len(lines) {
			res = strings.TrimRight(lines[u.Line-1], "\n")
		}
		rows = append(rows, row{u.Line, u.Blanket, strings.Join(u.Unmatched, ","), strings.Join(u.Disabled, ","), strings.Join(u.Unknown, ","), res})
	}
	want := []row{
		{2, false, "CFL002", "", "", "os.fork()  # noqa: CFL001"},
		{3, true, "", "", "", "x = 1"},
		{5, false, "", "CFL005", "CFL999", "x = 3  # noqa: E501"},
		{6, false, "CFL003", "", "", "x = 4  # noqa: CFL003 the pool uses spawn"}, // line 6 deleted whole
		{7, false, "CFL003", "", "", "x = 4  # the pool uses spawn"},
		{8, false, "CFL004", "", "", "x = 5  # type: ignore"},
		{9, false, "CFL004", "", "", "# cudaforklint: noqa: CFL001"},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("Unused:\n got %+v\nwant %+v", rows, want)
	}
	// IgnoreBlanket drops line 3.
	if n := len(s.Unused(UnusedOptions{Known: known, Enabled: enabled, IgnoreBlanket: true})); n != len(want)-1 {
		t.Errorf("with IgnoreBlanket: %d unused, want %d", n, len(want)-1)
	}
}

func TestLineOf(t *testing.T) {
	s := Parse([]byte("a\nbc\n\nd"), nil)
	for off, want := range map[int]int{0: 1, 1: 1, 2: 2, 4: 2, 5: 3, 6: 4, 7: 4} {
		if got := s.LineOf(off); got != want {
			t.Errorf("LineOf(%d) = %d, want %d", off, got, want)
		}
	}
}

func TestCRLF(t *testing.T) {
	src := "import os\r\nos.fork()  # noqa: CFL001\r\n# noqa: CFL002\r\nx = 1\r\n"
	s := parse(src)
	if !s.Suppresses("CFL001", 2) {
		t.Fatal("CRLF line 2 not suppressed")
	}
	u := s.Unused(UnusedOptions{})
	if len(u) != 1 || u[0].Line != 3 {
		t.Fatalf("unused = %+v", u)
	}
	fixed := src[:u[0].Edit.Start] + u[0].Edit.NewText + src[u[0].Edit.End:]
	if fixed != "import os\r\nos.fork()  # noqa: CFL001\r\nx = 1\r\n" {
		t.Errorf("fixed = %q", fixed)
	}
}

// TestOtherToolsAreQuiet: a file full of other linters' suppression comments,
// parsed by the real parser, gives no invalid directive and nothing unused
// (the driver leaves blanket directives out), and suppresses our codes only
// where a blanket directive covers every code.
func TestOtherToolsAreQuiet(t *testing.T) {
	src := "" +
		"x = 1  # noqa: 501\n" + // 1
		"x = 2  # noqa: E501\n" + // 2
		"x = 3  # noqa:E501,W291\n" + // 3
		"x = 4  # NOQA\n" + // 4: blanket
		"x = 5  # noqa\n" + // 5: blanket
		"s = '# noqa: cfl001 # noqa:'  # plain comment\n" + // 6: inside a string
		"t = \"\"\"\n# noqa: CFL0x\n\"\"\"\n" + // 7-9: inside a string
		"x = 6  # type: ignore # noqa\n" + // 10: blanket
		"x = 7  # noqa : E501\n" + // 11
		"x = 8  # noqa:e501\n" + // 12
		"x = 9  # noqa:\n" + // 13
		"x = 10  # noqa-foo\n" + // 14
		"x = 11  # noqa: see the issue\n" // 15
	f, err := syntax.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := Parse([]byte(src), f.Comments)
	if inv := s.Invalid(); len(inv) != 0 {
		t.Errorf("invalid directives reported: %+v", inv)
	}
	blanket := map[int]bool{4: true, 5: true, 10: true}
	for line := 1; line <= 15; line++ {
		if got := s.Suppresses("CFL001", line); got != blanket[line] {
			t.Errorf("line %d: Suppresses(CFL001) = %v, want %v", line, got, blanket[line])
		}
	}
	if u := s.Unused(UnusedOptions{IgnoreBlanket: true}); len(u) != 0 {
		t.Errorf("unused reported: %+v", u)
	}
}
