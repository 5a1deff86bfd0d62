package verify

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cudaforklint/cudaforklint/finding"
)

// The tests run real Python programs (stdlib only) under the wrapper, against a stand-in
// libcuda.so.1 (testdata/fakecuda) that behaves like the real driver around fork. They need
// python3 and a C compiler, which CI has: when one is missing they fail, they never skip.

// helperEnv makes the test binary act as a `verify` command line (for the Ctrl-C test, which
// must signal a separate process): test.binary -- command...
const helperEnv = "CUDAFORKLINT_VERIFY_TEST_HELPER"

var tmpRoot string

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(helperMain())
	}
	var err error
	if tmpRoot, err = os.MkdirTemp("", "cudaforklint-verify-test-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(tmpRoot)
	os.Exit(code)
}

func helperMain() int {
	i := 0
	for i < len(os.Args) && os.Args[i] != "--" {
		i++
	}
	if i+1 >= len(os.Args) {
		fmt.Fprintln(os.Stderr, "helper: no command")
		return ExitToolError
	}
	rep, err := Run(context.Background(), Options{
		Command: os.Args[i+1:],
		Shim:    os.Getenv(helperEnv),
		Stdin:   os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Grace: 2 * time.Second,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return ExitToolError
	}
	rep.WriteSummary(os.Stderr)
	return rep.ExitCode()
}

// testEnv is what every test needs, built once: the wrapper (with -Werror), the stand-in driver
// and the other preload objects.
type testEnv struct {
	python  string
	cc      []string
	shim    string
	fakeDir string // holds libcuda.so.1
	libDir  string // other.so, librtldnext.so, librtlddef.so, libdep.so
	pyDir   string // testdata/py, absolute
	static  string // a statically linked program (testdata/static/static_hello.c)
}

var (
	envOnce sync.Once
	envVal  *testEnv
	envErr  error
)

func setup(t *testing.T) *testEnv {
	t.Helper()
	envOnce.Do(func() { envVal, envErr = buildTestEnv() })
	if envErr != nil {
		t.Fatal(envErr)
	}
	return envVal
}

func buildTestEnv() (*testEnv, error) {
	e := &testEnv{}
	var err error
	// The interpreter itself, so that most runs skip shell shims such as pyenv's (TestExecChains
	// goes through them on purpose).
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return nil, fmt.Errorf("these tests run Python programs and need python3 on PATH: %v", err)
	}
	e.python = strings.TrimSpace(string(out))
	if e.cc, err = FindCompiler(context.Background()); err != nil {
		return nil, fmt.Errorf("these tests build the wrapper and need a C compiler (gcc or cc on PATH): %v", err)
	}
	if e.pyDir, err = filepath.Abs("testdata/py"); err != nil {
		return nil, err
	}
	e.shim = filepath.Join(tmpRoot, "cudaforkshim.so")
	if err := BuildShim(context.Background(), e.cc, e.shim, "-Werror"); err != nil {
		return nil, err
	}
	e.fakeDir = filepath.Join(tmpRoot, "fakecuda")
	e.libDir = filepath.Join(tmpRoot, "lib")
	for _, d := range []string{e.fakeDir, e.libDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	strict := []string{"-O2", "-fPIC", "-shared", "-Wall", "-Wextra", "-Werror"}
	builds := [][]string{
		{"-Wl,-soname,libcuda.so.1", "-o", filepath.Join(e.fakeDir, "libcuda.so.1"), "testdata/fakecuda/fakecuda.c"},
		{"-o", filepath.Join(e.libDir, "libother.so"), "testdata/preload/other.c", "-ldl"},
		{"-o", filepath.Join(e.libDir, "librtldnext.so"), "testdata/preload/rtldnext.c", "-ldl"},
		{"-Wl,-soname,libdep.so", "-o", filepath.Join(e.libDir, "libdep.so"), "testdata/preload/dep.c"},
		{"-o", filepath.Join(e.libDir, "librtlddef.so"), "testdata/preload/rtlddef.c", "-L" + e.libDir, "-ldep",
			"-Wl,-rpath," + e.libDir, "-ldl"},
	}
	for _, b := range builds {
		args := append(append(append([]string{}, e.cc[1:]...), strict...), b...)
		if out, err := exec.Command(e.cc[0], args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("%s %s: %v\n%s", e.cc[0], strings.Join(args, " "), err, out)
		}
	}
	e.static = filepath.Join(e.libDir, "static_hello")
	args := append(append([]string{}, e.cc[1:]...), "-static", "-O2", "-Wall", "-Werror", "-o", e.static, "testdata/static/static_hello.c")
	if out, err := exec.Command(e.cc[0], args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building a static program (libc6-dev has the static C library): %s %s: %v\n%s",
			e.cc[0], strings.Join(args, " "), err, out)
	}
	return e, nil
}

// env is the environment of a fixture run: the stand-in driver first on LD_LIBRARY_PATH.
func (e *testEnv) env(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LD_LIBRARY_PATH=") && !strings.HasPrefix(kv, "LD_PRELOAD=") &&
			!strings.HasPrefix(kv, LogEnv+"=") && !strings.HasPrefix(kv, "PYTHONPATH=") {
			out = append(out, kv)
		}
	}
	lp := e.fakeDir
	if old := os.Getenv("LD_LIBRARY_PATH"); old != "" {
		lp += ":" + old
	}
	// fakecu.py stands for a CUDA library: it lives in a site-packages folder, as one would.
	return append(append(out, "LD_LIBRARY_PATH="+lp, "PYTHONDONTWRITEBYTECODE=1",
		"PYTHONPATH="+filepath.Join(e.pyDir, "site-packages")), extra...)
}

type result struct {
	stdout, stderr string
	code           int
}

// plain runs a command without the wrapper, in its own process group, killed after timeout.
func (e *testEnv) plain(t *testing.T, env []string, timeout time.Duration, command ...string) result {
	t.Helper()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir, cmd.Env = e.pyDir, env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(timeout, func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	cmd.Wait()
	timer.Stop()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return result{out.String(), errb.String(), cmd.ProcessState.Sys().(syscall.WaitStatus).ExitStatus()}
}

// wrapped runs a command under verify.Run.
func (e *testEnv) wrapped(t *testing.T, opts Options) (*Report, result) {
	t.Helper()
	var out, errb bytes.Buffer
	if opts.Shim == "" {
		opts.Shim = e.shim
	}
	if opts.Env == nil {
		opts.Env = e.env()
	}
	if opts.Dir == "" {
		opts.Dir = e.pyDir
	}
	opts.Stdout, opts.Stderr = &out, &errb
	rep, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("Run(%v): %v", opts.Command, err)
	}
	t.Logf("%s\nstdout:\n%s\nstderr:\n%s", rep.Summary(), out.String(), errb.String())
	return rep, result{out.String(), errb.String(), rep.ExitStatus}
}

// marker is the line of fixture file that carries the comment "# cfl:NAME".
func (e *testEnv) marker(t *testing.T, file, name string) int {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(e.pyDir, file))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, "# cfl:"+name) {
			return i + 1
		}
	}
	t.Fatalf("%s has no # cfl:%s", file, name)
	return 0
}

// one returns the only finding of the report, which must have the given code.
func one(t *testing.T, rep *Report, code string) finding.Finding {
	t.Helper()
	if len(rep.Findings) != 1 || rep.Findings[0].Code != code {
		t.Fatalf("findings = %s, want one %s", codes(rep.Findings), code)
	}
	return rep.Findings[0]
}

func codes(fs []finding.Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, fmt.Sprintf("%s@%s:%d[%s]", f.Code, f.Path, f.Start.Line, f.Status))
	}
	return "[" + strings.Join(s, " ") + "]"
}

func wantLoc(t *testing.T, what string, loc finding.Location, file string, line int) {
	t.Helper()
	if filepath.Base(loc.Path) != file || loc.Start.Line != line {
		t.Errorf("%s at %s:%d, want %s:%d", what, loc.Path, loc.Start.Line, file, line)
	}
}

func wantRelated(t *testing.T, f finding.Finding, file string, line int, msg string) {
	t.Helper()
	for _, r := range f.Related {
		if filepath.Base(r.Path) == file && r.Start.Line == line && strings.Contains(r.Message, msg) {
			return
		}
	}
	t.Errorf("no related location %s:%d %q in %+v", file, line, msg, f.Related)
}

func wantEvidence(t *testing.T, f finding.Finding, res ...string) {
	t.Helper()
	all := strings.Join(append([]string{f.Message}, f.Evidence...), "\n")
	for _, re := range res {
		if !regexp.MustCompile(re).MatchString(all) {
			t.Errorf("message and evidence do not match %q:\n%s", re, all)
		}
	}
}

// sameAsPlain is the transparency check: the program prints the same (descriptors and thread
// counts included, see fakecu.probe) and exits the same with and without the wrapper.
func sameAsPlain(t *testing.T, plain, wrapped result) {
	t.Helper()
	if plain.stdout != wrapped.stdout {
		t.Errorf("stdout differs under the wrapper:\nplain:\n%s\nwrapped:\n%s", plain.stdout, wrapped.stdout)
	}
	if plain.code != wrapped.code {
		t.Errorf("exit code %d under the wrapper, %d without", wrapped.code, plain.code)
	}
	if strings.Contains(plain.stdout, "threads") && !strings.Contains(wrapped.stdout, "threads 1") {
		t.Errorf("the fixture should run one thread:\n%s", wrapped.stdout)
	}
}

// scenario runs one fixture with and without the wrapper and checks transparency.
func (e *testEnv) scenario(t *testing.T, timeout time.Duration, command ...string) (*Report, result) {
	t.Helper()
	plain := e.plain(t, e.env(), 30*time.Second, command...)
	rep, res := e.wrapped(t, Options{Command: command, Timeout: timeout})
	sameAsPlain(t, plain, res)
	if rep.BadEvents != 0 {
		t.Errorf("%d malformed event records", rep.BadEvents)
	}
	return rep, res
}

func TestForkAfterInitChildUses(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, res := e.scenario(t, time.Minute, e.python, "fork_use.py")
	f := one(t, rep, "CFL001")
	wantLoc(t, "CFL001", f.Location, "fork_use.py", e.marker(t, "fork_use.py", "init"))
	if f.Status != StatusRuntimeOnly || f.Severity != finding.Error || f.Name != "fork-after-cuda-init" {
		t.Errorf("status %q severity %v name %q", f.Status, f.Severity, f.Name)
	}
	wantRelated(t, f, "fork_use.py", e.marker(t, "fork_use.py", "fork"), "forked here")
	wantRelated(t, f, "fork_use.py", e.marker(t, "fork_use.py", "use"), "CUDA_ERROR_NOT_INITIALIZED (3)")
	wantEvidence(t, f, `cuInit returned CUDA_SUCCESS \(0\) at fork_use.py:\d+`,
		`cuDeviceGet returned CUDA_ERROR_NOT_INITIALIZED \(3\) at fork_use.py:\d+; exited with code 1`,
		`the program printed: .*CUDA_ERROR_NOT_INITIALIZED`)
	if got := rep.ExitCode(); got != ExitHazard || res.code != 0 {
		t.Errorf("exit code %d (program %d), want %d", got, res.code, ExitHazard)
	}
	if f.Start.Column != 5 || f.End.Column <= f.Start.Column {
		t.Errorf("columns %d..%d, want the statement's (5..)", f.Start.Column, f.End.Column)
	}
	// Preloaded without CUDAFORKLINT_LOG the wrapper does nothing: same output, no log anywhere.
	inert := e.plain(t, e.env("LD_PRELOAD="+e.shim), 30*time.Second, e.python, "fork_use.py")
	sameAsPlain(t, e.plain(t, e.env(), 30*time.Second, e.python, "fork_use.py"), inert)
}

func TestForkAfterInitChildDoesNotUse(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, _ := e.scenario(t, time.Minute, e.python, "fork_nouse.py")
	f := one(t, rep, "CFL003")
	wantLoc(t, "CFL003", f.Location, "fork_nouse.py", e.marker(t, "fork_nouse.py", "init"))
	wantEvidence(t, f, `never called CUDA; exited with code 0`, `none of them touched CUDA`)
	if f.Severity != finding.Warning || rep.ExitCode() != ExitClean {
		t.Errorf("severity %v, exit code %d", f.Severity, rep.ExitCode())
	}
}

func TestOSForkThroughGetProcAddress(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, _ := e.scenario(t, time.Minute, e.python, "osfork_use.py")
	f := one(t, rep, "CFL001")
	wantLoc(t, "CFL001", f.Location, "osfork_use.py", e.marker(t, "osfork_use.py", "init"))
	wantRelated(t, f, "osfork_use.py", e.marker(t, "osfork_use.py", "fork"), "forked here")
	// The child resolved its entry points afresh through the wrapped cuGetProcAddress_v2; its
	// cuInit got 3 like cuda.bindings' child, then cuDeviceGet.
	wantEvidence(t, f, `returned CUDA_ERROR_NOT_INITIALIZED \(3\) at osfork_use.py:`+strconv.Itoa(e.marker(t, "osfork_use.py", "use")),
		`exited with code 1`)
}

func TestForkserverPreloadInits(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, _ := e.scenario(t, time.Minute, e.python, "forkserver_preload.py")
	f := one(t, rep, "CFL002")
	wantLoc(t, "CFL002", f.Location, "preload_init.py", e.marker(t, "preload_init.py", "init"))
	wantEvidence(t, f, `the forkserver \(process \d+\) initialized CUDA`,
		`cuDeviceGet returned CUDA_ERROR_NOT_INITIALIZED \(3\) at forkserver_preload.py`)
	if rep.ExitCode() != ExitHazard || f.Severity != finding.Error || f.Name != "forkserver-inherits-cuda" {
		t.Errorf("exit code %d, severity %v, name %s", rep.ExitCode(), f.Severity, f.Name)
	}
}

func TestSpawnGuardedIsClean(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, res := e.scenario(t, time.Minute, e.python, "spawn_guarded.py")
	if len(rep.Findings) != 0 || rep.ExitCode() != ExitClean {
		t.Fatalf("findings %s, exit code %d", codes(rep.Findings), rep.ExitCode())
	}
	if !strings.Contains(res.stdout, "CHILD_OK") {
		t.Errorf("the spawned child should succeed:\n%s", res.stdout)
	}
	// Both the parent and the spawned child initialized their own driver, and the wrapper saw both.
	inits := 0
	for _, p := range rep.Tree.All {
		for _, c := range p.Calls {
			if c.Fn == "cuInit" && c.RC == 0 && c.N == 1 {
				inits++
			}
		}
	}
	if inits != 2 {
		t.Errorf("saw %d first cuInit calls, want 2 (parent and spawned child)", inits)
	}
}

func TestExecChains(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, cmd := range [][]string{
		{"bash", "-c", "exec python3 fork_use.py"},
		{"env", "python3", "fork_use.py"},
	} {
		rep, _ := e.scenario(t, time.Minute, cmd...)
		f := one(t, rep, "CFL001")
		wantLoc(t, strings.Join(cmd, " "), f.Location, "fork_use.py", e.marker(t, "fork_use.py", "init"))
		// The root process ran bash or env first, then Python, as one process.
		root := rep.Tree.Root
		if root == nil || len(root.Images) < 2 || filepath.Base(root.Images[0].Argv[0]) != cmd[0] || !root.IsPython() {
			t.Errorf("%v: root images %v", cmd, root)
		}
		if len(rep.StaticPaths) != 1 || rep.StaticPaths[0] != filepath.Join("testdata", "py", "fork_use.py") {
			t.Errorf("%v: static paths %v", cmd, rep.StaticPaths)
		}
	}
}

func TestChildCrashes(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, res := e.scenario(t, time.Minute, e.python, "crash_child.py")
	f := one(t, rep, "CFL001")
	wantLoc(t, "CFL001", f.Location, "crash_child.py", e.marker(t, "crash_child.py", "init"))
	wantEvidence(t, f, `CUDA_ERROR_NOT_INITIALIZED \(3\) at crash_child.py:\d+; killed by SIGSEGV`,
		`CUDA_ERROR_NOT_INITIALIZED \(3\) at crash_child.py:\d+; killed by SIGABRT`)
	if !strings.Contains(res.stdout, "CHILD_EXIT segv -11") || !strings.Contains(res.stdout, "CHILD_EXIT abort -6") {
		t.Errorf("stdout:\n%s", res.stdout)
	}
}

func TestChildHangsAndTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	e := setup(t)
	// The timeout leaves the child time to reach the driver even on a loaded machine.
	const timeout = 8 * time.Second
	plainc := make(chan result, 1)
	go func() { plainc <- e.plain(t, e.env(), timeout, e.python, "hang_child.py") }()
	start := time.Now()
	rep, res := e.wrapped(t, Options{Command: []string{e.python, "hang_child.py"}, Timeout: timeout})
	if took := time.Since(start); took > timeout+10*time.Second {
		t.Errorf("the run took %s with a %s timeout", took, timeout)
	}
	plain := <-plainc
	if plain.stdout != res.stdout {
		t.Errorf("stdout differs:\n%s\nvs\n%s", plain.stdout, res.stdout)
	}
	if !rep.TimedOut || rep.ExitCode() != ExitHazard {
		t.Errorf("timed out %v, exit code %d", rep.TimedOut, rep.ExitCode())
	}
	f := one(t, rep, "CFL001")
	wantLoc(t, "CFL001", f.Location, "hang_child.py", e.marker(t, "hang_child.py", "init"))
	wantEvidence(t, f, `hung inside cuStreamSynchronize at hang_child.py:\d+: still running when the run ended \(timeout\)`)
	wantRelated(t, f, "hang_child.py", e.marker(t, "hang_child.py", "use"), "never returned")
	if left := groupMembers(rep.RootPID); len(left) != 0 {
		t.Errorf("processes of the group still alive after the timeout: %v", left)
	}
}

func TestTwoHundredChildren(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, res := e.scenario(t, time.Minute, e.python, "fork_many.py", "200")
	if !strings.Contains(res.stdout, "EXIT_CODES [(0, 196), (1, 4)]") {
		t.Errorf("stdout:\n%s", res.stdout)
	}
	f := one(t, rep, "CFL001")
	wantLoc(t, "CFL001", f.Location, "fork_many.py", e.marker(t, "fork_many.py", "init"))
	wantEvidence(t, f, `forked 200 children that used it`, `and 195 more children: 195 never touched CUDA and exited 0`)
	forked, waited := 0, 0
	for _, p := range rep.Tree.Root.Children {
		if p.Fork != nil && p.Fork.CUDA == 1 {
			forked++
			if p.End.Kind == EndExited && p.End.Source == "wait" {
				waited++
			}
		}
	}
	if forked != 200 || waited != 200 {
		t.Errorf("%d children forked with CUDA initialized, %d reaped, want 200 and 200", forked, waited)
	}
	if s := rep.Summary(); !strings.Contains(s, "more like it") || strings.Count(s, "\n") > 40 {
		t.Errorf("the summary should fold the children:\n%s", s)
	}
}

func TestPreloadAlreadySet(t *testing.T) {
	t.Parallel()
	e := setup(t)
	other := filepath.Join(e.libDir, "libother.so")
	report := filepath.Join(t.TempDir(), "preload.txt")
	env := e.env("LD_PRELOAD="+other, "PRELOAD_REPORT="+report)
	plain := e.plain(t, env, 30*time.Second, e.python, "preload_other.py")
	rep, res := e.wrapped(t, Options{Command: []string{e.python, "preload_other.py"}, Env: env})
	sameAsPlain(t, plain, res)
	if !strings.Contains(res.stdout, "OTHER_PRELOAD_SAW_WAITPID True") {
		t.Errorf("the other preload object did not work:\n%s", res.stdout)
	}
	got, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if want := other + ":" + e.shim; string(got) != want {
		t.Errorf("LD_PRELOAD = %q, want %q", got, want)
	}
	f := one(t, rep, "CFL001")
	wantLoc(t, "CFL001", f.Location, "preload_other.py", e.marker(t, "preload_other.py", "init"))
	// The program's waitpid went through the other object, then (RTLD_NEXT) the wrapper.
	for _, p := range rep.Tree.All {
		if p.Initializer != nil && p.End.Source != "wait" {
			t.Errorf("child %d: end learned from %q, want the parent's waitpid through both objects", p.PID, p.End.Source)
		}
	}
}

func TestDlsymCallerSemantics(t *testing.T) {
	t.Parallel()
	e := setup(t)
	_, res := e.scenario(t, time.Minute, e.python, "dlsym_semantics.py", e.libDir)
	if !strings.Contains(res.stdout, "RTLD_NEXT probe 0") || !strings.Contains(res.stdout, "RTLD_DEFAULT probe 1") {
		t.Errorf("dlsym answered differently for the caller:\n%s", res.stdout)
	}
}

func TestNoCUDAForks(t *testing.T) {
	t.Parallel()
	e := setup(t)
	rep, res := e.scenario(t, time.Minute, e.python, "cpu_forks.py", "100")
	if len(rep.Findings) != 0 || rep.ExitCode() != ExitClean || !strings.Contains(res.stdout, "TOTAL 100") {
		t.Errorf("findings %s, exit %d", codes(rep.Findings), rep.ExitCode())
	}
}

func TestStaticFindingsAreMatched(t *testing.T) {
	t.Parallel()
	e := setup(t)
	var gotPaths []string
	initLine := e.marker(t, "fork_use.py", "init")
	path := filepath.Join("testdata", "py", "fork_use.py")
	static := func(paths []string) ([]finding.Finding, error) {
		gotPaths = paths
		return []finding.Finding{
			{Code: "CFL001", Location: finding.Location{Path: path, Start: finding.Position{Line: initLine}}},
			{Code: "CFL002", Location: finding.Location{Path: path, Start: finding.Position{Line: 3}}},
			{Code: "CFL005", Location: finding.Location{Path: path, Start: finding.Position{Line: 2}}},
		}, nil
	}
	rep, _ := e.wrapped(t, Options{Command: []string{e.python, "fork_use.py"}, Static: static})
	if len(gotPaths) != 1 || gotPaths[0] != path {
		t.Errorf("static analysis got %v, want [%s]", gotPaths, path)
	}
	if len(rep.Findings) != 3 {
		t.Fatalf("findings %s, want the three static ones and nothing runtime-only", codes(rep.Findings))
	}
	// CFL005 concerns spawn children, and this run started none.
	for i, want := range []string{StatusConfirmed, StatusNotObserved, StatusNotObserved} {
		if rep.Findings[i].Status != want {
			t.Errorf("%s status %q, want %q", rep.Findings[i].Code, rep.Findings[i].Status, want)
		}
	}
	wantEvidence(t, rep.Findings[0], `(?m)^runtime CFL001: process \d+`, `exited with code 1`)
	if rep.ExitCode() != ExitHazard {
		t.Errorf("exit code %d", rep.ExitCode())
	}
}

func TestCtrlCKillsGroup(t *testing.T) {
	t.Parallel()
	e := setup(t)
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$", "--", e.python, "sleepers.py")
	cmd.Dir, cmd.Env = e.pyDir, e.env(helperEnv+"="+e.shim, "TMPDIR="+tmp)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "PIDS ") {
				lines <- sc.Text()
			}
		}
		close(lines)
	}()
	var pids []int
	select {
	case l := <-lines:
		for _, f := range strings.Fields(l)[1:] {
			pid, _ := strconv.Atoi(f)
			pids = append(pids, pid)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the fixture did not start:\n%s", errb.String())
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("verify did not exit after SIGINT:\n%s", errb.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != ExitNoVerdict {
		t.Errorf("verify exited %d after SIGINT, want %d:\n%s", code, ExitNoVerdict, errb.String())
	}
	// SIGKILL is delivered asynchronously: a child verify killed on its way
	// out may still be running for a moment (CI once saw one in state R,
	// reparented to init). One that ignores SIGINT and was never killed
	// sleeps far longer than the grace below.
	for _, pid := range pids {
		deadline := time.Now().Add(5 * time.Second)
		for {
			state, stat := procState(pid)
			if state == "" || state == "Z" || state == "X" {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("child %d (ignoring SIGINT) still alive: %s", pid, stat)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if !strings.Contains(errb.String(), "interrupt") {
		t.Errorf("the summary should say the program was interrupted:\n%s", errb.String())
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "cudaforklint-events-*")); len(left) != 0 {
		t.Errorf("event logs left behind after SIGINT: %v", left)
	}
}

// procState returns a process's state letter from /proc/PID/stat (R, S,
// Z...) and the whole line; "" when there is no such process.
func procState(pid int) (string, string) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", ""
	}
	s := string(b)
	if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 {
		return f[0], s
	}
	return "", s
}

func TestNoCompilerError(t *testing.T) {
	t.Setenv("PATH", "")
	t.Setenv("CC", "")
	_, err := EnsureShim(context.Background(), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "install a C compiler (e.g. apt-get install gcc) or pass --shim PATH") {
		t.Fatalf("err = %v", err)
	}
}

func TestEnsureShimBuildsOnceIntoCache(t *testing.T) {
	setup(t) // a compiler is there
	dir := t.TempDir()
	p1, err := EnsureShim(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	st1, err := os.Stat(p1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(filepath.Base(p1), shimKey()) {
		t.Errorf("%s is not keyed by the source hash %s", p1, shimKey())
	}
	p2, err := EnsureShim(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	st2, _ := os.Stat(p2)
	if p1 != p2 || !st1.ModTime().Equal(st2.ModTime()) {
		t.Errorf("the second call rebuilt the wrapper")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("cache holds %d entries, want the wrapper alone (no temporary files left)", len(ents))
	}
}
