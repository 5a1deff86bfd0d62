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
