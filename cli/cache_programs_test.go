package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheReusesUnchangedPrograms: after an edit, a cached run analyzes
// the programs that hold a changed file and reuses the stored findings of
// the others, and prints exactly what a run with --no-cache prints.
func TestCacheReusesUnchangedPrograms(t *testing.T) {
	const harmless = "def init_gpu(rank=0):\n    return rank\n"
	for _, tc := range []struct {
		name   string
		args   []string
		change func(t *testing.T, dir string)
		// replaced is how many of the first run's programs the run after
		// the change does not reuse, analyzed how many it analyzes.
		replaced, analyzed int
	}{
		{"an imported module", []string{"."}, func(t *testing.T, dir string) {
			write(t, dir, "app/gpu_setup.py", harmless)
		}, 1, 1},
		{"an imported module not named on the command line", []string{"app/train.py", "hazard.py", "nb"}, func(t *testing.T, dir string) {
			write(t, dir, "app/gpu_setup.py", harmless)
		}, 1, 1},
		{"a script's lines moved", []string{"."}, func(t *testing.T, dir string) {
			write(t, dir, "hazard.py", "# a comment that moves every finding\n"+hazard)
		}, 1, 1},
		{"a notebook's cell", []string{"."}, func(t *testing.T, dir string) {
			write(t, dir, "nb/hazard.ipynb", strings.Replace(readFile(t, dir, "nb/hazard.ipynb"), "fork", "spawn", -1))
		}, 1, 1},
		{"a script that now imports another program's module", []string{"."}, func(t *testing.T, dir string) {
			// hazard.py's program and app/'s become one, a new one.
			write(t, dir, "hazard.py", strings.Replace(hazard, "import torch\n", "import torch\nfrom app import gpu_setup\n", 1))
		}, 2, 1},
		{"two programs", []string{"."}, func(t *testing.T, dir string) {
			write(t, dir, "app/gpu_setup.py", harmless)
			write(t, dir, "quiet.py", hazard)
		}, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := cacheProject(t)
			// A notebook whose notice (not Python) a reused program
			// must print again.
			write(t, dir, "nb/r_kernel.ipynb", readFile(t, filepath.Join("..", "testdata", "py", "notebooks"), "r_kernel.ipynb"))
			settle()
			args := append([]string{"check", "--cache-dir", filepath.Join(t.TempDir(), "cache")}, tc.args...)
			first := runCached(t, dir, args...)
			if first.outcome() != "stored" {
				t.Fatalf("first run: cache %q\n%s%s", first.cache, first.out, first.errs)
			}
			programs := countPrograms(t, first.cache)
			tc.change(t, dir)
			settle()
			got, want := cachedAndUncached(t, dir, args...)
			if want.same(first) {
				t.Errorf("the change does not change the output; the test proves nothing:\n%s", want.out)
			}
			if !strings.Contains(got.out+got.errs, "r_kernel.ipynb") {
				t.Errorf("the notice of the reused notebook is missing:\n%s%s", got.out, got.errs)
			}
			if got.outcome() != "stored" {
				t.Errorf("run after the change: cache %q", got.cache)
			}
			wantLine := fmt.Sprintf("programs: %d reused, %d analyzed", programs-tc.replaced, tc.analyzed)
			if !contains(got.cache, wantLine) {
				t.Errorf("cache %q, want %q", got.cache, wantLine)
			}
			// And the entry stored after the edit replays.
			if again := runCached(t, dir, args...); again.outcome() != "hit" || !again.same(want) {
				t.Errorf("third run: cache %q", again.cache)
			}
		})
	}
}

// countPrograms returns how many programs a run that analyzed them all
// reported.
func countPrograms(t *testing.T, cache []string) int {
	t.Helper()
	for _, l := range cache {
		var reused, analyzed int
		if _, err := fmt.Sscanf(l, "programs: %d reused, %d analyzed", &reused, &analyzed); err == nil {
			if reused != 0 || analyzed < 2 {
				t.Fatalf("first run: %q", l)
			}
			return analyzed
		}
	}
	t.Fatalf("no programs line in %q", cache)
	return 0
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// TestCacheReuseNeedsEveryFileRead: a program is analyzed again when any
// file it read changed, not only its checked files: here a module that
// the prefilter read to decide that a script can be skipped.
func TestCacheReuseNeedsEveryFileRead(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "tool/run.py", "import helper\n\nif __name__ == \"__main__\":\n    helper.go()\n")
	write(t, dir, "tool/helper.py", "def go():\n    return 1\n")
	write(t, dir, "other.py", hazard)
	settle()
	args := []string{"check", "--cache-dir", filepath.Join(t.TempDir(), "cache"), "tool/run.py", "other.py"}
	if r := runCached(t, dir, args...); r.outcome() != "stored" {
		t.Fatalf("first run: cache %q", r.cache)
	}
	// helper.py now starts a pool at import time: run.py, unchanged, gets a
	// finding.
	write(t, dir, "tool/helper.py", "import multiprocessing as mp\n\nmp.set_start_method(\"spawn\")\npool = mp.Pool(2)\n\n\ndef go():\n    return 1\n")
	settle()
	got, want := cachedAndUncached(t, dir, args...)
	if !strings.Contains(want.out, "tool/helper.py") {
		t.Errorf("the change does not add a finding; the test proves nothing:\n%s", want.out)
	}
	if !contains(got.cache, "programs: 1 reused, 1 analyzed") {
		t.Errorf("cache %q", got.cache)
	}
}
