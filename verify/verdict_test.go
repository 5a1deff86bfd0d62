package verify

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/finding"
)

// End-to-end tests of the verdicts: what the wrapper did not see, children that failed, the
// re-import rules, and a run whose reader goes away or whose children escape the group.

func TestWrapperDroppedByExec(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, res := e.scenario(t, time.Minute, e.python, "clear_preload.py")
	if !strings.Contains(res.stdout, "RAN_AGAIN") {
		t.Fatalf("the program did not re-exec:\n%s", res.stdout)
	}
	if got := rep.ExitCode(); got != ExitToolError {
		t.Errorf("exit code %d, want %d: a re-exec without the wrapper is not a success", got, ExitToolError)
	}
	if len(rep.BlindSpots) != 1 || !strings.Contains(rep.BlindSpots[0].Why, "dropped the wrapper") {
		t.Fatalf("blind spots %+v", rep.BlindSpots)
	}
	root := rep.Tree.Root
	if root.Lost == nil || root.Lost.Keeps || root.Lost.Path != e.python {
		t.Errorf("root's lost exec %+v", root.Lost)
	}
	s := rep.Summary()
	for _, want := range []string{"not seen: process", "with the wrapper dropped from its environment", "verdict: not verified"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
}

func TestStaticProgramsAreNotSeen(t *testing.T) {
	t.Parallel()
	e := setup(t)
	cases := []struct {
		name    string
		command []string
		why     string
	}{
		{"the command itself", []string{e.static}, "the command never loaded the wrapper"},
		{"exec'd by Python", []string{e.python, "-c", fmt.Sprintf("import os; os.execv(%q, [%[1]q])", e.static)},
			"which never loaded the wrapper (a statically linked or setuid program)"},
		{"a subprocess", []string{e.python, "-c", fmt.Sprintf("import subprocess; subprocess.run([%q], check=True)", e.static)},
			"which never loaded the wrapper"},
		// posix_spawn with an empty environment: the child writes nothing; its parent's wait shows it.
		{"posix_spawn without the environment", []string{e.python, "-c",
			fmt.Sprintf("import os; pid = os.posix_spawn(%q, [%[1]q], {}); os.waitpid(pid, 0)", e.static)},
			"never loaded the wrapper (started by posix_spawn"},
	}
	for _, c := range cases {
		rep, res := e.wrapped(t, Options{Command: c.command, Timeout: time.Minute})
		if !strings.Contains(res.stdout, "STATIC_OK") {
			t.Errorf("%s: the static program did not run:\n%s", c.name, res.stdout)
		}
		if got := rep.ExitCode(); got != ExitToolError {
			t.Errorf("%s: exit code %d, want %d", c.name, got, ExitToolError)
		}
		if len(rep.BlindSpots) != 1 || !strings.Contains(rep.BlindSpots[0].Why, c.why) {
			t.Errorf("%s: blind spots %+v, want one saying %q", c.name, rep.BlindSpots, c.why)
		}
	}
}

func TestShimThatIsNotTheWrapper(t *testing.T) {
	t.Parallel()
	e := setup(t)
	text := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(text, []byte("not a library\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for shim, want := range map[string]string{
		text:     "not an ELF shared library",
		e.static: "an ELF EXEC, not a shared library",
	} {
		_, err := Run(context.Background(), Options{Command: []string{e.python, "-c", "pass"}, Shim: shim, Env: e.env(), Dir: e.pyDir})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("--shim %s: err %v, want %q", filepath.Base(shim), err, want)
		}
	}
	// A shared library, but not the wrapper: the run happens, and nothing of it is seen.
	rep, _ := e.wrapped(t, Options{Command: []string{e.python, "-c", "print('ran')"}, Shim: filepath.Join(e.libDir, "libdep.so")})
	if rep.ExitCode() != ExitToolError || len(rep.BlindSpots) != 1 || !rep.Tree.Root.Unseen {
		t.Errorf("exit code %d, blind spots %+v", rep.ExitCode(), rep.BlindSpots)
	}
}

// depthOne returns the lines of a summary's process tree that are the root's children.
func depthOne(summary string) []string {
	var out []string
	for _, l := range strings.Split(summary, "\n") {
		if strings.HasPrefix(l, "  ├─ ") || strings.HasPrefix(l, "  └─ ") {
			out = append(out, l)
		}
	}
	return out
}

func TestSpawnedChildrenFail(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, res := e.scenario(t, time.Minute, e.python, "spawn_fail.py")
	if !strings.Contains(res.stdout, "EXIT_CODES [1, 1, 1]") || rep.ExitStatus != 0 {
		t.Fatalf("the fixture should exit 0 with three failed children:\n%s", res.stdout)
	}
	if got := rep.ExitCode(); got != ExitNoVerdict {
		t.Errorf("exit code %d, want %d: the children's failure is the program's", got, ExitNoVerdict)
	}
	if len(rep.FailedChildren) != 3 {
		t.Fatalf("failed children %+v, want 3", rep.FailedChildren)
	}
	for _, c := range rep.FailedChildren {
		if c.How != "spawn" || c.End != "exited 1" {
			t.Errorf("failed child %+v", c)
		}
	}
	if len(rep.OutputExceptions) == 0 || rep.OutputExceptions[0] != "RuntimeError: context has already been set" {
		t.Errorf("output exceptions %q", rep.OutputExceptions)
	}
	problems := strings.Join(rep.Problems(), "\n")
	if !regexp.MustCompile(`the program failed: spawn child \d+ \(python3 (-\S+ )*-c from multiprocessing.spawn import spawn_main`).MatchString(problems) ||
		!strings.Contains(problems, "the program printed: RuntimeError: context has already been set") {
		t.Errorf("problems:\n%s", problems)
	}
	// The three children (and the resource tracker) are siblings: one branch closes the list.
	s := rep.Summary()
	kids := depthOne(s)
	spawned := 0
	for i, l := range kids {
		if strings.Contains(l, "from multiprocessing.spawn") {
			spawned++
		}
		if last := i == len(kids)-1; last != strings.HasPrefix(l, "  └─ ") {
			t.Errorf("sibling %d of %d drawn as %q", i+1, len(kids), l)
		}
	}
	if spawned != 3 || !strings.Contains(s, "verdict: no hazard proven, but 3 children of the program failed (exit 3)") {
		t.Errorf("summary:\n%s", s)
	}
}

func TestTopLevelInitRerunsInSpawnChild(t *testing.T) {
	t.Parallel()
	e := setup(t)
	line := e.marker(t, "spawn_toplevel_init.py", "init")
	path := filepath.Join("testdata", "py", "spawn_toplevel_init.py")
	static := func([]string) ([]finding.Finding, error) {
		return []finding.Finding{{Code: "CFL004", Location: finding.Location{Path: path, Start: finding.Position{Line: line}}}}, nil
	}
	plain := e.plain(t, e.env(), 30*time.Second, e.python, "spawn_toplevel_init.py")
	rep, res := e.wrapped(t, Options{Command: []string{e.python, "spawn_toplevel_init.py"}, Static: static, Timeout: time.Minute})
	sameAsPlain(t, plain, res)
	f := one(t, rep, "CFL004")
	if f.Status != StatusConfirmed {
		t.Errorf("CFL004 status %q, want confirmed", f.Status)
	}
	wantEvidence(t, f, `child \d+ \(python3 (-\S+ )*-c from multiprocessing.spawn.*\) ran spawn_toplevel_init.py's top level again and called cuInit at spawn_toplevel_init.py:`+
		strconv.Itoa(line)+`: CUDA_SUCCESS \(0\)`)
	if rep.ExitCode() != ExitClean || !strings.Contains(res.stdout, "CHILD_EXIT 0") {
		t.Errorf("exit code %d: CFL004 is a warning and nothing failed", rep.ExitCode())
	}
}

// TestImportedInitRerunsInSpawnChild is CFL004 where the main module initializes CUDA through a
// module it imports at its top level: the finding is at that module, its Related chain starts at
// the main module, and the spawn child that imports the main module again runs the module's top
// level too. (On the H200 this was "not observed": only children whose main script was the
// finding's own file counted.)
func TestImportedInitRerunsInSpawnChild(t *testing.T) {
	t.Parallel()
	e := setup(t)
	initLine := e.marker(t, "preload_init.py", "init")
	importLine := e.marker(t, "spawn_import_init.py", "import")
	helper := filepath.Join("testdata", "py", "preload_init.py")
	main := filepath.Join("testdata", "py", "spawn_import_init.py")
	static := func([]string) ([]finding.Finding, error) {
		return []finding.Finding{{
			Code:     "CFL004",
			Location: finding.Location{Path: helper, Start: finding.Position{Line: initLine}},
			Related: []finding.Related{
				{Location: finding.Location{Path: main, Start: finding.Position{Line: importLine}}, Message: "Imports `preload_init`"},
				{Location: finding.Location{Path: helper, Start: finding.Position{Line: initLine}}, Message: "CUDA is initialized here"},
			},
		}}, nil
	}
	rep, res := e.wrapped(t, Options{Command: []string{e.python, "spawn_import_init.py"}, Static: static, Timeout: time.Minute})
	f := one(t, rep, "CFL004")
	if f.Status != StatusConfirmed {
		t.Errorf("CFL004 status %q, want confirmed; evidence %q", f.Status, f.Evidence)
	}
	wantEvidence(t, f, `child \d+ \(python3 (-\S+ )*-c from multiprocessing.spawn.*\) ran preload_init.py's top level again and called cuInit at preload_init.py:`+
		strconv.Itoa(initLine)+`: CUDA_SUCCESS \(0\)`)
	if rep.ExitCode() != ExitClean || !strings.Contains(res.stdout, "CHILD_EXIT 0") {
		t.Errorf("exit code %d, stdout %q: CFL004 is a warning and nothing failed", rep.ExitCode(), res.stdout)
	}
}

func TestProcessStartAtImport(t *testing.T) {
	t.Parallel()
	e := setup(t)
	line := e.marker(t, "spawn_at_import.py", "start")
	path := filepath.Join("testdata", "py", "spawn_at_import.py")
	static := func([]string) ([]finding.Finding, error) {
		return []finding.Finding{{Code: "CFL005", Location: finding.Location{Path: path, Start: finding.Position{Line: line}}}}, nil
	}
	rep, res := e.wrapped(t, Options{Command: []string{e.python, "spawn_at_import.py"}, Static: static, Timeout: time.Minute})
	if !strings.Contains(res.stdout, "CHILD_EXIT 1") {
		t.Fatalf("the child should die bootstrapping:\n%s", res.stdout)
	}
	f := one(t, rep, "CFL005")
	if f.Status != StatusConfirmed {
		t.Errorf("CFL005 status %q, want confirmed", f.Status)
	}
	wantEvidence(t, f, `child \d+ \(python3 (-\S+ )*-c from multiprocessing.spawn.*\) exited 1`, `bootstrapping phase`)
	if rep.ExitCode() != ExitHazard || len(rep.FailedChildren) != 1 {
		t.Errorf("exit code %d, failed children %+v", rep.ExitCode(), rep.FailedChildren)
	}
}

// TestReaderGoesAway is `verify -- python3 many_lines.py | head -1`: verify must neither die of
// SIGPIPE nor leave its event log behind.
func TestReaderGoesAway(t *testing.T) {
	t.Parallel()
	e := setup(t)
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", e.python, "many_lines.py")
	cmd.Dir, cmd.Env = e.pyDir, e.env(helperEnv+"="+e.shim, "TMPDIR="+tmp)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first, err := bufio.NewReader(out).ReadString('\n')
	out.Close() // head -1
	if err != nil || first != "line 0\n" {
		t.Errorf("first line %q, %v", first, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("verify did not end after its reader went away:\n%s", errb.String())
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() || ws.ExitStatus() != ExitNoVerdict {
		t.Errorf("verify ended with %v (exit %d), want exit %d (the program failed writing)", ws, ws.ExitStatus(), ExitNoVerdict)
	}
	if !strings.Contains(errb.String(), "verdict:") {
		t.Errorf("verify should still report:\n%s", errb.String())
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "cudaforklint-events-*")); len(left) != 0 {
		t.Errorf("event logs left behind: %v", left)
	}
}

func TestSetsidChildEndedAtTimeout(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, res := e.wrapped(t, Options{Command: []string{e.python, "setsid_child.py"}, Timeout: 4 * time.Second})
	m := regexp.MustCompile(`ESCAPED (\d+)`).FindStringSubmatch(res.stdout)
	if m == nil {
		t.Fatalf("the fixture did not start its child:\n%s", res.stdout)
	}
	pid, _ := strconv.Atoi(m[1])
	if !rep.TimedOut || rep.ExitCode() != ExitNoVerdict {
		t.Errorf("timed out %v, exit code %d", rep.TimedOut, rep.ExitCode())
	}
	if len(rep.Escaped) != 1 || rep.Escaped[0] != pid {
		t.Errorf("escaped %v, want [%d]", rep.Escaped, pid)
	}
	var child *Process
	for _, p := range rep.Tree.All {
		if p.PID == pid {
			child = p
		}
	}
	if child == nil || child.End.Kind != EndRunning || child.End.Why != "timeout" {
		t.Errorf("the escaped child in the tree: %+v", child)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		state, _, _, ok := procStat(pid)
		if !ok || state == "Z" || state == "X" {
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the child that left the group (pid %d) is still running (%s)", pid, state)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(strings.Join(rep.Problems(), "\n"), fmt.Sprintf("process %d left the process group", pid)) {
		t.Errorf("problems %q", rep.Problems())
	}
}

// TestSignalledChildren runs both sides of the rule that forgives signals a process of the
// program sent: a worker its parent terminated did not fail; one that killed itself did.
func TestSignalledChildren(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, tc := range []struct {
		script, stdout string
		code           int
		failed         string
	}{
		{"self_kill.py", "CHILD_EXIT -9", ExitNoVerdict, `^fork child \d+ \(python3 self_kill.py\) killed by SIGKILL$`},
		{"pool_terminate.py", "TERMINATED", ExitClean, ""},
	} {
		rep, res := e.scenario(t, time.Minute, e.python, tc.script)
		if !strings.Contains(res.stdout, tc.stdout) {
			t.Fatalf("%s: stdout %q, want %q", tc.script, res.stdout, tc.stdout)
		}
		if got := rep.ExitCode(); got != tc.code {
			t.Errorf("%s: exit code %d, want %d; verdict %q", tc.script, got, tc.code, rep.Verdict())
		}
		var failed []string
		for _, c := range rep.FailedChildren {
			failed = append(failed, c.String())
		}
		if tc.failed == "" && len(failed) > 0 || tc.failed != "" && (len(failed) != 1 || !regexp.MustCompile(tc.failed).MatchString(failed[0])) {
			t.Errorf("%s: failed children %q, want %q", tc.script, failed, tc.failed)
		}
	}
}

// TestLeftRunningIsNotSeenToTheEnd: a process still running when the program's root has exited
// (a grandchild that outlived its parent, a daemon that left the group with setsid) is ended by
// the run before it reaches its CUDA call. What it would have done was not seen: the verdict names
// it and is not a pass. A grandchild that outlives its parent and finishes before the root exits
// is a clean run.
func TestLeftRunningIsNotSeenToTheEnd(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, tc := range []struct {
		name    string
		command []string
		marker  string
		escaped bool
	}{
		{"a grandchild that outlives its parent", []string{e.python, "orphan.py"}, "GRANDCHILD", false},
		{"a setsid daemon", []string{e.python, "daemon.py"}, "DAEMON", true},
	} {
		rep, res := e.wrapped(t, Options{Command: tc.command, Timeout: time.Minute})
		m := regexp.MustCompile(tc.marker + ` (\d+)`).FindStringSubmatch(res.stdout)
		if m == nil {
			t.Fatalf("%s: the fixture did not start it:\n%s", tc.name, res.stdout)
		}
		pid, _ := strconv.Atoi(m[1])
		if got := rep.ExitCode(); got != ExitToolError || rep.ExitStatus != 0 {
			t.Errorf("%s: exit code %d (program %d), want %d", tc.name, got, rep.ExitStatus, ExitToolError)
		}
		if len(rep.Unfinished) != 1 {
			t.Fatalf("%s: unfinished %+v, want process %d", tc.name, rep.Unfinished, pid)
		}
		u := rep.Unfinished[0]
		if u.PID != pid || u.Why != "left running" || u.Escaped != tc.escaped || !u.Forked ||
			!strings.Contains(u.Doing, "sleeping") || !strings.Contains(u.Doing, "no CUDA call yet") {
			t.Errorf("%s: unfinished %+v", tc.name, u)
		}
		v := rep.Verdict()
		want := fmt.Sprintf("not verified: 1 process was still running after the program's root exited, and verify ended it before it finished: process %d (fork of python3 ", pid)
		if !strings.HasPrefix(v, want) || strings.Contains(v, "no hazard") {
			t.Errorf("%s: verdict %q, want it to start %q", tc.name, v, want)
		}
		if s := rep.Summary(); !strings.Contains(s, "unfinished: ") || !strings.Contains(s, "verdict: "+v) {
			t.Errorf("%s: summary:\n%s", tc.name, s)
		}
		if p := strings.Join(rep.Problems(), "\n"); !strings.Contains(p, fmt.Sprintf("not seen to its end: process %d", pid)) {
			t.Errorf("%s: problems %q", tc.name, p)
		}
	}
	rep, res := e.wrapped(t, Options{Command: []string{e.python, "orphan.py", "quick"}, Timeout: time.Minute})
	if !strings.Contains(res.stdout, "GRANDCHILD done") || rep.ExitCode() != ExitClean || len(rep.Unfinished) != 0 {
		t.Errorf("a grandchild that finishes after its parent: exit code %d, unfinished %+v, verdict %q", rep.ExitCode(), rep.Unfinished, rep.Verdict())
	}
}

// TestCUDANotObservable: on a machine without the driver library, or with a driver and no device,
// a program that falls back to the CPU succeeds, and nothing about CUDA could be seen: the verdict
// says so first, with the reason, and the run does not pass. With the driver and a device, the same
// program proves its hazard.
func TestCUDANotObservable(t *testing.T) {
	t.Parallel()
	e := setup(t)
	missing := filepath.Join(t.TempDir(), "nodriver", "libcuda.so.1")
	initLine := e.marker(t, "gpu_or_cpu.py", "init")
	path := filepath.Join("testdata", "py", "gpu_or_cpu.py")
	static := func([]string) ([]finding.Finding, error) {
		return []finding.Finding{{Code: "CFL001", Location: finding.Location{Path: path, Start: finding.Position{Line: initLine}}}}, nil
	}
	for _, tc := range []struct {
		name, stdout string
		env          []string
		code         int
		why          string // CUDAUnobserved, a regular expression; "" when CUDA was observed
		status       string // the static CFL001's
	}{
		{"no driver library", "WORKED cpu", e.env("FAKECU_LIBCUDA=" + missing), ExitToolError,
			`^process \d+ \(python3 gpu_or_cpu.py\) could not load the driver library \(dlopen of ` + regexp.QuoteMeta(missing) + ` failed\)`,
			StatusNotObserved},
		{"a driver without a device", "WORKED cpu", e.env("FAKECUDA_DEVICES=0"), ExitToolError,
			`^cuInit returned CUDA_ERROR_NO_DEVICE \(100\) in process \d+ \(python3 gpu_or_cpu.py\) at gpu_or_cpu.py:` + strconv.Itoa(initLine) + `$`,
			StatusNotObserved},
		{"a driver and a device", "CHILD_EXIT 1", e.env(), ExitHazard, "", StatusConfirmed},
	} {
		plain := e.plain(t, tc.env, 30*time.Second, e.python, "gpu_or_cpu.py")
		rep, res := e.wrapped(t, Options{Command: []string{e.python, "gpu_or_cpu.py"}, Env: tc.env, Static: static, Timeout: time.Minute})
		sameAsPlain(t, plain, res)
		if !strings.Contains(res.stdout, tc.stdout) {
			t.Fatalf("%s: stdout %q, want %q", tc.name, res.stdout, tc.stdout)
		}
		if got := rep.ExitCode(); got != tc.code {
			t.Errorf("%s: exit code %d, want %d; verdict %q", tc.name, got, tc.code, rep.Verdict())
		}
		if tc.why == "" {
			if rep.CUDAUnobserved != "" {
				t.Errorf("%s: CUDA unobserved: %q", tc.name, rep.CUDAUnobserved)
			}
		} else {
			if !regexp.MustCompile(tc.why).MatchString(rep.CUDAUnobserved) {
				t.Errorf("%s: CUDA unobserved %q, want %q", tc.name, rep.CUDAUnobserved, tc.why)
			}
			if v := rep.Verdict(); !strings.HasPrefix(v, "CUDA could not be observed: "+rep.CUDAUnobserved) || strings.Contains(v, "no hazard") {
				t.Errorf("%s: verdict %q", tc.name, v)
			}
			if p := rep.Problems(); len(p) == 0 || !strings.HasPrefix(p[0], "CUDA could not be observed: ") {
				t.Errorf("%s: problems %q", tc.name, p)
			}
		}
		f := one(t, rep, "CFL001")
		if f.Status != tc.status {
			t.Errorf("%s: CFL001 %q, want %q", tc.name, f.Status, tc.status)
		}
		if ev := strings.Join(f.Evidence, "\n"); (tc.why != "") != strings.Contains(ev, "CUDA could not be observed on this run: ") {
			t.Errorf("%s: evidence %q", tc.name, ev)
		}
	}
	// The driver's load failing under the wrapper fails as it does without: the same message.
	probe := []string{e.python, "-c", fmt.Sprintf("import ctypes\ntry:\n    ctypes.CDLL(%q)\nexcept OSError as e:\n    print(e)", missing)}
	plain := e.plain(t, e.env(), 30*time.Second, probe...)
	_, res := e.wrapped(t, Options{Command: probe})
	sameAsPlain(t, plain, res)
	if !strings.Contains(res.stdout, "cannot open shared object file") {
		t.Errorf("the loader's message: %q", res.stdout)
	}
}

// TestOutlivedParentEnd: a child that ends after the program's root has exited is reaped by no
// process of the program, so its parent's wrapper never sees its status. A normal exit is
// recorded by the child's own wrapper (exit's status); a death by signal is seen by nobody, and
// the run is then not verified: before, it passed as "every process of the program succeeded".
func TestOutlivedParentEnd(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, tc := range []struct {
		how    string
		code   int
		end    EndKind
		failed string // the failed child's End, "" for none
	}{
		{"ok", ExitClean, EndExited, ""},
		{"fail", ExitNoVerdict, EndExited, "exited 1"},
		{"crash", ExitToolError, EndUnknown, ""},
	} {
		rep, res := e.wrapped(t, Options{Command: []string{e.python, "outlive_parent.py", tc.how}, Timeout: time.Minute})
		m := regexp.MustCompile(`CHILD (\d+)`).FindStringSubmatch(res.stdout)
		if m == nil {
			t.Fatalf("%s: the fixture did not start its child:\n%s%s", tc.how, res.stdout, res.stderr)
		}
		pid, _ := strconv.Atoi(m[1])
		var child *Process
		for _, p := range rep.Tree.All {
			if p.PID == pid {
				child = p
			}
		}
		if child == nil || child.End.Kind != tc.end {
			t.Fatalf("%s: child %d: %+v, want end kind %d", tc.how, pid, child, tc.end)
		}
		if got := rep.ExitCode(); got != tc.code {
			t.Errorf("%s: exit code %d, want %d (verdict %q)", tc.how, got, tc.code, rep.Verdict())
		}
		var failed []string
		for _, c := range rep.FailedChildren {
			failed = append(failed, c.End)
		}
		if want := tc.failed; want == "" && len(failed) > 0 || want != "" && !slices.Equal(failed, []string{want}) {
			t.Errorf("%s: failed children %q, want %q", tc.how, failed, want)
		}
		if tc.end == EndUnknown {
			v := rep.Verdict()
			if strings.Contains(v, "no hazard") || len(rep.BlindSpots) != 1 || rep.BlindSpots[0].PID != pid ||
				!strings.Contains(rep.BlindSpots[0].Why, "its end was not seen") {
				t.Errorf("%s: verdict %q, blind spots %+v, want child %d's end named as not seen", tc.how, v, rep.BlindSpots, pid)
			}
			if s := rep.Summary(); !strings.Contains(s, fmt.Sprintf("%d fork of python3 outlive_parent.py crash; end not seen", pid)) {
				t.Errorf("%s: the tree does not say the child's end was not seen:\n%s", tc.how, s)
			}
		}
	}
}

// TestEndLate: a process whose record reached the log after the search for escaped processes (a
// daemon's fork record, written by the daemon once it is scheduled) and that still runs outside
// the program's group is ended and reported as left running, not left alive with an unknown end.
// A process of the tree that has ended, or whose pid now names another process, is left alone.
func TestEndLate(t *testing.T) {
	daemon := exec.Command("sleep", "60")
	daemon.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- daemon.Wait() }()
	defer daemon.Process.Kill()
	var start int64
	for i := 0; i < 100 && start == 0; i++ { // until the child has its own session
		if _, pgrp, st, ok := procStat(daemon.Process.Pid); ok && pgrp == daemon.Process.Pid {
			start = st
		}
		time.Sleep(10 * time.Millisecond)
	}
	if start == 0 {
		t.Fatal("the stand-in daemon did not start")
	}
	root := &Process{PID: os.Getpid(), End: End{Kind: EndExited}}
	late := &Process{PID: daemon.Process.Pid, Start: start, Parent: root}
	reused := &Process{PID: daemon.Process.Pid, Start: start - 1, Parent: root} // another process, same pid
	ended := &Process{PID: daemon.Process.Pid, Start: start, Parent: root, End: End{Kind: EndExited}}
	tree := &Tree{Root: root, All: []*Process{root, reused, ended}}
	if got, _ := endLate(tree, syscall.Getpgrp()); len(got) != 0 {
		t.Fatalf("ended %v; want nothing: no process of the tree is both running and of unknown end", got)
	}
	tree.All = append(tree.All, late)
	got, at := endLate(tree, syscall.Getpgrp())
	if _, ok := got[late.PID]; !ok || len(got) != 1 || at == 0 {
		t.Fatalf("ended %v at %d, want process %d", got, at, late.PID)
	}
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("the late process was not killed")
	}
	tree.markRunning(got, "left running", at)
	if late.End.Kind != EndRunning || late.End.Why != "left running" || reused.End.Kind != EndUnknown {
		t.Errorf("ends: late %+v, reused %+v", late.End, reused.End)
	}
}
