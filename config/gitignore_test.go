package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIgnorePatterns(t *testing.T) {
	tests := []struct {
		pattern string
		path    string
		isDir   bool
		want    bool
	}{
		{"*.pyc", "a.pyc", false, true},
		{"*.pyc", "deep/er/a.pyc", false, true},
		{"*.pyc", "a.py", false, false},
		{"build/", "build", true, true},
		{"build/", "build", false, false}, // directory-only
		{"build/", "src/build", true, true},
		{"/build", "build", false, true},
		{"/build", "src/build", false, false}, // anchored
		{"doc/frotz", "doc/frotz", true, true},
		{"doc/frotz", "a/doc/frotz", true, false}, // a middle slash anchors
		{"foo/*", "foo/bar", false, true},
		{"foo/*", "foo/bar/baz", false, false}, // '*' stops at '/'
		{"**/foo", "foo", false, true},
		{"**/foo", "x/y/foo", false, true},
		{"**/foo/bar", "x/foo/bar", false, true},
		{"abc/**", "abc/x/y", false, true},
		{"abc/**", "abc", true, false},
		{"a/**/b", "a/b", false, true},
		{"a/**/b", "a/x/y/b", false, true},
		{"a/**/b", "a/xb", false, false},
		{"?.py", "a.py", false, true},
		{"?.py", "ab.py", false, false},
		{"[abc].py", "b.py", false, true},
		{"[!abc].py", "d.py", false, true},
		{"[!abc].py", "a.py", false, false},
		{"[a-c]x", "bx", false, true},
		{`\#literal`, "#literal", false, true},
		{`\!bang`, "!bang", false, true},
		{"trailing   ", "trailing", false, true},
		{`space\ `, "space ", false, true},
		{"name.py", "x/name.py", false, true},
		{"a.b", "axb", false, false}, // '.' is literal
		{"**", "anything/at/all", false, true},
		{"x**y", "xaay", false, true},
	}
	for _, tt := range tests {
		p, ok, err := compileIgnore(tt.pattern)
		if err != nil || !ok {
			t.Fatalf("compileIgnore(%q): %v %v", tt.pattern, ok, err)
		}
		if got := p.match(tt.path, tt.isDir); got != tt.want {
			t.Errorf("%q matching %q (dir %v) = %v, want %v (re %s)", tt.pattern, tt.path, tt.isDir, got, tt.want, p.re)
		}
	}
	for _, skip := range []string{"", "   ", "# comment", "!", "/"} {
		if _, ok, _ := compileIgnore(skip); ok {
			t.Errorf("%q compiled to a pattern", skip)
		}
	}
	if p, _, _ := compileIgnore("!keep.py"); !p.negate {
		t.Error("negation not parsed")
	}
}

func TestGitignoreFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(s), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755)
	write(".git/info/exclude", "secret.py\n")
	write(".gitignore", "logs/\n*.log\n!important.log\nout/\n!out/keep.py\n")
	write("pkg/.gitignore", "gen_*.py\n!gen_keep.py\n/local_only.py\n")
	write("pkg/sub/.gitignore", "!*.log\n")
	g := NewGitignore()
	tests := []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"secret.py", false, true},
		{"logs", true, true},
		{"logs/a.py", false, true}, // inside an ignored directory
		{"x.log", false, true},
		{"important.log", false, false},
		{"out/keep.py", false, true}, // cannot re-include under an ignored directory
		{"pkg/gen_a.py", false, true},
		{"pkg/gen_keep.py", false, false},
		{"pkg/deep/gen_b.py", false, true},
		{"pkg/local_only.py", false, true},
		{"pkg/deep/local_only.py", false, false},
		{"pkg/sub/x.log", false, false}, // a deeper file re-includes
		{"pkg/x.log", false, true},
		{"src/a.py", false, false},
		{".git/config", false, true},
	}
	for _, tt := range tests {
		if got := g.Ignored(filepath.Join(dir, tt.path), tt.isDir); got != tt.want {
			t.Errorf("Ignored(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
	// Outside a repository, .gitignore files do not apply.
	norepo := t.TempDir()
	os.WriteFile(filepath.Join(norepo, ".gitignore"), []byte("*.py\n"), 0o644)
	if NewGitignore().Ignored(filepath.Join(norepo, "a.py"), false) {
		t.Error(".gitignore applied outside a git repository")
	}
	// A .git file (worktree or submodule) marks a repository too.
	wt := t.TempDir()
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: /elsewhere\n"), 0o644)
	os.WriteFile(filepath.Join(wt, ".gitignore"), []byte("*.py\n"), 0o644)
	if !NewGitignore().Ignored(filepath.Join(wt, "a.py"), false) {
		t.Error(".git file not recognised as a repository")
	}
}

func TestRuffGlobs(t *testing.T) {
	tests := []struct {
		glob, rel string
		want      bool
	}{
		{"__init__.py", "a/b/__init__.py", true},
		{"tests/*", "tests/a/b.py", true}, // '*' crosses '/', as globset's default
		{"tests/*", "src/tests/a.py", false},
		{"**/tests/*", "src/tests/a.py", true},
		{"**/tests/*", "tests/a.py", true},
		{"**/{tests,docs}/*", "docs/conf.py", true},
		{"**/{tests,docs}/*", "src/conf.py", false},
		{"*.pyi", "x/y.pyi", true},
		{"scripts/?.py", "scripts/a.py", true},
		{"!src/**", "tests/a.py", true},
		{"!src/**", "src/a.py", false},
		{"./pkg/mod.py", "pkg/mod.py", true},
	}
	for _, tt := range tests {
		g, err := compileRuffGlob(tt.glob)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.matches(tt.rel, filepath.Base(tt.rel)); got != tt.want {
			t.Errorf("%q on %q = %v, want %v (re %s)", tt.glob, tt.rel, got, tt.want, g.re)
		}
	}
	for _, bad := range []string{"{a,b", "a}"} {
		if _, err := compileRuffGlob(bad); err == nil {
			t.Errorf("%q compiled", bad)
		}
	}
}

func TestTOMLTree(t *testing.T) {
	doc, err := parseTOML("f.toml", []byte(`
top = "v"
[tool.cudaforklint]
select = [
  "CFL001",
  "CFL002",
]
dotted.key = true
inline = { a = ["x"], "b.c" = 1 }

[[arr]]
n = 1
[[arr]]
n = 2
`))
	if err != nil {
		t.Fatal(err)
	}
	sel := doc.lookup("tool", "cudaforklint", "select")
	if sel == nil || len(sel.arr) != 2 || sel.line != 4 || sel.arr[1].line != 6 || sel.arr[1].str != "CFL002" {
		t.Fatalf("select: %+v", sel)
	}
	if v := doc.lookup("tool", "cudaforklint", "dotted", "key"); v == nil || !v.b || v.line != 8 {
		t.Errorf("dotted key: %+v", v)
	}
	if v := doc.lookup("tool", "cudaforklint", "inline", "b.c"); v == nil || v.str != "1" {
		t.Errorf("quoted key in inline table: %+v", v)
	}
	if v := doc.lookup("arr"); v == nil || len(v.arr) != 2 || v.arr[1].tbl.vals["n"].str != "2" {
		t.Errorf("array of tables: %+v", v)
	}
	if v := doc.lookup("top"); v == nil || v.line != 2 {
		t.Errorf("top: %+v", v)
	}
}
