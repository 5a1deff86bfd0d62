package tokcheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestScan: strings, including every prefix, nested f-string fields and
// escapes, are found; indentation errors are counted as CPython's
// tokenizer counts them.
func TestScan(t *testing.T) {
	strs := func(src string) []string {
		var out []string
		for _, s := range Scan([]byte(src)).Strings {
			out = append(out, src[s.Start:s.End])
		}
		return out
	}
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{`a = "x" + 'y'`, []string{`"x"`, `'y'`}},
		{`a = rb"\"" + Rb'x' + u"u" + br"b"`, []string{`rb"\""`, `Rb'x'`, `u"u"`, `br"b"`}},
		{"a = '''x\n'y''' + \"\"\"\"q\"\"\"", []string{"'''x\n'y'''", `""""q"""`}},
		{`a = f"{x["k"]} {y!r:>{w}}" + t'{z}'`, []string{`"k"`, `f"{x["k"]} {y!r:>{w}}"`, `t'{z}'`}},
		{"a = f'{{not a field}}'", []string{"f'{{not a field}}'"}},
		{"# 'not a string'\nx = rf # \"no\"", nil},
		{"kwarg=f\"\" or fr'' or xf'y'", []string{`f""`, `fr''`, `'y'`}},
	} {
		got := strs(tt.src)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%q: strings %q, want %q", tt.src, got, tt.want)
		}
	}
	for _, tt := range []struct {
		src  string
		want int
	}{
		{"if a:\n    b\n    c\n", 0},
		{"if a:\n\tb\n\tc\n", 0},
		{"if a:\n\tb\n        c\n", 1},            // tab vs 8 spaces: TabError
		{"if a:\n        b\n\tc\n", 1},            // the same the other way
		{"if a:\n    if b:\n        c\n  d\n", 1}, // unindent to no level
		{"x = (1,\n\t  2,\n        3)\n", 0},      // inside brackets nothing counts
		{"s = '''\n\tx\n        y'''\n", 0},       // nor inside strings
		{"if a:\n    b \\\n\tc\n", 0},             // nor on a continued line
		{"if a:\n\n\t# comment\n    b\n", 0},      // blank and comment lines
	} {
		if got := len(Scan([]byte(tt.src)).Problems); got != tt.want {
			t.Errorf("%q: %d indentation errors, want %d", tt.src, got, tt.want)
		}
	}
}

// TestProblems: each kind is found where CPython reports it, and source
// CPython compiles yields nothing. Confirmed with CPython itself where
// python3 is available (and always in CI).
func TestProblems(t *testing.T) {
	tests := []struct {
		src  string
		want string // the problems, "offset: message; ..."
	}{
		{"\ufeffx = 1\n", ""},
		{"x = 1\n\ufeffy = 2\n", "6: SyntaxError: invalid non-printable character U+FEFF"},
		{"x = '\ufeff'  # \ufeff\n", ""},
		{"if a:\n\tb = 1\n        c = 2\n", "21: TabError: inconsistent use of tabs and spaces in indentation"},
		{"if a:\n    if b:\n        c = 1\n  d = 2\n", "32: IndentationError: unindent does not match any outer indentation level"},
		{"if a:\n\tb = 1\nc = (1,\n        2)\n", ""},
		{"", ""},
		{"\ufeff", ""},
	}
	var srcs []string
	for _, tt := range tests {
		var got []string
		for _, p := range Scan([]byte(tt.src)).Problems {
			got = append(got, p.String())
		}
		if strings.Join(got, "; ") != tt.want {
			t.Errorf("%q: %q, want %q", tt.src, strings.Join(got, "; "), tt.want)
		}
		srcs = append(srcs, tt.src)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("python3 is required in CI: %v", err)
		}
		return
	}
	dir := t.TempDir()
	var args []string
	for i, src := range srcs {
		p := filepath.Join(dir, fmt.Sprintf("f%d.py", i))
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	script := "import sys\nfor p in sys.argv[1:]:\n    try:\n        compile(open(p, 'rb').read(), p, 'exec')\n        print('ok')\n    except SyntaxError:\n        print('rejected')\n"
	out, err := exec.Command(py, append([]string{"-c", script}, args...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	for i, verdict := range strings.Fields(string(out)) {
		if (verdict == "ok") != (tests[i].want == "") {
			t.Errorf("%q: CPython says %s, Scan says %q", tests[i].src, verdict, tests[i].want)
		}
	}
}

// FuzzScan: Scan never panics and its spans stay inside the source.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"", "\ufeff", "f'{", "'''", "x = (\n\t1", "if a:\n\tb\n        c\n", "rb'\\", "f\"{x:{y}}\"", "t'{a!r}' \\\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		r := Scan(src)
		for _, s := range r.Strings {
			if s.Start < 0 || s.End > len(src) || s.Start > s.End {
				t.Fatalf("string span %v outside %d bytes", s, len(src))
			}
		}
		for _, p := range r.Problems {
			if p.Offset < 0 || p.Offset > len(src) {
				t.Fatalf("problem at %d outside %d bytes", p.Offset, len(src))
			}
		}
	})
}

// TestScanComments: comments are found where the tokenizer reads them,
// not inside strings, and in f-string replacement fields.
func TestScanComments(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{"x = 1  # one\r\n# two\ny = '# not one'", []string{"# one", "# two"}},
		{"s = '''\n# inside\n'''  # after", []string{"# after"}},
		{"f = f'''{x # a comment in a field\n}'''", []string{"# a comment in a field"}},
		{"a = 1 \\\n# after a join", []string{"# after a join"}},
	} {
		var got []string
		for _, s := range Scan([]byte(tt.src)).Comments {
			got = append(got, tt.src[s.Start:s.End])
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%q: comments %q, want %q", tt.src, got, tt.want)
		}
	}
}
