package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/notebook"
)

// python3 returns the python3 on PATH. Without one the test is skipped,
// except in CI (CI set), where python3 is part of the machine and its
// absence is a failure.
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("python3 is required in CI: %v", err)
		}
		t.Skip("python3 not found")
	}
	return p
}

// TestFixCorpus is the proof that --fix never breaks a program: it copies
// every fixture (testdata/py) and the corpus of realistic scripts
// (testdata/fixcorpus) to a temporary directory and applies every fix, safe
// and unsafe, then checks that
//   - each corpus script's header (`# fixcorpus: CODE applicability`) says
//     how its finding's fix is offered (unsafe: applied; display-only: the
//     def-use analysis refused it);
//   - every file that compiled before compiles after (python3 -m
//     py_compile);
//   - --diff, run before, printed exactly what --fix wrote;
//   - a second --fix changes nothing;
//   - each corpus script, run against the CPU stand-in for torch
//     (testdata/fixcorpus/stubs), exits 0 and prints the same before and
//     after.
func TestFixCorpus(t *testing.T) {
	py := python3(t)
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	stubs := filepath.Join(repo, "testdata", "fixcorpus", "stubs")
	dir := t.TempDir()
	copyTree(t, filepath.Join(repo, "testdata", "py"), filepath.Join(dir, "fixtures"), nil)
	corpus := filepath.Join(dir, "corpus")
	copyTree(t, filepath.Join(repo, "testdata", "fixcorpus"), corpus, func(rel string) bool { return !strings.HasPrefix(rel, "stubs") })
	scripts, _ := filepath.Glob(filepath.Join(corpus, "*.py"))
	if len(scripts) < 10 {
		t.Fatalf("the corpus has %d scripts", len(scripts))
	}
	original := readTree(t, dir)

	// The fixes offered are the ones the scripts' headers expect.
	// (--no-cache: a plain check stores its result under the corpus, which
	// the comparison of the trees below would take for a fix's write.)
	code, out, errs := run(t, corpus, "check", "--no-cache", "--unsafe-fixes", "--format", "json", ".")
	if code == ExitError {
		t.Fatalf("check: %s", errs)
	}
	checkExpectations(t, corpus, out)

	before := runScripts(t, py, stubs, scripts)
	for _, s := range scripts {
		if r := before[s]; r.err != nil {
			t.Fatalf("%s fails before any fix: %v\n%s", filepath.Base(s), r.err, r.stderr)
		}
	}

	code, diff, errs := run(t, dir, "check", "--diff", "--unsafe-fixes", ".")
	if code != ExitFindings {
		t.Fatalf("--diff: exit %d\n%s", code, errs)
	}
	code, out, errs = run(t, dir, "check", "--fix", "--unsafe-fixes", ".")
	if code == ExitError {
		t.Fatalf("--fix: exit 2 (a fix was refused or failed):\n%s\n%s", errs, lastLines(out, 3))
	}
	fixed := readTree(t, dir)

	// --diff described --fix.
	sections := splitDiff(diff)
	var changed []string
	for p, b := range fixed {
		if !bytes.Equal(b, original[p]) {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	if len(changed) < 20 {
		t.Errorf("only %d files changed: %v", len(changed), changed)
	}
	for _, p := range changed {
		if strings.HasSuffix(p, ".ipynb") {
			checkNotebookDiff(t, p, original[p], fixed[p], sections)
			continue
		}
		sec, ok := sections[p]
		if !ok {
			t.Errorf("--fix changed %s, which --diff did not show", p)
			continue
		}
		if got, err := applyDiff(string(original[p]), sec); err != nil || got != string(fixed[p]) {
			t.Errorf("%s: --diff does not apply to what --fix wrote (%v)", p, err)
		}
		delete(sections, p)
	}
	for p := range sections {
		t.Errorf("--diff showed %s, which --fix did not change", p)
	}

	// Everything that compiled still compiles.
	var paths []string
	for p := range original {
		if strings.HasSuffix(p, ".py") {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	was := pyCompile(t, py, dir, paths, original)
	now := pyCompile(t, py, dir, paths, fixed)
	for i, p := range paths {
		if was[i] == "" && now[i] != "" {
			t.Errorf("%s no longer compiles after --fix: %s", p, now[i])
		}
	}

	// A second run changes nothing.
	code, out, errs = run(t, dir, "check", "--fix", "--unsafe-fixes", ".")
	if code == ExitError || strings.Contains(out, "Fixed") {
		t.Errorf("second --fix: exit %d\n%s\n%s", code, lastLines(out, 3), errs)
	}
	again := readTree(t, dir)
	for p, b := range again {
		if !bytes.Equal(b, fixed[p]) {
			t.Errorf("the second --fix changed %s", p)
		}
	}

	// The programs still run, to the same output.
	after := runScripts(t, py, stubs, scripts)
	for _, s := range scripts {
		b, a := before[s], after[s]
		switch {
		case a.err != nil:
			t.Errorf("%s fails after --fix: %v\n%s\nfixed source:\n%s", filepath.Base(s), a.err, a.stderr, fixed["corpus/"+filepath.Base(s)])
		case a.stdout != b.stdout:
			t.Errorf("%s prints something else after --fix:\nbefore:\n%s\nafter:\n%s", filepath.Base(s), b.stdout, a.stdout)
		}
	}
}

// copyTree copies the regular files under src to dst, those keep accepts
// (by slash path relative to src; nil keeps all).
func copyTree(t *testing.T, src, dst string, keep func(rel string) bool) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == "." || d.Name() == "__pycache__" {
			if d.IsDir() && d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return nil
		}
		if keep != nil && !keep(filepath.ToSlash(rel)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readTree returns the files under dir by slash path relative to it.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			if d != nil && d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var expectation = regexp.MustCompile(`(?m)^# fixcorpus: (CFL\d{3}) (unsafe|safe|display-only)\r?$`)

// checkExpectations compares the fixes of the findings in the json output
// with the scripts' `# fixcorpus:` headers.
func checkExpectations(t *testing.T, dir, jsonOut string) {
	t.Helper()
	var findings []struct {
		Code     string `json:"code"`
		Filename string `json:"filename"`
		Fix      *struct {
			Applicability string `json:"applicability"`
			Message       string `json:"message"`
		} `json:"fix"`
	}
	if err := json.Unmarshal([]byte(jsonOut), &findings); err != nil {
		t.Fatalf("json output: %v", err)
	}
	scripts, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	for _, s := range scripts {
		src, _ := os.ReadFile(s)
		want := expectation.FindAllStringSubmatch(string(src), -1)
		if len(want) == 0 {
			t.Errorf("%s has no `# fixcorpus: CODE applicability` header", filepath.Base(s))
		}
		for _, w := range want {
			var got []string
			found := false
			for _, f := range findings {
				if f.Filename != filepath.Base(s) || f.Code != w[1] {
					continue
				}
				if f.Fix == nil {
					got = append(got, "no fix")
					continue
				}
				got = append(got, f.Fix.Applicability+": "+f.Fix.Message)
				found = found || f.Fix.Applicability == w[2]
			}
			if !found {
				t.Errorf("%s: no %s finding with a %s fix; its %s fixes: %q", filepath.Base(s), w[1], w[2], w[1], got)
			}
		}
	}
}

type scriptRun struct {
	stdout, stderr string
	err            error
}

// runScripts runs each script with python3, the stand-in torch on its
// path, a few at a time, each with a time limit.
func runScripts(t *testing.T, py, stubs string, scripts []string) map[string]scriptRun {
	t.Helper()
	out := map[string]scriptRun{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 3)
	for _, s := range scripts {
		wg.Add(1)
		go func(s string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, py, filepath.Base(s))
			cmd.Dir = filepath.Dir(s)
			cmd.Env = append(os.Environ(), "PYTHONPATH="+stubs, "PYTHONDONTWRITEBYTECODE=1")
			var so, se bytes.Buffer
			cmd.Stdout, cmd.Stderr = &so, &se
			err := cmd.Run()
			mu.Lock()
			out[s] = scriptRun{so.String(), se.String(), err}
			mu.Unlock()
		}(s)
	}
	wg.Wait()
	return out
}

// pyCompile compiles each of paths (relative to dir) with the content in
// files, in one python3 process, and returns "" for each that compiles and
// the error otherwise.
func pyCompile(t *testing.T, py, dir string, paths []string, files map[string][]byte) []string {
	t.Helper()
	tmp := t.TempDir()
	var args []string
	for i, p := range paths {
		f := filepath.Join(tmp, fmt.Sprintf("f%d.py", i))
		if err := os.WriteFile(f, files[p], 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, f)
	}
	script := "import py_compile, sys\nfor p in sys.argv[1:]:\n    try:\n        py_compile.compile(p, doraise=True)\n        print('ok')\n    except Exception as e:\n        print(repr(str(e).splitlines()[-1] if str(e) else e))\n"
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONPYCACHEPREFIX="+filepath.Join(tmp, "pycache"))
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("py_compile: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != len(paths) {
		t.Fatalf("py_compile printed %d lines for %d files", len(lines), len(paths))
	}
	for i, l := range lines {
		if l == "ok" {
			lines[i] = ""
		}
	}
	return lines
}

// splitDiff splits --diff output into each file's section, by path.
func splitDiff(diff string) map[string]string {
	out := map[string]string{}
	var cur string
	var b strings.Builder
	flush := func() {
		if cur != "" {
			out[cur] = b.String()
		}
		b.Reset()
	}
	for _, l := range strings.SplitAfter(diff, "\n") {
		if strings.HasPrefix(l, "--- a/") {
			flush()
			cur = strings.TrimSuffix(strings.TrimPrefix(l, "--- a/"), "\n")
		}
		b.WriteString(l)
	}
	flush()
	return out
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// checkNotebookDiff checks that --diff showed, cell by cell ("path:cell
// N"), what --fix wrote into the notebook p, and takes those sections.
func checkNotebookDiff(t *testing.T, p string, before, after []byte, sections map[string]string) {
	t.Helper()
	a, errA := notebook.Parse(before)
	b, errB := notebook.Parse(after)
	if errA != nil || errB != nil || len(a.Cells) != len(b.Cells) {
		t.Errorf("%s: the fixed notebook does not parse or lost cells (%v, %v)", p, errA, errB)
		return
	}
	for i := range a.Cells {
		key := fmt.Sprintf("%s:cell %d", p, a.Cells[i].Number)
		sec, shown := sections[key]
		delete(sections, key)
		if a.Cells[i].Text == b.Cells[i].Text {
			if shown {
				t.Errorf("--diff showed %s, which --fix did not change", key)
			}
			continue
		}
		if !shown {
			t.Errorf("--fix changed %s, which --diff did not show", key)
			continue
		}
		if got, err := applyDiff(a.Cells[i].Text, sec); err != nil || got != b.Cells[i].Text {
			t.Errorf("%s: --diff does not apply to what --fix wrote (%v)", key, err)
		}
	}
}
