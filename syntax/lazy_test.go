package syntax

import (
	"strings"
	"testing"
)

// TestLazyImports: PEP 810's soft keyword makes the import after it Lazy;
// everywhere else `lazy` is a name.
func TestLazyImports(t *testing.T) {
	runDumpCases(t, []dumpCase{
		{"import", "lazy import torch_geometric\n", "(lazy import torch_geometric)"},
		{"dotted as, several", "lazy import a.b as c, d\n", "(lazy import a.b as c d)"},
		{"from", "lazy from x import y, z as w\n", "(lazy from x import y z as w)"},
		{"relative, parenthesised over lines", "lazy from . import (p,\n    q)\n", "(lazy from . import p q)"},
		{"several spaces", "lazy  import   spaced\n", "(lazy import spaced)"},
		{"continuation line", "lazy \\\n    import cont\n", "(lazy import cont)"},
		{"after a semicolon", "x = 1; lazy import e\n", "(= [x] 1)\n(lazy import e)"},
		{"one-line if", "if cond: lazy import f\n", "(if cond (lazy import f))"},
		{"indented block", "if cond:\n    lazy import g\n    h()\nafter()\n", "(if cond (lazy import g) (call h))\n(call after)"},
		{"with block", "with ctx():\n    lazy from m import n\n", "(with (call ctx): (lazy from m import n))"},
		{"plain import stays eager", "import lazy\nfrom lazy import x\n", "(import lazy)\n(from lazy import x)"},
		{"name: assignment", "lazy = 3\n", "(= [lazy] 3)"},
		{"name: attribute", "lazy.x = 1\n", "(= [(. lazy x)] 1)"},
		{"name: call", "lazy(1)\nprint(lazy)\n", "(call lazy 1)\n(call print lazy)"},
		{"name: in a function", "def fn():\n    lazy = import_thing()\n", "(def fn () (= [lazy] (call import_thing)))"},
		{"name: keyword argument", "f(lazy=True)\n", "(call f lazy=True)"},
		{"in a string", "s = \"\"\"\nlazy import notreal\n\"\"\"\n", "(= [s] \"\\nlazy import notreal\\n\")"},
		{"in a comment", "# lazy import notreal\nx = 1\n", "(= [x] 1)"},
		{"in an f-string", "t = f\"{lazy} import\"\n", "(= [t] (fstr \" import\" lazy))"},
	})
}

// TestLazySpans: the statement starts at the keyword; the names are where
// they are written.
func TestLazySpans(t *testing.T) {
	src := "x = 1\nlazy import a.b as c\nlazy from m import n\n"
	f := mustParse(t, src)
	imp, ok := f.Body[1].(*Import)
	if !ok || !imp.Lazy {
		t.Fatalf("Body[1] = %#v, want a lazy Import", f.Body[1])
	}
	if got := src[imp.Start:imp.End]; got != "lazy import a.b as c" {
		t.Errorf("import span %q", got)
	}
	if got := src[imp.Names[0].Start:imp.Names[0].End]; got != "a.b as c" {
		t.Errorf("alias span %q", got)
	}
	from, ok := f.Body[2].(*ImportFrom)
	if !ok || !from.Lazy || from.Module != "m" {
		t.Fatalf("Body[2] = %#v, want a lazy ImportFrom of m", f.Body[2])
	}
	if got := src[from.Start:from.End]; got != "lazy from m import n" {
		t.Errorf("from span %q", got)
	}
	if len(f.Body) != 3 || len(f.Errors) != 0 {
		t.Errorf("%d statements, errors %v", len(f.Body), f.Errors)
	}
}

// TestLazyKeywords checks the scan itself, including what it must not take
// for the keyword.
func TestLazyKeywords(t *testing.T) {
	tests := []struct {
		src  string
		want []string // the statement text from each keyword to the end of its line
	}{
		{"lazy import a\n", []string{"lazy import a"}},
		{"lazy from a import b\n", []string{"lazy from a import b"}},
		{"x = [\n    lazy\n]\nimport y\n", nil},                         // inside brackets: a name
		{"lazy\nimport y\n", nil},                                       // two statements
		{"s = 'lazy import a'\n", nil},                                  // a string
		{"f(lazy, import_)\n", nil},                                     // names
		{"lazy.import_x\n", nil},                                        // an attribute
		{"x: lazy\nimport y\n", nil},                                    // an annotation, then an import
		{"s = '''\n'''; lazy import a\n", []string{"lazy import a"}},    // after a string closing on another line
		{"f'{x:{w}}'; lazy import a\n", []string{"lazy import a"}},      // after nested replacement fields
		{"f\"{d[\"k\"]}\"; lazy import a\n", []string{"lazy import a"}}, // PEP 701 quote reuse
	}
	for _, tt := range tests {
		var got []string
		for _, m := range lazyKeywords([]byte(tt.src)) {
			line := tt.src[m.kw:]
			if i := strings.IndexByte(line, '\n'); i >= 0 {
				line = line[:i]
			}
			got = append(got, line)
			if !strings.HasPrefix(tt.src[m.stmt:], "import") && !strings.HasPrefix(tt.src[m.stmt:], "from") {
				t.Errorf("%q: statement offset %d is not at import/from", tt.src, m.stmt)
			}
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%q: keywords %q, want %q", tt.src, got, tt.want)
		}
	}
}
