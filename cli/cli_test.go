package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/cudaforklint/cudaforklint/ruledoc"
)

// run calls Main in dir and returns the exit code, stdout and stderr.
func run(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	return runStdin(t, dir, "", args...)
}

// runStdin is run with src as standard input.
func runStdin(t *testing.T, dir, src string, args ...string) (int, string, string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(src), &out, &errb)
	return code, out.String(), errb.String()
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const hazard = `import multiprocessing as mp
import torch


def child():
    torch.ones(1, device="cuda")


if __name__ == "__main__":
    torch.cuda.init()
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()
`

const safe = `import multiprocessing as mp
import torch


def child():
    torch.ones(1, device="cuda")


if __name__ == "__main__":
    torch.cuda.init()
    p = mp.get_context("spawn").Process(target=child)
    p.start()
    p.join()
`

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hazard.py", hazard)
	write(t, dir, "safe.py", safe)
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"clean file", []string{"check", "safe.py"}, ExitClean},
		{"finding", []string{"check", "hazard.py"}, ExitFindings},
		{"exit-zero keeps findings quiet for the exit code", []string{"check", "--exit-zero", "hazard.py"}, ExitClean},
		{"missing path is a tool error", []string{"check", "safe.py", "nope.py"}, ExitError},
		{"exit-zero does not hide tool errors", []string{"check", "--exit-zero", "nope.py"}, ExitError},
		{"bad flag", []string{"check", "--frobnicate"}, ExitError},
		{"bad format", []string{"check", "--format", "xml", "safe.py"}, ExitError},
		{"bad target version", []string{"check", "--target-version", "py39", "safe.py"}, ExitError},
		{"ignored rule", []string{"check", "--ignore", "CFL001", "hazard.py"}, ExitClean},
		{"target 3.14 only, fork is explicit", []string{"check", "--target-version", "py314", "hazard.py"}, ExitFindings},
		{"unknown command", []string{"lint"}, ExitError},
		{"rule", []string{"rule", "CFL001"}, ExitClean},
		{"unknown rule", []string{"rule", "CFL999"}, ExitError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, dir, tt.args...)
			if code != tt.want {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.want, out, errs)
			}
		})
	}
}

func TestConciseIsExact(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hazard.py", hazard)
	code, out, _ := run(t, dir, "check", "--format", "concise", ".")
	if code != ExitFindings {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1 || !regexp.MustCompile(`^hazard\.py:10:5: CFL001 .+$`).MatchString(lines[0]) {
		t.Errorf("concise output:\n%s", out)
	}
}

// TestBadInput: every kind of bad input gets one clear line on stderr, the
// other files are still checked, nothing panics, and the run exits 2.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hazard.py", hazard)
	write(t, dir, "latin1.py", "x = '\xe9t\xe9'\n")
	write(t, dir, "nul.py", "x = 1\x00\n")
	write(t, dir, "huge.py", "# padding\n"+strings.Repeat("x = 1  # filler line for size\n", 400_000))
	write(t, dir, "deep.py", "x = "+strings.Repeat("(", 10000)+"1"+strings.Repeat(")", 10000)+"\n")
	if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".", filepath.Join(dir, "self")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "broken.py", "def f(:\n    pass\n\nimport torch\ntorch.cuda.init()\n")
	code, out, errs := run(t, dir, "check", "--format", "concise", ".", "missing.py")
	if code != ExitError {
		t.Errorf("exit %d, want %d", code, ExitError)
	}
	if !strings.Contains(out, "hazard.py:10:5: CFL001") {
		t.Errorf("the good file was not checked:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^broken\.py:1:\d+: SyntaxError: cannot parse this code`).MatchString(out) {
		t.Errorf("the syntax error is not among the findings:\n%s", out)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^error: latin1\.py:1: .*not valid UTF-8`),
		regexp.MustCompile(`(?m)^error: nul\.py:1: .*NUL byte`),
		regexp.MustCompile(`(?m)^error: huge\.py: file is \d+\.\d MB, larger than the 10\.5 MB limit`),
		regexp.MustCompile(`(?m)^error: self: symbolic link loop`),
		regexp.MustCompile(`(?m)^error: fifo\.py: not a regular file`),
		regexp.MustCompile(`(?m)^error: missing\.py: no such file or directory`),
	} {
		if !want.MatchString(errs) {
			t.Errorf("stderr lacks %v:\n%s", want, errs)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(errs), "\n") {
		if !strings.HasPrefix(line, "error: ") && !strings.HasPrefix(line, "warning: ") {
			t.Errorf("stderr line is not one clear line: %q", line)
		}
	}
	if strings.Contains(errs, "deep.py") {
		t.Errorf("10,000 nested parentheses should just parse:\n%s", errs)
	}
}

// TestUnreadableFile: a file the user cannot read is a tool error (root
// reads everything, so there the file is simply checked).
func TestUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "secret.py", safe)
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, dir, "check", "secret.py")
	if os.Geteuid() == 0 {
		if code != ExitClean {
			t.Errorf("root: exit %d, stderr %s", code, errs)
		}
		return
	}
	if code != ExitError || !strings.Contains(errs, "secret.py: permission denied") {
		t.Errorf("exit %d, stderr %s", code, errs)
	}
}

func TestConfigErrorNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "pyproject.toml", "[project]\nname = \"x\"\n\n[tool.cudaforklint]\nselct = [\"CFL001\"]\n")
	write(t, dir, "safe.py", safe)
	code, _, errs := run(t, dir, "check", "safe.py")
	if code != ExitError || !regexp.MustCompile(`pyproject\.toml:5: unknown key "selct"`).MatchString(errs) {
		t.Errorf("exit %d, stderr %s", code, errs)
	}
}

func TestRequiresPythonNarrowsVersions(t *testing.T) {
	dir := t.TempDir()
	// Default start method: only 3.11–3.13 fork; requiring 3.14 leaves nothing.
	write(t, dir, "pyproject.toml", "[project]\nname = \"x\"\nrequires-python = \">=3.14\"\n")
	write(t, dir, "default.py", strings.Replace(hazard, `mp.get_context("fork").Process`, "mp.Process", 1))
	if code, out, errs := run(t, dir, "check", "default.py"); code != ExitClean {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	write(t, dir, "pyproject.toml", "[project]\nname = \"x\"\nrequires-python = \">=3.12\"\n")
	code, out, _ := run(t, dir, "check", "--format", "concise", "default.py")
	if code != ExitFindings || !strings.Contains(out, "Python 3.12–3.13 on Linux") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// TestSrcResolvesProjectImports: a test suite run with PYTHONPATH=tests
// imports its helpers by their bare name; src = ["tests"] lets the model
// find them, as it does ruff's first-party modules.
func TestSrcResolvesProjectImports(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "tests/gpu_setup.py", "import torch\n\n\ndef warm_up():\n    torch.cuda.init()\n")
	write(t, dir, "tests/unit/test_pool.py", `import multiprocessing as mp

import gpu_setup


def square(x):
    return x * x


def test_pool():
    gpu_setup.warm_up()
    with mp.get_context("fork").Pool(2) as pool:
        assert pool.map(square, [1, 2]) == [1, 4]
`)
	if code, out, errs := run(t, dir, "check", "--no-cache", "--select", "ALL", "--format", "concise", "."); code != ExitClean {
		t.Errorf("without src: exit %d, want %d (gpu_setup is not importable)\n%s\n%s", code, ExitClean, out, errs)
	}
	write(t, dir, "pyproject.toml", "[tool.cudaforklint]\nsrc = [\"tests\"]\n")
	code, out, errs := run(t, dir, "check", "--no-cache", "--select", "ALL", "--format", "concise", ".")
	if code != ExitFindings || !strings.Contains(out, "tests/gpu_setup.py:5:5: CFL003") {
		t.Errorf("with src: exit %d, want a CFL003 at the helper's init\n%s\n%s", code, out, errs)
	}
}

func TestNoqa(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hazard.py", strings.Replace(hazard, "torch.cuda.init()", "torch.cuda.init()  # noqa: CFL001", 1))
	if code, out, _ := run(t, dir, "check", "hazard.py"); code != ExitClean {
		t.Errorf("noqa did not suppress:\n%s", out)
	}
	code, out, _ := run(t, dir, "check", "--show-suppressed", "--format", "json", "hazard.py")
	if code != ExitClean || !strings.Contains(out, `"suppressed": true`) && !strings.Contains(out, `"suppressed":true`) {
		t.Errorf("--show-suppressed: exit %d\n%s", code, out)
	}
	write(t, dir, "file.py", "# cudaforklint: noqa: CFL001\n"+hazard)
	if code, out, _ := run(t, dir, "check", "file.py"); code != ExitClean {
		t.Errorf("file-level noqa did not suppress:\n%s", out)
	}
}

func TestFormatsAndSeveralOutputs(t *testing.T) {
	dir := t.TempDir()
	// A non-ASCII string before the call makes byte and UTF-16 columns differ.
	src := strings.Replace(hazard, "    torch.cuda.init()", "    s = 'é😀'; torch.cuda.init()", 1)
	write(t, dir, "hazard.py", src)
	code, out, errs := run(t, dir, "check", "--format", "json", "--output", "sarif:out/report.sarif", "--output", "github:out/gh.txt", "hazard.py")
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var findings []map[string]any
	if err := json.Unmarshal([]byte(out), &findings); err != nil || len(findings) != 1 || findings[0]["code"] != "CFL001" {
		t.Fatalf("json output (%v):\n%s", err, out)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "out/report.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine, StartColumn int
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(raw, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("sarif (%v):\n%s", err, raw)
	}
	loc := log.Runs[0].Results[0].Locations[0].PhysicalLocation
	// Line 10 is `    s = 'é😀'; torch.cuda.init()`: the call starts at byte
	// column 19 (é is 2 bytes, 😀 4) but UTF-16 column 16 (é 1 unit, 😀 2).
	if loc.ArtifactLocation.URI != "hazard.py" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartLine != 10 || loc.Region.StartColumn != 16 {
		t.Errorf("sarif location %+v", loc)
	}
	gh, err := os.ReadFile(filepath.Join(dir, "out/gh.txt"))
	if err != nil || !strings.HasPrefix(string(gh), "::error title=cudaforklint (CFL001),file=hazard.py,line=10,") {
		t.Errorf("github output (%v):\n%s", err, gh)
	}
}

// TestFixTwiceChangesNothing: --fix --unsafe-fixes rewrites the file so the
// hazard is gone, keeps it parseable, and a second run changes nothing.
func TestFixTwiceChangesNothing(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "hazard.py", hazard)
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, dir, "check", "--fix", "hazard.py")
	if code != ExitFindings {
		t.Fatalf("safe fixes only: exit %d (%s)", code, errs)
	}
	if b, _ := os.ReadFile(p); string(b) != hazard {
		t.Fatalf("--fix applied an unsafe fix:\n%s", b)
	}
	code, out, errs := run(t, dir, "check", "--fix", "--unsafe-fixes", "hazard.py")
	if code != ExitClean {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	first, _ := os.ReadFile(p)
	if !strings.Contains(string(first), `mp.get_context("spawn")`) {
		t.Errorf("fix not applied:\n%s", first)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o755 {
		t.Errorf("mode changed to %v", fi.Mode())
	}
	run(t, dir, "check", "--fix", "--unsafe-fixes", "hazard.py")
	second, _ := os.ReadFile(p)
	if string(first) != string(second) {
		t.Errorf("second --fix changed the file:\n%s\n---\n%s", first, second)
	}
}

func TestDiffDoesNotWrite(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "hazard.py", hazard)
	code, out, _ := run(t, dir, "check", "--diff", "--unsafe-fixes", "hazard.py")
	if code != ExitFindings || !strings.Contains(out, `-    p = mp.get_context("fork").Process(target=child)`) || !strings.Contains(out, `+    p = mp.get_context("spawn").Process(target=child)`) {
		t.Errorf("exit %d, diff:\n%s", code, out)
	}
	if b, _ := os.ReadFile(p); string(b) != hazard {
		t.Error("--diff wrote the file")
	}
}

func TestRuleAllJSON(t *testing.T) {
	code, out, _ := run(t, t.TempDir(), "rule", "--all", "--format", "json")
	var docs []map[string]any
	if code != ExitClean || json.Unmarshal([]byte(out), &docs) != nil || len(docs) != len(ruledoc.All()) {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if docs[0]["code"] != "CFL001" || docs[0]["name"] != "fork-after-cuda-init" {
		t.Errorf("first rule %v", docs[0])
	}
}

// TestGuardFix: the fix for top-level CUDA initialization moves the plain
// statements around it under the existing main guard; the result parses and
// the finding is gone.
func TestGuardFix(t *testing.T) {
	dir := t.TempDir()
	src := `import multiprocessing as mp

import torch

torch.cuda.init()
WEIGHTS = torch.ones(4, device="cuda")


def work(x):
    return x + 1


if __name__ == "__main__":
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(work, range(3)))
`
	p := write(t, dir, "main.py", src)
	if code, out, errs := run(t, dir, "check", "--format", "concise", "main.py"); code != ExitFindings || !strings.Contains(out, "CFL004") {
		t.Fatalf("before: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, dir, "check", "--fix", "--unsafe-fixes", "main.py"); code != ExitClean {
		t.Fatalf("after fix: exit %d\n%s%s", code, out, errs)
	}
	got, _ := os.ReadFile(p)
	want := `import multiprocessing as mp

import torch



def work(x):
    return x + 1


if __name__ == "__main__":
    torch.cuda.init()
    WEIGHTS = torch.ones(4, device="cuda")
    with mp.get_context("spawn").Pool(2) as pool:
        print(pool.map(work, range(3)))
`
	if string(got) != want {
		t.Errorf("fixed file:\n%s\nwant:\n%s", got, want)
	}
}

// TestMain lets a test run the command line in a process of its own: with
// CUDAFORKLINT_TEST_MAIN=1 the test binary is cudaforklint.
func TestMain(m *testing.M) {
	if os.Getenv("CUDAFORKLINT_TEST_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	if shimDir != "" { // built once for the verify tests (verify_test.go)
		os.RemoveAll(shimDir)
	}
	os.Exit(code)
}

// command returns cudaforklint with args, run in dir as its own process.
func command(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CUDAFORKLINT_TEST_MAIN=1")
	return cmd
}

// TestSummaryAndZeroFiles: the full format says how many files it checked
// and counts errors and warnings apart; a run that checks no file says so
// on standard error, as ruff does, and exits 0.
func TestSummaryAndZeroFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hazard.py", hazard)
	write(t, dir, "warn.py", "import multiprocessing as mp\nimport torch\n\ntorch.cuda.init()\n\n\ndef f(x):\n    return x\n\n\nif __name__ == \"__main__\":\n    with mp.get_context(\"spawn\").Pool(2) as p:\n        p.map(f, [1])\n")
	write(t, dir, "safe.py", safe)
	code, out, _ := run(t, dir, "check", ".")
	if code != ExitFindings || !strings.HasSuffix(out, "Checked 3 files. Found 1 error and 1 warning.\nNo fixes available (2 hidden fixes can be enabled with the `--unsafe-fixes` option).\n") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = run(t, dir, "check", "safe.py")
	if code != ExitClean || out != "Checked 1 file. All checks passed!\n" {
		t.Errorf("exit %d:\n%s", code, out)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, dir, "check", "empty")
	if code != ExitClean || out != "Checked 0 files.\n" || errs != "warning: No Python files found under the given path(s)\n" {
		t.Errorf("empty directory: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
}

// TestExplicitDirectoryIsChecked: a directory named on the command line is
// checked even when the default excludes or .gitignore would skip it in a
// walk, and the verdict is the same from every working directory.
func TestExplicitDirectoryIsChecked(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, ".git/HEAD", "")
	write(t, dir, ".gitignore", "generated/\n")
	write(t, dir, "build/hazard.py", hazard)
	write(t, dir, "generated/hazard.py", hazard)
	for _, name := range []string{"build", "generated"} {
		for _, wd := range []string{dir, filepath.Join(dir, name), t.TempDir()} {
			code, out, errs := run(t, wd, "check", "--format", "concise", filepath.Join(dir, name))
			if code != ExitFindings || !strings.Contains(out, "CFL001") {
				t.Errorf("check %s from %s: exit %d\n%s%s", name, wd, code, out, errs)
			}
		}
	}
	// Walked from the top, both stay excluded.
	if code, out, errs := run(t, dir, "check", "."); code != ExitClean || !strings.HasPrefix(out, "Checked 0 files.") {
		t.Errorf("check .: exit %d\n%s%s", code, out, errs)
	}
}

// TestSyntaxErrorFailsTheRun: code that cannot be parsed is reported like
// a finding, counted as an error, and exits 1 (ruff's convention), so
// pre-commit does not pass the file; --exit-zero turns that into 0. Syntax
// newer than the parser is a warning.
func TestSyntaxErrorFailsTheRun(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "broken.py", "def f(:\n    pass\n")
	write(t, dir, "tdefault.py", "def first[T = int](xs: list[T]) -> T:\n    return xs[0]\n")
	write(t, dir, "tstring.py", "name = 'x'\nmsg = t\"hello {name:=^{width}}\"\n")
	code, out, errs := run(t, dir, "check", "broken.py", "tdefault.py", "tstring.py")
	if code != ExitFindings || !strings.Contains(out, "broken.py:1:7: SyntaxError: cannot parse this code") || !strings.Contains(out, "Checked 3 files. Found 1 error.") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(errs, "warning: tdefault.py:1: could not parse the code at line 1, column ") || !strings.Contains(errs, "a type parameter default (Python 3.13)") {
		t.Errorf("stderr:\n%s", errs)
	}
	// Template strings parse (the syntax package reads them as f-strings).
	if strings.Contains(out+errs, "tstring.py") {
		t.Errorf("a template string is reported:\n%s%s", out, errs)
	}
	if code, _, _ := run(t, dir, "check", "--exit-zero", "broken.py"); code != ExitClean {
		t.Errorf("--exit-zero: exit %d", code)
	}
	code, out, errs = run(t, dir, "check", "--format", "json", "broken.py")
	if code != ExitFindings || out != "[]\n" || !strings.Contains(errs, "error: broken.py:1:7: SyntaxError:") {
		t.Errorf("json: exit %d\n%s%s", code, out, errs)
	}
}

// TestBrokenConfigCountsSkippedFiles: files under a pyproject.toml that
// cannot be loaded are counted and reported, and the run exits 2.
func TestBrokenConfigCountsSkippedFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "proj/pyproject.toml", "[tool.cudaforklint]\nselct = []\n")
	write(t, dir, "proj/a.py", safe)
	write(t, dir, "proj/sub/b.py", safe)
	write(t, dir, "ok.py", safe)
	code, out, errs := run(t, dir, "check", ".")
	if code != ExitError || !strings.Contains(errs, "error: 2 files were not checked: the configuration that applies to them could not be loaded") ||
		!strings.Contains(errs, `proj/pyproject.toml:2: unknown key "selct"`) || !strings.HasPrefix(out, "Checked 1 file. No findings. 2 problems are listed on standard error.") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// twoRounds needs two fix rounds: the "spawn" fix makes the children
// re-import the module, which makes the top-level initialization a CFL004
// finding whose fix moves it under the guard.
const twoRounds = `import multiprocessing as mp

import torch

torch.cuda.init()


def work(x):
    return torch.ones(1, device="cuda").item() + x


if __name__ == "__main__":
    with mp.get_context("fork").Pool(2) as pool:
        print(pool.map(work, range(3)))
`

// TestFixConverges: --fix repeats analyze-and-apply until nothing more is
// applicable, so one run leaves nothing fixable and a second changes
// nothing; --diff shows exactly what --fix writes.
func TestFixConverges(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "train.py", twoRounds)
	code, diff, errs := run(t, dir, "check", "--diff", "--unsafe-fixes", "train.py")
	if code != ExitFindings || errs != "Would fix 2 findings.\n" {
		t.Fatalf("--diff: exit %d\n%s", code, errs)
	}
	if b, _ := os.ReadFile(p); string(b) != twoRounds {
		t.Fatal("--diff wrote the file")
	}
	code, out, errs := run(t, dir, "check", "--fix", "--unsafe-fixes", "train.py")
	if code != ExitClean || !strings.Contains(out, "Checked 1 file. Fixed 2 findings. All checks passed!") {
		t.Fatalf("--fix: exit %d\n%s%s", code, out, errs)
	}
	fixed, _ := os.ReadFile(p)
	want := strings.Replace(strings.Replace(twoRounds, "torch.cuda.init()\n", "", 1), `if __name__ == "__main__":
    with mp.get_context("fork")`, `if __name__ == "__main__":
    torch.cuda.init()
    with mp.get_context("spawn")`, 1)
	if string(fixed) != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", fixed, want)
	}
	if applied, err := applyDiff(twoRounds, diff); err != nil || applied != string(fixed) {
		t.Errorf("--diff does not describe what --fix wrote (%v):\n%s", err, diff)
	}
	code, out, _ = run(t, dir, "check", "--fix", "--unsafe-fixes", "train.py")
	if again, _ := os.ReadFile(p); code != ExitClean || string(again) != string(fixed) || strings.Contains(out, "Fixed") {
		t.Errorf("a second --fix changed something: exit %d\n%s", code, out)
	}
}

// applyDiff applies a one-file unified diff (as --diff prints it) to src,
// "\ No newline at end of file" markers included.
func applyDiff(src, diff string) (string, error) {
	type op struct {
		kind byte // ' ', '-', '+', or '@' for a hunk starting at line
		text string
		line int
	}
	var ops []op
	for _, l := range strings.SplitAfter(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"), l == "":
		case strings.HasPrefix(l, "@@"):
			// "-l,n": n old lines from line l; with n 0, after line l.
			var a, n int
			old := strings.Fields(l)[1]
			if _, err := fmt.Sscanf(old, "-%d,%d", &a, &n); err != nil {
				if _, err := fmt.Sscanf(old, "-%d", &a); err != nil {
					return "", fmt.Errorf("hunk header %q: %v", l, err)
				}
				n = 1
			}
			start := a - 1
			if n == 0 {
				start = a
			}
			ops = append(ops, op{kind: '@', line: start})
		case strings.HasPrefix(l, "\\"):
			if len(ops) == 0 {
				return "", fmt.Errorf("marker %q first", l)
			}
			ops[len(ops)-1].text = strings.TrimSuffix(ops[len(ops)-1].text, "\n")
		case l[0] == ' ' || l[0] == '-' || l[0] == '+':
			ops = append(ops, op{kind: l[0], text: l[1:]})
		default:
			return "", fmt.Errorf("unexpected diff line %q", l)
		}
	}
	lines := strings.SplitAfter(src, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	at := 0 // next line of src to copy
	for _, o := range ops {
		switch o.kind {
		case '@':
			for at < o.line && at < len(lines) {
				out = append(out, lines[at])
				at++
			}
		case ' ', '-':
			if at >= len(lines) || lines[at] != o.text {
				return "", fmt.Errorf("line %q does not match %q", o.text, lines[min(at, len(lines)-1)])
			}
			if o.kind == ' ' {
				out = append(out, lines[at])
			}
			at++
		case '+':
			out = append(out, o.text)
		}
	}
	out = append(out, lines[at:]...)
	return strings.Join(out, ""), nil
}

// TestConcurrentFixRunsLoseNothing: two --fix runs at once, each applying
// a different rule's fix to the same files, both land in every file (the
// issue saw one run's fixes lost in all 1,500 files).
func TestConcurrentFixRunsLoseNothing(t *testing.T) {
	dir := t.TempDir()
	src := `import multiprocessing as mp

import torch


def child():
    torch.ones(1, device="cuda")


def main():
    torch.cuda.init()
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()


def cpu(x):
    return x + 1


pool = mp.get_context("spawn").Pool(2)
print(pool.map(cpu, range(3)))
`
	const n = 60
	for i := 0; i < n; i++ {
		write(t, dir, fmt.Sprintf("job%02d.py", i), src)
	}
	a := command(t, dir, "check", "--fix", "--unsafe-fixes", "--select", "CFL001", "--format", "concise", ".")
	b := command(t, dir, "check", "--fix", "--unsafe-fixes", "--select", "CFL005", "--format", "concise", ".")
	var aOut, bOut bytes.Buffer
	a.Stdout, a.Stderr = &aOut, &aOut
	b.Stdout, b.Stderr = &bOut, &bOut
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	errA, errB := a.Wait(), b.Wait()
	if errA != nil || errB != nil {
		t.Fatalf("runs failed: %v %v\n%s\n%s", errA, errB, aOut.String(), bOut.String())
	}
	for i := 0; i < n; i++ {
		got, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("job%02d.py", i)))
		if !strings.Contains(string(got), `mp.get_context("spawn").Process`) || !strings.Contains(string(got), "if __name__ == \"__main__\":\n    pool = ") {
			t.Fatalf("job%02d.py lost a run's fix:\n%s\nrun A:\n%s\nrun B:\n%s", i, got, aOut.String(), bOut.String())
		}
	}
}

// TestOtherToolsNoqaIsQuiet: other linters' `# noqa` comments draw no
// warning and no CFL100, even with every rule selected.
func TestOtherToolsNoqaIsQuiet(t *testing.T) {
	dir, err := filepath.Abs("../testdata/py/noqa_other_tools")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, dir, "check", "--select", "ALL", "--format", "concise", "other_tools.py")
	if code != ExitFindings || !strings.Contains(out, "CFL001") {
		t.Errorf("exit %d, want the CFL001 finding:\n%s", code, out)
	}
	if strings.Contains(out, "CFL100") || strings.Contains(errs, "noqa") {
		t.Errorf("other tools' noqa reported:\n%s\n%s", out, errs)
	}
}

// TestBudgetCutIsANotice: a module whose simulation runs out of its event
// budget (nineteen nested loops over a call that initializes CUDA eight
// times, before a fork the simulation never reaches) is checked without a
// finding, and the run says on stderr that it stopped there, from the
// results cache too. The same sweep over twelve switches fits the budget:
// the fork, whose child synchronizes the GPU, is reached and reported,
// with no notice.
func TestBudgetCutIsANotice(t *testing.T) {
	sweep := func(switches int) string {
		var b strings.Builder
		b.WriteString("\"\"\"Sweep the augmentation switches, then fork a writer.\"\"\"\nimport os\n\nimport torch\n\n\ndef setup():\n    torch.cuda.init()\n\n\ndef step():\n")
		b.WriteString(strings.Repeat("    setup()\n", 8))
		b.WriteString("\n\nsetup()\n")
		for i := range switches {
			fmt.Fprintf(&b, "%sfor flag%d in (False, True):\n", strings.Repeat("    ", i), i)
		}
		fmt.Fprintf(&b, "%sstep()\nif os.fork() == 0:\n    torch.cuda.synchronize()\n", strings.Repeat("    ", switches))
		return b.String()
	}
	dir := t.TempDir()
	write(t, dir, "sweep.py", sweep(19))
	write(t, dir, "small_sweep.py", sweep(12))
	const notice = "warning: sweep.py: the simulation of running this module as __main__ stopped after its budget of 1,000,000 events: a hazard past that point is not reported\n"
	for _, pass := range []string{"first run", "from the cache"} {
		code, out, errs := run(t, dir, "check", "sweep.py")
		if code != ExitClean || out != "Checked 1 file. All checks passed!\n" || errs != notice {
			t.Errorf("%s: exit %d\nstdout %q\nstderr %q", pass, code, out, errs)
		}
	}
	code, out, errs := run(t, dir, "check", "--output-format", "concise", "small_sweep.py")
	if code != ExitFindings || !strings.Contains(out, "CFL001") || errs != "" {
		t.Errorf("small_sweep.py: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
}
