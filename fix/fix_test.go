package fix

import (
	"bytes"
	"errors"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/finding"
)

// edit builds an edit replacing the first occurrence of old (after skip
// bytes) in src.
func edit(path, src, old, new string) finding.Edit {
	i := strings.Index(src, old)
	if i < 0 {
		panic("no " + old)
	}
	return finding.Edit{Location: finding.Location{Path: path, Start: finding.Position{Offset: i}, End: finding.Position{Offset: i + len(old)}}, NewText: new}
}

func insertAt(path string, off int, text string) finding.Edit {
	return finding.Edit{Location: finding.Location{Path: path, Start: finding.Position{Offset: off}, End: finding.Position{Offset: off}}, NewText: text}
}

func fnd(path string, a finding.Applicability, edits ...finding.Edit) finding.Finding {
	return finding.Finding{Code: "CFL001", Location: finding.Location{Path: path},
		Fixes: []finding.Fix{{Message: "fix it", Applicability: a, Edits: edits}}}
}

const src = `import multiprocessing as mp
import torch

torch.cuda.init()
p = mp.Process(target=work)
q = mp.Process(target=work)
p.start()
`

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestApply(t *testing.T) {
	spawn := `mp.get_context("spawn").Process`
	p1 := strings.Index(src, "mp.Process")
	p2 := strings.LastIndex(src, "mp.Process")
	at := func(off int, n int, text string) finding.Edit {
		return finding.Edit{Location: finding.Location{Path: "a.py", Start: finding.Position{Offset: off}, End: finding.Position{Offset: off + n}}, NewText: text}
	}
	guard := insertAt("a.py", 0, "# guarded\n")
	tests := []struct {
		name     string
		findings []finding.Finding
		opt      Options
		want     string
		fixed    []int
		skipped  []int
	}{
		{"safe applied",
			[]finding.Finding{fnd("a.py", finding.Safe, at(p1, 10, spawn))}, Options{},
			strings.Replace(src, "mp.Process", spawn, 1), []int{0}, nil},
		{"unsafe needs the option",
			[]finding.Finding{fnd("a.py", finding.Unsafe, at(p1, 10, spawn))}, Options{},
			src, nil, nil},
		{"unsafe with the option",
			[]finding.Finding{fnd("a.py", finding.Unsafe, at(p1, 10, spawn))}, Options{Unsafe: true},
			strings.Replace(src, "mp.Process", spawn, 1), []int{0}, nil},
		{"display-only never",
			[]finding.Finding{fnd("a.py", finding.DisplayOnly, at(p1, 10, spawn))}, Options{Unsafe: true},
			src, nil, nil},
		{"two independent fixes",
			[]finding.Finding{fnd("a.py", finding.Safe, at(p1, 10, spawn)), fnd("a.py", finding.Safe, at(p2, 10, spawn))}, Options{},
			strings.ReplaceAll(src, "mp.Process", spawn), []int{0, 1}, nil},
		{"overlap: first wins, second skipped",
			[]finding.Finding{fnd("a.py", finding.Safe, at(p1, 10, spawn)), fnd("a.py", finding.Safe, at(p1+3, 7, "Pool"))}, Options{},
			strings.Replace(src, "mp.Process", spawn, 1), []int{0}, []int{1}},
		{"identical edits applied once, both fixed",
			[]finding.Finding{fnd("a.py", finding.Safe, guard, at(p1, 10, spawn)), fnd("a.py", finding.Safe, guard, at(p2, 10, spawn))}, Options{},
			"# guarded\n" + strings.ReplaceAll(src, "mp.Process", spawn), []int{0, 1}, nil},
		{"insertions at one point keep order",
			[]finding.Finding{fnd("a.py", finding.Safe, insertAt("a.py", 0, "A\n")), fnd("a.py", finding.Safe, insertAt("a.py", 0, "B\n"))}, Options{},
			"A\nB\n" + src, []int{0, 1}, nil},
		{"edits given out of order",
			[]finding.Finding{fnd("a.py", finding.Safe, at(p2, 10, "Y"), at(p1, 10, "X"))}, Options{},
			strings.Replace(strings.Replace(src, "mp.Process", "X", 1), "mp.Process", "Y", 1), []int{0}, nil},
		{"a fix whose own edits overlap is skipped",
			[]finding.Finding{fnd("a.py", finding.Safe, at(p1, 10, "X"), at(p1+2, 3, "Y"))}, Options{},
			src, nil, []int{0}},
		{"suppressed findings are not fixed",
			func() []finding.Finding {
				f := fnd("a.py", finding.Safe, at(p1, 10, spawn))
				f.Suppressed = true
				return []finding.Finding{f}
			}(), Options{}, src, nil, nil},
		{"syntax check rolls back",
			[]finding.Finding{fnd("a.py", finding.Safe, at(p1, 10, "mp.Process(("))},
			Options{ParseErrors: func(b []byte) int { return strings.Count(string(b), "((") }},
			src, nil, nil},
		{"syntax check passes",
			[]finding.Finding{fnd("a.py", finding.Safe, at(p1, 10, spawn))},
			Options{ParseErrors: func(b []byte) int { return strings.Count(string(b), "((") }},
			strings.Replace(src, "mp.Process", spawn, 1), []int{0}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := write(t, dir, "a.py", src)
			tt.opt.WorkDir = dir
			res := Apply(tt.findings, tt.opt)
			got, _ := os.ReadFile(path)
			if string(got) != tt.want {
				t.Errorf("file:\n%s\nwant:\n%s", got, tt.want)
			}
			if !reflect.DeepEqual(res.Fixed, tt.fixed) {
				t.Errorf("fixed %v, want %v", res.Fixed, tt.fixed)
			}
			var skipped []int
			for _, s := range res.Skipped {
				skipped = append(skipped, s.Index)
				if s.Reason == "" {
					t.Error("skipped without a reason")
				}
			}
			if !reflect.DeepEqual(skipped, tt.skipped) {
				t.Errorf("skipped %v, want %v", skipped, tt.skipped)
			}
			if tt.name == "syntax check rolls back" && (res.Err() == nil || !strings.Contains(res.Err().Error(), "syntax error")) {
				t.Errorf("rollback error: %v", res.Err())
			}
		})
	}
}

// TestSecondRun: the skipped overlapping fix is picked up by a second run
// (with positions recomputed on the new text, as the CLI re-checks), and a
// third run with nothing left changes nothing.
func TestSecondRun(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "a.py", "x = f(g(1))\n")
	outer := fnd("a.py", finding.Safe, edit("a.py", "x = f(g(1))\n", "f(g(1))", "F(g(1))"))
	inner := fnd("a.py", finding.Safe, edit("a.py", "x = f(g(1))\n", "g(1)", "G(1)"))
	res := Apply([]finding.Finding{outer, inner}, Options{WorkDir: dir})
	if len(res.Skipped) != 1 {
		t.Fatalf("skipped %v", res.Skipped)
	}
	got, _ := os.ReadFile(path)
	inner2 := fnd("a.py", finding.Safe, edit("a.py", string(got), "g(1)", "G(1)"))
	Apply([]finding.Finding{inner2}, Options{WorkDir: dir})
	got, _ = os.ReadFile(path)
	if string(got) != "x = F(G(1))\n" {
		t.Fatalf("after two runs: %q", got)
	}
	st1, _ := os.Stat(path)
	res = Apply(nil, Options{WorkDir: dir})
	st2, _ := os.Stat(path)
	if len(res.Files) != 0 || !st1.ModTime().Equal(st2.ModTime()) {
		t.Error("a run with nothing to fix touched the file")
	}
}

func TestDiffModeDoesNotWrite(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "a.py", src)
	res := Apply([]finding.Finding{fnd("a.py", finding.Safe, edit("a.py", src, "torch.cuda.init()", "pass"))}, Options{WorkDir: dir, Diff: true})
	got, _ := os.ReadFile(path)
	if string(got) != src {
		t.Error("--diff wrote the file")
	}
	want := `--- a/a.py
+++ b/a.py
@@ -1,7 +1,7 @@
 import multiprocessing as mp
 import torch
 
-torch.cuda.init()
+pass
 p = mp.Process(target=work)
 q = mp.Process(target=work)
 p.start()
`
	if res.Diff() != want {
		t.Errorf("diff:\n%s\nwant:\n%s", res.Diff(), want)
	}
	if !reflect.DeepEqual(res.Fixed, []int{0}) {
		t.Errorf("fixed %v", res.Fixed)
	}
}

func TestOutOfRangeAndChangedFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.py", "short\n")
	res := Apply([]finding.Finding{fnd("a.py", finding.Safe, insertAt("a.py", 100, "x"))}, Options{WorkDir: dir})
	if res.Err() == nil || len(res.Fixed) != 0 {
		t.Errorf("out-of-range edit: err %v fixed %v", res.Err(), res.Fixed)
	}
	res = Apply([]finding.Finding{fnd("a.py", finding.Safe, insertAt("a.py", 0, "x"))}, Options{WorkDir: dir,
		Analyzed: func(string) ([]byte, bool) { return []byte("other\n"), true }})
	if res.Err() == nil || !strings.Contains(res.Err().Error(), "changed since") {
		t.Errorf("changed file: %v", res.Err())
	}
	res = Apply([]finding.Finding{fnd("missing.py", finding.Safe, insertAt("missing.py", 0, "x"))}, Options{WorkDir: dir})
	if res.Err() == nil {
		t.Error("missing file: no error")
	}
}

func TestMultiFileFix(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "a.py", "aaa\n")
	write(t, dir, "b.py", "bbb\n")
	f := fnd("a.py", finding.Safe, edit("a.py", "aaa\n", "aaa", "AAA"), edit("b.py", "bbb\n", "bbb", "BBB"))
	res := Apply([]finding.Finding{f}, Options{WorkDir: dir})
	a, _ := os.ReadFile(filepath.Join(dir, "a.py"))
	b, _ := os.ReadFile(filepath.Join(dir, "b.py"))
	if string(a) != "AAA\n" || string(b) != "BBB\n" || len(res.Files) != 2 || !reflect.DeepEqual(res.Fixed, []int{0}) {
		t.Errorf("a=%q b=%q files=%d fixed=%v", a, b, len(res.Files), res.Fixed)
	}
}

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "a.py", "old\n")
	if err := os.Chmod(path, 0o751); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(path, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o751 {
		t.Errorf("mode %v, want 0751", st.Mode().Perm())
	}
	if got, _ := os.ReadFile(path); string(got) != "new\n" {
		t.Errorf("content %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}

	// A symlink: the target is rewritten, the link stays a link.
	target := write(t, dir, "target.py", "old\n")
	link := filepath.Join(dir, "link.py")
	if err := os.Symlink("target.py", link); err != nil {
		t.Fatal("symlink:", err)
	}
	if err := WriteAtomic(link, []byte("via link\n")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a regular file")
	}
	if got, _ := os.ReadFile(target); string(got) != "via link\n" {
		t.Errorf("target content %q", got)
	}
	// A dangling link is an error, and creates nothing.
	os.Symlink("nowhere.py", filepath.Join(dir, "dangling.py"))
	if err := WriteAtomic(filepath.Join(dir, "dangling.py"), []byte("x")); err == nil {
		t.Error("dangling link: no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere.py")); err == nil {
		t.Error("dangling link target created")
	}
	// A directory is refused.
	if err := WriteAtomic(dir, []byte("x")); err == nil {
		t.Error("directory: no error")
	}
}

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "x\n", "x\n", ""},
		{"append to empty", "", "a\nb\n", "--- a/f.py\n+++ b/f.py\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"delete all", "a\n", "", "--- a/f.py\n+++ b/f.py\n@@ -1 +0,0 @@\n-a\n"},
		{"no newline at end", "a\nb", "a\nc", "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"add final newline", "a", "a\n", "--- a/f.py\n+++ b/f.py\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "1\nX\n3\n4\n5\n6\n7\n8\n9\n10\nY\n12\n",
			"--- a/f.py\n+++ b/f.py\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n 5\n@@ -8,5 +8,5 @@\n 8\n 9\n 10\n-11\n+Y\n 12\n"},
		{"merged hunk", "1\n2\n3\n4\n5\n6\n7\n8\n", "X\n2\n3\n4\n5\n6\n7\nY\n",
			"--- a/f.py\n+++ b/f.py\n@@ -1,8 +1,8 @@\n-1\n+X\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n"},
	}
	for _, tt := range tests {
		if got := UnifiedDiff("f.py", []byte(tt.a), []byte(tt.b)); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestDiffRoundTrip applies random diffs with patch(1), when installed, and
// with a small applier otherwise.
func TestDiffRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"a\n", "b\n", "c\n", "import os\n", "\n", "x = 1\n"}
	gen := func() string {
		var b strings.Builder
		for i := rng.Intn(30); i > 0; i-- {
			b.WriteString(words[rng.Intn(len(words))])
		}
		s := b.String()
		if rng.Intn(5) == 0 && s != "" {
			s = strings.TrimSuffix(s, "\n")
		}
		return s
	}
	patch, _ := exec.LookPath("patch")
	for i := 0; i < 300; i++ {
		a, b := gen(), gen()
		d := UnifiedDiff("f.py", []byte(a), []byte(b))
		got := applyUnified(t, a, d)
		if got != b {
			t.Fatalf("round trip %d:\na=%q\nb=%q\ndiff:\n%s\ngot %q", i, a, b, d, got)
		}
		if patch != "" && i < 40 && d != "" {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "f.py"), []byte(a), 0o644)
			cmd := exec.Command(patch, "-p1", "-s", "--no-backup-if-mismatch")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(d)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("patch(1) rejected the diff: %v\n%s\n%s", err, out, d)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "f.py")); string(got) != b {
				t.Fatalf("patch(1) result %q, want %q", got, b)
			}
		}
	}
}

// applyUnified applies a diff made by UnifiedDiff to a.
func applyUnified(t *testing.T, a, d string) string {
	if d == "" {
		return a
	}
	al := splitLines(a)
	var out []string
	pos := 0
	lines := strings.SplitAfter(d, "\n")
	for i := 2; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "@@ ") {
			if l != "" {
				t.Fatalf("unexpected line %q", l)
			}
			continue
		}
		// "-l,n" or "-l"; with n = 0, l is the line before the hunk.
		r := strings.Split(strings.Fields(l)[1][1:], ",")
		aStart, _ := strconv.Atoi(r[0])
		if len(r) == 1 || r[1] != "0" {
			aStart-- // to 0-based
		}
		out = append(out, al[pos:aStart]...)
		pos = aStart
		for i+1 < len(lines) && lines[i+1] != "" && !strings.HasPrefix(lines[i+1], "@@ ") {
			i++
			l := lines[i]
			noNL := i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\ `)
			text := l[1:]
			if noNL {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ':
				out = append(out, text)
				pos++
			case '-':
				pos++
			case '+':
				out = append(out, text)
			}
		}
	}
	out = append(out, al[pos:]...)
	return strings.Join(out, "")
}

func TestApplyEdits(t *testing.T) {
	got, err := ApplyEdits([]byte("hello world"), []finding.Edit{
		{Location: finding.Location{Start: finding.Position{Offset: 6}, End: finding.Position{Offset: 11}}, NewText: "there"},
		{Location: finding.Location{Start: finding.Position{Offset: 0}, End: finding.Position{Offset: 0}}, NewText: ">> "},
	})
	if err != nil || !bytes.Equal(got, []byte(">> hello there")) {
		t.Errorf("ApplyEdits = %q, %v", got, err)
	}
	if _, err := ApplyEdits([]byte("hello"), []finding.Edit{
		{Location: finding.Location{Start: finding.Position{Offset: 0}, End: finding.Position{Offset: 3}}},
		{Location: finding.Location{Start: finding.Position{Offset: 2}, End: finding.Position{Offset: 4}}},
	}); err == nil {
		t.Error("overlapping edits accepted")
	}
}

func TestDefaultSyntaxCheck(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "a.py", src)
	bad := fnd("a.py", finding.Safe, edit("a.py", src, "p.start()", "p.start(("))
	res := Apply([]finding.Finding{bad}, Options{WorkDir: dir})
	if got, _ := os.ReadFile(path); string(got) != src || res.Err() == nil {
		t.Errorf("a fix that breaks the syntax was written (err %v)", res.Err())
	}
	res = Apply([]finding.Finding{bad}, Options{WorkDir: dir, NoSyntaxCheck: true})
	if got, _ := os.ReadFile(path); !strings.Contains(string(got), "p.start((") || res.Err() != nil {
		t.Errorf("NoSyntaxCheck: %v", res.Err())
	}
	if n := SyntaxErrors([]byte("x = (\n")); n == 0 {
		t.Error("SyntaxErrors found nothing in broken source")
	}
	if n := SyntaxErrors([]byte("x = 1\n")); n != 0 {
		t.Errorf("SyntaxErrors = %d on valid source", n)
	}
}

// TestConcurrentWritesLoseNothing: two writers each add their own line to
// the same files at once, re-reading and retrying when WriteIfUnchanged
// says the file changed (as the CLI re-checks); every file ends with both
// lines, so neither writer's edit was lost.
func TestConcurrentWritesLoseNothing(t *testing.T) {
	dir := t.TempDir()
	const n = 100
	var paths []string
	for i := 0; i < n; i++ {
		paths = append(paths, write(t, dir, "f"+strconv.Itoa(i)+".py", "x = 1\n"))
	}
	add := func(line string, done chan<- error) {
		for _, p := range paths {
			for attempt := 0; ; attempt++ {
				old, err := os.ReadFile(p)
				if err != nil {
					done <- err
					return
				}
				err = WriteIfUnchanged(p, old, append(append([]byte{}, old...), line...))
				if err == nil {
					break
				}
				if !errors.Is(err, ErrChanged) || attempt > 1000 {
					done <- err
					return
				}
			}
		}
		done <- nil
	}
	done := make(chan error)
	go add("a = 1\n", done)
	go add("b = 2\n", done)
	for i := 0; i < 2; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		if s := string(b); s != "x = 1\na = 1\nb = 2\n" && s != "x = 1\nb = 2\na = 1\n" {
			t.Fatalf("%s lost an edit:\n%s", p, s)
		}
	}
	// A stale old content is refused and leaves the file alone.
	if err := WriteIfUnchanged(paths[0], []byte("x = 1\n"), []byte("lost\n")); !errors.Is(err, ErrChanged) {
		t.Errorf("stale write: %v", err)
	}
	if b, _ := os.ReadFile(paths[0]); strings.Contains(string(b), "lost") {
		t.Error("a stale write replaced the file")
	}
}

// TestCROnlyFileIsNotFixed: a file whose lines end with CR alone is left as
// it is, whichever line ending the edit would keep or remove; CRLF and LF
// files with the same edit are fixed.
func TestCROnlyFileIsNotFixed(t *testing.T) {
	for _, tc := range []struct {
		eol   string
		fixed bool
	}{{"\r", false}, {"\r\n", true}, {"\n", true}} {
		dir := t.TempDir()
		text := "import os  # noqa: CFL001" + tc.eol + "import sys" + tc.eol + "print(os.getpid(), sys.version_info[0])" + tc.eol
		p := write(t, dir, "a.py", text)
		// What CFL100's fix removes: the comment, up to the end of what
		// the parser took for its line.
		start := strings.Index(text, "  # noqa")
		end := start + len("  # noqa: CFL001")
		res := Apply([]finding.Finding{fnd("a.py", finding.Safe, finding.Edit{Location: finding.Location{Path: "a.py",
			Start: finding.Position{Offset: start}, End: finding.Position{Offset: end}}})}, Options{WorkDir: dir})
		got, _ := os.ReadFile(p)
		want := text
		if tc.fixed {
			want = strings.Replace(text, "  # noqa: CFL001", "", 1)
		}
		if string(got) != want || (res.Err() == nil) != tc.fixed {
			t.Errorf("eol %q: file %q, err %v; want %q", tc.eol, got, res.Err(), want)
		}
		if !tc.fixed && res.Err() != nil && !strings.Contains(res.Err().Error(), "CR alone") {
			t.Errorf("eol %q: error %v does not say why", tc.eol, res.Err())
		}
	}
}

// TestWriteRefusesReadOnlyAndHardLinked: a read-only file and a file with
// other hard links are not replaced (a rename would do it regardless of
// the permission, and detach the other names); the content stays, and the
// other link still shares it.
func TestWriteRefusesReadOnlyAndHardLinked(t *testing.T) {
	dir := t.TempDir()
	ro := write(t, dir, "ro.py", "old\n")
	if err := os.Chmod(ro, 0o444); err != nil {
		t.Fatal(err)
	}
	linked := write(t, dir, "linked.py", "old\n")
	other := filepath.Join(dir, "other.py")
	if err := os.Link(linked, other); err != nil {
		t.Skip("no hard links here:", err)
	}
	for _, tc := range []struct {
		path string
		want error
	}{{ro, ErrReadOnly}, {linked, ErrHardLinked}, {other, ErrHardLinked}} {
		err := WriteIfUnchanged(tc.path, []byte("old\n"), []byte("new\n"))
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", filepath.Base(tc.path), err, tc.want)
		}
		if got, _ := os.ReadFile(tc.path); string(got) != "old\n" {
			t.Errorf("%s: content %q", filepath.Base(tc.path), got)
		}
	}
	a, _ := os.Stat(linked)
	b, _ := os.Stat(other)
	if !os.SameFile(a, b) {
		t.Error("the hard link was split")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("files left: %v", entries)
	}
}
