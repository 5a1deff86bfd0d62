package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCROnlyFileIsNotChecked: a file whose lines end with CR alone is not
// analyzed (the parser reads it as one line), so --fix leaves it as it is,
// the run says which file was not checked and exits 2, and no summary
// calls it clean. Before, CFL100's fix deleted the CR ending the `# noqa`
// line and the next line became part of the comment.
func TestCROnlyFileIsNotChecked(t *testing.T) {
	text := "import os  # noqa: CFL001\rimport sys\rprint(os.getpid() > 0, sys.version_info[0])\r"
	for _, args := range [][]string{
		{"check", "--no-cache", "--extend-select", "CFL100", "--fix", "cr.py"},
		{"check", "--no-cache", "--extend-select", "CFL100", "--diff", "cr.py"},
		{"check", "--no-cache", "--extend-select", "CFL100", "cr.py"},
	} {
		dir := t.TempDir()
		p := write(t, dir, "cr.py", text)
		code, out, errs := run(t, dir, args...)
		if got, _ := os.ReadFile(p); string(got) != text {
			t.Errorf("%v changed the file to %q", args, got)
		}
		if code != ExitError {
			t.Errorf("%v: exit %d, want %d", args, code, ExitError)
		}
		if strings.Contains(out, "All checks passed") || strings.Contains(out, "CFL100") || strings.Contains(out, "Fixed") {
			t.Errorf("%v: stdout speaks of a file it did not analyze:\n%s", args, out)
		}
		if !strings.Contains(errs, "error: cr.py:1: the lines end with CR alone") || !strings.Contains(errs, "not checked") {
			t.Errorf("%v: stderr does not say the file was not checked:\n%s", args, errs)
		}
	}
	// The same lines with LF or CRLF are checked, and the stale noqa
	// removed.
	for _, eol := range []string{"\n", "\r\n"} {
		dir := t.TempDir()
		p := write(t, dir, "ok.py", strings.ReplaceAll(text, "\r", eol))
		code, _, errs := run(t, dir, "check", "--no-cache", "--extend-select", "CFL100", "--fix", "ok.py")
		got, _ := os.ReadFile(filepath.Clean(p))
		if want := strings.ReplaceAll(strings.Replace(text, "  # noqa: CFL001", "", 1), "\r", eol); code != ExitClean || string(got) != want {
			t.Errorf("eol %q: exit %d, file %q, want %q; stderr %s", eol, code, got, want, errs)
		}
	}
}

// TestFixRefusesReadOnlyAndHardLinkedFiles: --fix does not replace a
// read-only file or split a hard link; it names the file, says why, leaves
// it as it was and exits 2, while the other files are fixed.
func TestFixRefusesReadOnlyAndHardLinkedFiles(t *testing.T) {
	stale := "import os  # noqa: CFL001\nprint(os.getpid())\n"
	fixed := "import os\nprint(os.getpid())\n"
	dir := t.TempDir()
	ro := write(t, dir, "ro.py", stale)
	if err := os.Chmod(ro, 0o444); err != nil {
		t.Fatal(err)
	}
	linked := write(t, dir, "linked.py", stale)
	if err := os.Link(linked, filepath.Join(dir, "elsewhere.py.bak")); err != nil {
		t.Skip("no hard links here:", err)
	}
	plain := write(t, dir, "plain.py", stale)
	code, _, errs := run(t, dir, "check", "--no-cache", "--extend-select", "CFL100", "--fix", "ro.py", "linked.py", "plain.py")
	if code != ExitError {
		t.Errorf("exit %d, want %d", code, ExitError)
	}
	for _, want := range []string{"error: ro.py: not fixed: the file is read-only", "error: linked.py: not fixed: the file has other hard links"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	for p, want := range map[string]string{ro: stale, linked: stale, filepath.Join(dir, "elsewhere.py.bak"): stale, plain: fixed} {
		if got, _ := os.ReadFile(p); string(got) != want {
			t.Errorf("%s: %q, want %q", filepath.Base(p), got, want)
		}
	}
	a, _ := os.Stat(linked)
	b, _ := os.Stat(filepath.Join(dir, "elsewhere.py.bak"))
	if !os.SameFile(a, b) {
		t.Error("the hard link was split")
	}
}

// TestCheckRefusesBadInputs: an output file that is one of the checked
// files (by its name, or through a link), and a negative
// --max-file-size, are refused before anything runs (exit 2, the file
// untouched).
func TestCheckRefusesBadInputs(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "train.py", hazard)
	if err := os.Symlink("train.py", filepath.Join(dir, "report.txt")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "-o", "train.py", "."}, "the output file train.py is one of the files being checked"},
		{[]string{"check", "--output-file", "./train.py", "train.py"}, "the output file ./train.py is one of the files being checked"},
		{[]string{"check", "--output", "json:train.py", "."}, "the output file train.py is one of the files being checked"},
		{[]string{"check", "-o", "report.txt", "."}, "the output file report.txt is one of the files being checked"},
		{[]string{"check", "--max-file-size", "-1", "."}, "--max-file-size must not be negative"},
	} {
		code, _, errs := run(t, dir, tc.args...)
		if code != ExitError || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errs, ExitError, tc.want)
		}
		if got, _ := os.ReadFile(p); string(got) != hazard {
			t.Fatalf("%v overwrote train.py with %q", tc.args, got)
		}
	}
	// An output file beside the checked ones is written.
	if code, _, errs := run(t, dir, "check", "--no-cache", "-o", "report.json", "--format", "json", "train.py"); code != ExitFindings {
		t.Errorf("-o report.json: exit %d, stderr %s", code, errs)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "report.json")); err != nil || !strings.Contains(string(b), "CFL001") {
		t.Errorf("report.json: %q %v", b, err)
	}
}

// TestHiddenFixesHint: --fix and --diff say how many fixes they left out
// for want of --unsafe-fixes, and how to enable them, as ruff does; not
// with --unsafe-fixes (which applies them) or --no-unsafe-fixes. A --diff
// with only unsafe fixes prints no diff, exits 0, and says why.
func TestHiddenFixesHint(t *testing.T) {
	// CFL005 at line 5 has an unsafe fix (the move under a new guard);
	// the stale noqa at line 3 has a safe one.
	script := "import multiprocessing as mp\n\nimport os  # noqa: CFL001\n\npool = mp.Pool(2)\nprint(pool.map(abs, [-1, os.getpid()]))\npool.close()\n"
	onlyUnsafe := strings.Replace(script, "  # noqa: CFL001", "", 1)
	hint := "1 hidden fix can be enabled with the `--unsafe-fixes` option"
	for _, tc := range []struct {
		name, text string
		args       []string
		code       int
		stdout     string // a substring; "" wants none
		stderr     string // a substring; "" wants no hint
	}{
		{"diff, only unsafe", onlyUnsafe, []string{"--diff"}, ExitClean, "", "No fixes would be applied (" + hint + ")."},
		{"diff, safe and unsafe", script, []string{"--extend-select", "CFL100", "--diff"}, ExitFindings, "-import os  # noqa: CFL001", "Would fix 1 finding (" + hint + ")."},
		{"diff, unsafe enabled", onlyUnsafe, []string{"--diff", "--unsafe-fixes"}, ExitFindings, "+if __name__ == \"__main__\":", ""},
		{"diff, hint off", onlyUnsafe, []string{"--diff", "--no-unsafe-fixes"}, ExitClean, "", ""},
		{"fix, full", onlyUnsafe, []string{"--fix"}, ExitFindings, "No fixes available (" + hint + ").", ""},
		{"fix, concise", script, []string{"--extend-select", "CFL100", "--fix", "--format", "concise"}, ExitFindings, "CFL005", hint + "."},
		{"fix, json", onlyUnsafe, []string{"--fix", "--format", "json"}, ExitFindings, `"CFL005"`, hint + "."},
		{"fix, unsafe enabled", onlyUnsafe, []string{"--fix", "--unsafe-fixes", "--format", "concise"}, ExitClean, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "pool.py", tc.text)
			code, out, errs := run(t, dir, append(append([]string{"check", "--no-cache"}, tc.args...), "pool.py")...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tc.code, errs)
			}
			if tc.stdout == "" && strings.Contains(out, "---") || tc.stdout != "" && !strings.Contains(out, tc.stdout) {
				t.Errorf("stdout %q, want %q", out, tc.stdout)
			}
			if tc.stderr == "" && strings.Contains(errs, "hidden") || tc.stderr != "" && !strings.Contains(errs, tc.stderr) {
				t.Errorf("stderr %q, want %q", errs, tc.stderr)
			}
		})
	}
}
