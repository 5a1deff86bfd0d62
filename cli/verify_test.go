package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/cudaforklint/cudaforklint/verify"
)

var (
	shimOnce sync.Once
	shimPath string
	shimErr  error
	shimDir  string
)

// testShim builds the wrapper once for the verify tests (they need a C compiler, as CI has).
func testShim(t *testing.T) string {
	t.Helper()
	shimOnce.Do(func() {
		cc, err := verify.FindCompiler(context.Background())
		if err != nil {
			shimErr = err
			return
		}
		if shimDir, shimErr = os.MkdirTemp("", "cudaforklint-cli-shim-"); shimErr != nil {
			return
		}
		shimPath = filepath.Join(shimDir, "cudaforkshim.so")
		shimErr = verify.BuildShim(context.Background(), cc, shimPath)
	})
	if shimErr != nil {
		t.Fatal(shimErr)
	}
	return shimPath
}

// The program prints to stdout and then fails importing torch (not installed here): the static
// CFL001 of its source is not observed, and the report must not land in the program's output.
const verifyScript = `print("PROGRAM_OUT", flush=True)
import multiprocessing as mp
import torch


def child():
    torch.ones(1, device="cuda")


if __name__ == "__main__":
    torch.cuda.init()
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()
`

func TestVerifyReportNeverInProgramOutput(t *testing.T) {
	shim := testShim(t)
	dir := t.TempDir()
	write(t, dir, "x.py", verifyScript)
	for _, format := range []string{"full", "concise", "json", "json-lines", "github", "sarif"} {
		code, stdout, stderr := run(t, dir, "verify", "--shim", shim, "--format", format, "--", "python3", "x.py")
		if stdout != "PROGRAM_OUT\n" {
			t.Errorf("--format %s: stdout %q, want the program's output alone", format, stdout)
		}
		if code != verify.ExitNoVerdict {
			t.Errorf("--format %s: exit %d, want %d (the program failed)\n%s", format, code, verify.ExitNoVerdict, stderr)
		}
		if !strings.Contains(stderr, "CFL001") || !strings.Contains(stderr, "not observed") {
			t.Errorf("--format %s: the report on stderr lacks the finding and its status:\n%s", format, stderr)
		}
	}
	// Concise: one line per finding, ending in its status.
	_, _, stderr := run(t, dir, "verify", "--shim", shim, "--quiet", "--format", "concise", "--", "python3", "x.py")
	if !regexp.MustCompile(`(?m)^x\.py:\d+:\d+: CFL001 .* \[not observed\]$`).MatchString(stderr) {
		t.Errorf("concise:\n%s", stderr)
	}
	// -o: the file holds the report and nothing else.
	out := filepath.Join(dir, "report.json")
	_, stdout, _ := run(t, dir, "verify", "--shim", shim, "--format", "json", "-o", out, "--", "python3", "x.py")
	var fs []map[string]any
	if b, err := os.ReadFile(out); err != nil || json.Unmarshal(b, &fs) != nil || len(fs) == 0 || fs[0]["status"] != "not observed" {
		t.Errorf("report file: %v %v", err, fs)
	}
	if stdout != "PROGRAM_OUT\n" {
		t.Errorf("with -o: stdout %q", stdout)
	}
	code, stdout, stderr := run(t, dir, "verify", "--shim", shim, "-o", "-", "--", "python3", "x.py")
	if code != ExitError || stdout != "" || !strings.Contains(stderr, "never to standard output") {
		t.Errorf("-o -: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestVerifyNeverSaysPassedWhenItDidNot: a run that failed, or that the wrapper did not see, is
// not closed with "All checks passed!".
func TestVerifyNeverSaysPassedWhenItDidNot(t *testing.T) {
	shim := testShim(t)
	dir := t.TempDir()
	write(t, dir, "fail.py", "import sys\nsys.exit(4)\n")
	write(t, dir, "clear.py", "import os, sys\nif len(sys.argv) < 2:\n    os.environ.pop('LD_PRELOAD')\n    os.execv(sys.executable, [sys.executable, __file__, 'again'])\n")
	write(t, dir, "ok.py", "print('fine')\n")
	cases := []struct {
		script  string
		code    int
		verdict string
	}{
		{"fail.py", verify.ExitNoVerdict, "no hazard proven, but the program failed (exit 3)"},
		{"clear.py", verify.ExitToolError, "not verified: the wrapper did not see 1 part of the run (exit 2)"},
		{"ok.py", verify.ExitClean, "no hazard, and every process of the program succeeded (exit 0)"},
	}
	for _, c := range cases {
		for _, quiet := range []bool{false, true} {
			args := []string{"verify", "--shim", shim, "--no-static"}
			if quiet {
				args = append(args, "--quiet")
			}
			code, _, stderr := run(t, dir, append(args, "--", "python3", c.script)...)
			wantVerdict := !quiet || c.code != verify.ExitClean // quiet and clean: "All checks passed!" says it
			if code != c.code || wantVerdict != strings.Contains(stderr, c.verdict) {
				t.Errorf("%s (quiet %v): exit %d, want %d with %q:\n%s", c.script, quiet, code, c.code, c.verdict, stderr)
			}
			if passed := strings.Contains(stderr, "All checks passed!"); passed != (c.code == verify.ExitClean) {
				t.Errorf("%s (quiet %v): \"All checks passed!\" printed: %v\n%s", c.script, quiet, passed, stderr)
			}
		}
	}
}

// TestVerifyTimeoutMustBePositive: a time limit of zero or less, or one no duration can hold, is
// refused before the program runs (exit 2); a positive one in either spelling is taken.
func TestVerifyTimeoutMustBePositive(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ok.py", "print('RAN')\n")
	for _, tc := range []struct {
		value, err string
	}{
		{"-5", "must be longer than zero, not -5"},
		{"-1s", "must be longer than zero, not -1s"},
		{"0", "must be longer than zero, not 0"},
		{"0s", "must be longer than zero, not 0s"},
		{"NaN", "NaN seconds is not a time limit"},
		{"1e300", "1e300 seconds is not a time limit"},
		{"soon", "want a duration such as 90s or 2m"},
	} {
		code, stdout, stderr := run(t, dir, "verify", "--no-static", "--timeout", tc.value, "--", "python3", "ok.py")
		if code != ExitError || stdout != "" || !strings.Contains(stderr, tc.err) {
			t.Errorf("--timeout %s: exit %d, stdout %q, want exit %d and %q:\n%s", tc.value, code, stdout, ExitError, tc.err, stderr)
		}
	}
	shim := testShim(t)
	for _, value := range []string{"30", "45.5", "30s", "2m"} {
		code, stdout, stderr := run(t, dir, "verify", "--shim", shim, "--no-static", "--timeout", value, "--", "python3", "ok.py")
		if code != verify.ExitClean || stdout != "RAN\n" {
			t.Errorf("--timeout %s: exit %d, stdout %q:\n%s", value, code, stdout, stderr)
		}
	}
}

// TestVerifyWithoutCUDADriver: where the program finds no CUDA driver, verify cannot observe what
// it checks: the verdict says so with the reason, and the exit code is 2, as --help documents.
func TestVerifyWithoutCUDADriver(t *testing.T) {
	shim := testShim(t)
	dir := t.TempDir()
	// The driver's path in a folder that has none stands for a machine without it.
	driver := filepath.Join(dir, "nodriver", "libcuda.so.1")
	write(t, dir, "probe.py", "import ctypes, sys\ntry:\n    ctypes.CDLL(sys.argv[1])\nexcept OSError:\n    print('running on the CPU')\n")
	code, stdout, stderr := run(t, dir, "verify", "--shim", shim, "--no-static", "--", "python3", "probe.py", driver)
	if code != verify.ExitToolError || stdout != "running on the CPU\n" {
		t.Errorf("exit %d, stdout %q, want exit %d:\n%s", code, stdout, verify.ExitToolError, stderr)
	}
	if !regexp.MustCompile(`(?m)^verdict: CUDA could not be observed: process \d+ \(python3 probe.py \S+\) could not load the driver library`).MatchString(stderr) ||
		strings.Contains(stderr, "All checks passed!") {
		t.Errorf("stderr:\n%s", stderr)
	}
	_, _, help := run(t, dir, "verify", "--help")
	if !strings.Contains(help, "2  tool error, or not verified: CUDA could not be observed") {
		t.Errorf("--help does not document the exit code:\n%s", help)
	}
}
