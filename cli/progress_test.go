package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// progressText is what the progress line starts with.
var progressText = regexp.MustCompile(`checking \d+ files: `)

// checkWithStderr runs check over the fixtures (a run of a few seconds)
// in-process with stderr as given, and returns what was written there.
func checkWithStderr(t *testing.T, stderr *os.File, read *os.File, args ...string) string {
	t.Helper()
	var got bytes.Buffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&got, read) // a pty's master reports an error once the terminal closes
		close(copied)
	}()
	dir := filepath.Join("..", "testdata", "py")
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	code := Main(append([]string{"check", "--no-cache"}, args...), strings.NewReader(""), &out, stderr)
	os.Chdir(wd)
	stderr.Close()
	<-copied
	if code != ExitFindings {
		t.Fatalf("exit %d:\n%s", code, got.String())
	}
	return got.String()
}

// erased matches the progress line's last drawing followed by its erasure
// (a carriage return, blanks over it, a carriage return) before anything
// else is written on the line.
var erased = regexp.MustCompile(`^checking \d+ files: [^\r\n]*\r +\r`)

// TestProgressOnTerminal: on a terminal, a run longer than the delay shows
// the progress line and erases it before printing; --quiet shows none.
func TestProgressOnTerminal(t *testing.T) {
	defer func(d time.Duration) { progressDelay = d }(progressDelay)
	progressDelay = 0 // every run counts as a long one
	for _, tc := range []struct {
		name  string
		args  []string
		shown bool
	}{
		{"default", []string{"--format", "full"}, true},
		{"quiet", []string{"--format", "full", "--quiet"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ptmx, tty, err := pty.Open()
			if err != nil {
				t.Skipf("no pseudo-terminal: %v", err)
			}
			defer ptmx.Close()
			got := checkWithStderr(t, tty, ptmx, tc.args...)
			drawn := progressText.FindAllStringIndex(got, -1)
			if (len(drawn) > 0) != tc.shown {
				t.Fatalf("progress line shown = %v, want %v:\n%q", !tc.shown, tc.shown, got)
			}
			if !tc.shown {
				return
			}
			last := drawn[len(drawn)-1][0]
			if !erased.MatchString(got[last:]) {
				t.Errorf("the progress line was not erased:\n%q", got[last:])
			}
			if !strings.Contains(got, "r_kernel.ipynb") {
				t.Errorf("the run's warning is missing:\n%q", got)
			}
		})
	}
}

// TestProgressNotWhenPiped: with standard error a pipe, nothing but the
// run's problems is written there, however long the run.
func TestProgressNotWhenPiped(t *testing.T) {
	defer func(d time.Duration) { progressDelay = d }(progressDelay)
	progressDelay = 0
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got := checkWithStderr(t, w, r)
	if strings.Contains(got, "checking") || strings.Contains(got, "\r") {
		t.Errorf("progress written to a pipe:\n%q", got)
	}
	if !strings.Contains(got, "r_kernel.ipynb") {
		t.Errorf("the run's warning is missing:\n%q", got)
	}
}

// TestQuietSummary: --quiet prints the findings without the summary.
func TestQuietSummary(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "train.py", hazard)
	_, loud, _ := run(t, dir, "check", "--no-cache", "train.py")
	code, quiet, _ := run(t, dir, "check", "--no-cache", "-q", "train.py")
	if code != ExitFindings || !strings.Contains(loud, "Found 1 error") || strings.Contains(quiet, "Found") ||
		!strings.Contains(quiet, "CFL001") {
		t.Errorf("exit %d\nwithout --quiet:\n%s\nwith:\n%s", code, loud, quiet)
	}
}

// TestQuietSharesTheCache: --quiet changes the output, not the analysis,
// so a quiet run replays what a run without it stored.
func TestQuietSharesTheCache(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "train.py", hazard)
	settle() // a file written this instant is not cached (cache_test.go)
	cache := filepath.Join(t.TempDir(), "cache")
	if r := runCached(t, dir, "check", "--cache-dir", cache, "train.py"); r.outcome() != "stored" {
		t.Fatalf("first run: cache %q", r.cache)
	}
	if r := runCached(t, dir, "check", "--cache-dir", cache, "-q", "train.py"); r.outcome() != "hit" || !strings.Contains(r.out, "CFL001") {
		t.Errorf("quiet run: cache %q\n%s", r.cache, r.out)
	}
}
