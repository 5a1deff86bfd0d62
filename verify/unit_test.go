package verify

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/cudaforklint/cudaforklint/finding"
)

func TestParseEvents(t *testing.T) {
	log := `{"ev":"start","pid":10,"ppid":1,"t":5,"cwd":"/w","argv":["bash","-c","exec python3 m.py"]}
{"ev":"call","pid":10,"t":6,"fn":"cuInit","n":1,"rc":0,"py":"ensure","stack":[["/s/site-packages/torch/cuda/__init__.py",478,"_lazy_init"],["/w/m.py",8,"<module>"]],"skipped":3}
{"ev":"fork","pid":11,"t":7,"ppid":10,"cuda":1,"r
not json

{"ev":"wait","pid":10,"t":9,"child":11,"status":256}
`
	evs, bad, err := ParseEvents(strings.NewReader(log))
	if err != nil || bad != 2 || len(evs) != 3 {
		t.Fatalf("events %d, bad %d, err %v", len(evs), bad, err)
	}
	want := []Frame{{"/s/site-packages/torch/cuda/__init__.py", 478, "_lazy_init"}, {"/w/m.py", 8, "<module>"}}
	if !reflect.DeepEqual(evs[1].Stack, want) || evs[1].Skipped != 3 || *evs[1].RC != 0 {
		t.Errorf("call event %+v", evs[1])
	}
	if evs[2].Child != 11 || *evs[2].Status != 256 {
		t.Errorf("wait event %+v", evs[2])
	}
}

func ip(v int) *int { return &v }

// A log as the wrapper writes it for: bash -c 'exec python3 m.py' where python initializes CUDA,
// forks a child that fails, forks a child that execs at once, and a grandchild through a
// tainted child; then a reused pid.
func treeEvents() []Event {
	stack := []Frame{{"/s/site-packages/lib/init.py", 3, "init"}, {"/w/m.py", 8, "<module>"}}
	return []Event{
		{Ev: "start", PID: 10, PPID: 1, Argv: []string{"bash", "-c", "exec python3 m.py"}, Cwd: "/w"},
		{Ev: "start", PID: 10, PPID: 1, Argv: []string{"/usr/bin/python3", "m.py"}, Cwd: "/w"},
		{Ev: "call", PID: 10, Fn: "cuInit", N: 1, RC: ip(0), Stack: stack},
		{Ev: "fork", PID: 11, PPID: 10, CUDA: ip(1), RC: ip(0), Stack: []Frame{{"/usr/lib/python3.12/os.py", 1, "fork"}, {"/w/m.py", 12, "<module>"}}},
		{Ev: "enter", PID: 11, Fn: "cuMemAlloc_v2", N: 1, Stack: []Frame{{"/w/m.py", 5, "child"}}},
		{Ev: "call", PID: 11, Fn: "cuMemAlloc_v2", N: 1, RC: ip(3)},
		{Ev: "fork", PID: 13, PPID: 11, CUDA: ip(0), RC: ip(3), Tainted: 1},
		{Ev: "exit", PID: 11, Code: ip(1)},
		{Ev: "fork", PID: 12, PPID: 10, CUDA: ip(1), RC: ip(0)},
		{Ev: "start", PID: 12, PPID: 10, Argv: []string{"/bin/ls"}},
		{Ev: "wait", PID: 10, Child: 11, Status: ip(256)},
		{Ev: "wait", PID: 10, Child: 12, Status: ip(0)},
		{Ev: "fork", PID: 12, PPID: 10, CUDA: ip(1), RC: ip(0)}, // pid 12 reused
	}
}

func TestBuildTree(t *testing.T) {
	tr := BuildTree(treeEvents(), 10)
	root := tr.Root
	if root == nil || root.PID != 10 || len(root.Images) != 2 || !root.IsPython() || len(root.Calls) != 1 {
		t.Fatalf("root %+v", root)
	}
	if len(tr.All) != 5 || len(root.Children) != 3 {
		t.Fatalf("%d processes, root has %d children", len(tr.All), len(root.Children))
	}
	c11, c12, c12b := root.Children[0], root.Children[1], root.Children[2]
	if c11.Initializer != root || !c11.Images[0].Inherited || c11.Images[0].Argv[0] != "/usr/bin/python3" {
		t.Errorf("child 11: %+v", c11)
	}
	if len(c11.Calls) != 1 || !c11.Calls[0].Returned || c11.Calls[0].RC != 3 || len(c11.Calls[0].Stack) != 1 {
		t.Errorf("child 11's enter and call should be one returned call with the enter's stack: %+v", c11.Calls)
	}
	if c11.End.Kind != EndExited || c11.End.Code != 1 || c11.End.Source != "wait" {
		t.Errorf("child 11 end %+v", c11.End)
	}
	if g := c11.Children; len(g) != 1 || g[0].Initializer != root {
		t.Errorf("the grandchild forked by a tainted child inherits the root's CUDA: %+v", g)
	}
	if !c12.Execed() || len(c12.Images) != 2 || c12.End.Code != 0 {
		t.Errorf("child 12 exec'd: %+v", c12)
	}
	if c12b == c12 || c12b.PID != 12 || c12b.End.Kind != EndUnknown {
		t.Errorf("a reused pid is a new process: %+v", c12b)
	}
	tr.markRunning(map[int]procNow{12: {State: "S"}}, "timeout", 99)
	if c12b.End.Kind != EndRunning || c12b.End.Why != "timeout" || c12.End.Kind != EndExited {
		t.Errorf("markRunning: %+v / %+v", c12b.End, c12.End)
	}
}

func TestClassify(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "m.py")
	os.WriteFile(script, []byte(strings.Repeat("x = 1\n", 7)+"    torch.cuda.init()  # é\n"+strings.Repeat("y = 2\n", 10)), 0o644)
	evs := treeEvents()
	for i := range evs {
		for j := range evs[i].Stack {
			evs[i].Stack[j].File = strings.Replace(evs[i].Stack[j].File, "/w/", dir+"/", 1)
		}
	}
	fs := classify(BuildTree(evs, 10), []string{"RuntimeError: CUDA error: initialization error"}, dir)
	if len(fs) != 1 {
		t.Fatalf("findings %s", codes(fs))
	}
	f := fs[0]
	if f.Code != "CFL001" || f.Path != "m.py" || f.Start.Line != 8 || f.Start.Column != 5 || f.Start.Offset != 7*6+4 {
		t.Errorf("finding %+v", f)
	}
	if f.End.Column != len("    torch.cuda.init()  # é")+1 || f.End.UTF16Column != f.End.Column-1 {
		t.Errorf("end %+v", f.End)
	}
	for _, want := range []string{
		"cuInit returned CUDA_SUCCESS (0) at m.py:8 (via lib/init.py:3)",
		"pid 10 forked pid 11 at m.py:12 with CUDA initialized",
		"child 11: cuMemAlloc_v2 returned CUDA_ERROR_NOT_INITIALIZED (3) at m.py:5; exited with code 1",
		"exec'd another program at once",
		"the program printed: RuntimeError: CUDA error: initialization error",
	} {
		if !strings.Contains(strings.Join(f.Evidence, "\n"), want) {
			t.Errorf("evidence lacks %q:\n%s", want, strings.Join(f.Evidence, "\n"))
		}
	}
	if len(f.Related) != 2 || f.Related[0].Start.Line != 12 || f.Related[1].Start.Line != 5 {
		t.Errorf("related %+v", f.Related)
	}
}

func TestClassifyVerdicts(t *testing.T) {
	base := []Event{
		{Ev: "start", PID: 10, PPID: 1, Argv: []string{"python3", "m.py"}, Cwd: "/w"},
		{Ev: "call", PID: 10, Fn: "cuInit", N: 1, RC: ip(0), Stack: []Frame{{"/w/m.py", 8, "<module>"}}},
		{Ev: "fork", PID: 11, PPID: 10, CUDA: ip(1), RC: ip(0)},
	}
	cases := []struct {
		name   string
		extra  []Event
		argv   []string
		output []string
		want   string
	}{
		{"child never touches CUDA", []Event{{Ev: "wait", PID: 10, Child: 11, Status: ip(0)}}, nil, nil, "CFL003"},
		{"torch refuses in Python: failure plus CUDA error output", []Event{{Ev: "wait", PID: 10, Child: 11, Status: ip(256)}}, nil,
			[]string{"RuntimeError: Cannot re-initialize CUDA in forked subprocess."}, "CFL001"},
		{"failure without CUDA output is not proof", []Event{{Ev: "wait", PID: 10, Child: 11, Status: ip(256)}}, nil, nil, "CFL003"},
		{"a fork guard's message alone", []Event{{Ev: "wait", PID: 10, Child: 11, Status: ip(0)}}, nil,
			[]string{"CHILD_EXIT 1 CudaDriverError: CUDA initialized before forking"}, "CFL001"},
		{"forkserver", []Event{{Ev: "wait", PID: 10, Child: 11, Status: ip(0)}},
			[]string{"python3", "-c", "from multiprocessing.forkserver import main; main(8, 9, ['m'])"}, nil, "CFL002"},
		{"child only execs", []Event{{Ev: "start", PID: 11, PPID: 10, Argv: []string{"/bin/true"}}}, nil, nil, ""},
		// Measured on the H200 (docs/verification.md): the jax children hang before any driver call.
		{"jax: a hung child after JAX's fork warning", []Event{{Ev: "wait", PID: 10, Child: 11, Status: ip(9)}}, nil,
			[]string{"/usr/lib/python3.12/multiprocessing/popen_fork.py:66: RuntimeWarning: os.fork() was called. os.fork() is incompatible with multithreaded code, and JAX is multithreaded, so this will likely lead to a deadlock."}, "CFL001"},
		{"jax: the warning alone, child fine", []Event{{Ev: "wait", PID: 10, Child: 11, Status: ip(0)}}, nil,
			[]string{"/usr/lib/python3.12/multiprocessing/popen_fork.py:66: RuntimeWarning: os.fork() was called. os.fork() is incompatible with multithreaded code, and JAX is multithreaded, so this will likely lead to a deadlock."}, "CFL003"},
		// A DataLoader worker exits 0 after handing torch's fork-guard error to the parent.
		{"torch: a DataLoader worker raised", []Event{{Ev: "wait", PID: 10, Child: 11, Status: ip(0)}}, nil,
			[]string{"CHILD_EXIT 1 RuntimeError Caught RuntimeError in DataLoader worker process 0."}, "CFL001"},
	}
	for _, c := range cases {
		evs := append(append([]Event{}, base...), c.extra...)
		if c.argv != nil {
			evs[0].Argv = c.argv
		}
		fs := classify(BuildTree(evs, 10), c.output, "/w")
		got := ""
		if len(fs) == 1 {
			got = fs[0].Code
		} else if len(fs) > 1 {
			got = codes(fs)
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
		if c.name == "failure without CUDA output is not proof" && len(fs) == 1 &&
			!strings.Contains(fs[0].Message, "1 failed or hung, which this run cannot tie to CUDA") {
			t.Errorf("%s: message %q", c.name, fs[0].Message)
		}
	}
}

func loc(path string, line int) finding.Location {
	return finding.Location{Path: path, Start: finding.Position{Line: line}}
}

func TestMatch(t *testing.T) {
	rt := func(code string, line int, related ...finding.Related) finding.Finding {
		return finding.Finding{Code: code, Message: code + " at run time", Location: loc("m.py", line), Related: related,
			Evidence: []string{"seen"}}
	}
	forkSite := finding.Related{Location: loc("m.py", 12), Message: "forked here"}
	cases := []struct {
		name    string
		static  []finding.Finding
		runtime []finding.Finding
		want    []string // code:status of the result, in order
	}{
		{"same code, init line", []finding.Finding{{Code: "CFL001", Location: loc("m.py", 8)}},
			[]finding.Finding{rt("CFL001", 8)}, []string{"CFL001:confirmed"}},
		{"static at the fork site", []finding.Finding{{Code: "CFL001", Location: loc("m.py", 12)}},
			[]finding.Finding{rt("CFL001", 8, forkSite)}, []string{"CFL001:confirmed"}},
		{"init line among static related", []finding.Finding{{Code: "CFL001", Location: loc("m.py", 20),
			Related: []finding.Related{{Location: loc("./m.py", 8)}}}},
			[]finding.Finding{rt("CFL001", 8)}, []string{"CFL001:confirmed"}},
		{"same file only", []finding.Finding{{Code: "CFL002", Location: loc("m.py", 30)}},
			[]finding.Finding{rt("CFL002", 8)}, []string{"CFL002:confirmed"}},
		{"static error, benign at run time", []finding.Finding{{Code: "CFL001", Location: loc("m.py", 8)}},
			[]finding.Finding{rt("CFL003", 8)}, []string{"CFL001:not observed"}},
		{"static benign, a child used CUDA", []finding.Finding{{Code: "CFL003", Location: loc("m.py", 8)}},
			[]finding.Finding{rt("CFL001", 8)}, []string{"CFL003:refuted", "CFL001:runtime only"}},
		{"families do not mix", []finding.Finding{{Code: "CFL002", Location: loc("m.py", 8)}},
			[]finding.Finding{rt("CFL001", 8)}, []string{"CFL002:not observed", "CFL001:runtime only"}},
		{"other codes untouched", []finding.Finding{{Code: "CFL005", Location: loc("m.py", 8)}},
			[]finding.Finding{}, []string{"CFL005:"}},
		{"two static findings, one init", []finding.Finding{{Code: "CFL001", Location: loc("m.py", 8)}, {Code: "CFL001", Location: loc("m.py", 8)}},
			[]finding.Finding{rt("CFL001", 8)}, []string{"CFL001:confirmed", "CFL001:confirmed"}},
		{"other file", []finding.Finding{{Code: "CFL001", Location: loc("other.py", 8)}},
			[]finding.Finding{rt("CFL001", 8)}, []string{"CFL001:not observed", "CFL001:runtime only"}},
	}
	for _, c := range cases {
		out := match(c.static, c.runtime, "/w")
		var got []string
		for _, f := range out {
			got = append(got, f.Code+":"+f.Status)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
		if len(out) > 0 && out[0].Status == StatusConfirmed && len(out[0].Evidence) < 2 {
			t.Errorf("%s: a confirmed finding carries the runtime evidence: %v", c.name, out[0].Evidence)
		}
	}
}

func TestExitCode(t *testing.T) {
	hazard := []finding.Finding{{Code: "CFL001", Status: StatusRuntimeOnly}}
	cases := []struct {
		r    Report
		want int
	}{
		{Report{}, ExitClean},
		{Report{Findings: hazard}, ExitHazard},
		{Report{Findings: hazard, ExitStatus: 1, TimedOut: true}, ExitHazard},
		{Report{Findings: []finding.Finding{{Code: "CFL002", Status: StatusConfirmed}}}, ExitHazard},
		{Report{Findings: []finding.Finding{{Code: "CFL001", Status: StatusNotObserved}}}, ExitClean},
		{Report{Findings: []finding.Finding{{Code: "CFL003", Status: StatusRuntimeOnly}}}, ExitClean},
		{Report{ExitStatus: 1}, ExitNoVerdict},
		{Report{TimedOut: true}, ExitNoVerdict},
		{Report{Interrupted: true}, ExitNoVerdict},
	}
	for i, c := range cases {
		if got := c.r.ExitCode(); got != c.want {
			t.Errorf("case %d: %d, want %d", i, got, c.want)
		}
	}
}

func TestWithWrapper(t *testing.T) {
	env := withWrapper([]string{"A=1", "LD_PRELOAD=/x/a.so /x/b.so", LogEnv + "=/old"}, "/c/shim.so", "/tmp/log")
	want := []string{"A=1", "LD_PRELOAD=/x/a.so /x/b.so:/c/shim.so", LogEnv + "=/tmp/log"}
	if !reflect.DeepEqual(env, want) {
		t.Errorf("got %v", env)
	}
	env = withWrapper([]string{"A=1"}, "/c/shim.so", "/tmp/log")
	if env[1] != "LD_PRELOAD=/c/shim.so" {
		t.Errorf("got %v", env)
	}
}

func TestPythonScriptAndFrames(t *testing.T) {
	for argv, want := range map[string]string{
		"/usr/bin/python3 -u -W ignore main.py --x": "main.py",
		"python3.12 -c pass":                        "",
		"python -m pkg.mod":                         "",
		"bash main.py":                              "",
		"python3 -X dev a/b.py":                     "a/b.py",
	} {
		if got := pythonScript(strings.Fields(argv)); got != want {
			t.Errorf("%q: %q, want %q", argv, got, want)
		}
	}
	stack := []Frame{
		{"/opt/py/lib/python3.12/site-packages/jax/_src/xla_bridge.py", 911, "backends"},
		{"/usr/lib/python3.12/multiprocessing/process.py", 108, "run"},
		{"<frozen runpy>", 88, "_run_code"},
		{"/home/u/proj/train.py", 40, "main"},
		{"/home/u/proj/run.py", 3, "<module>"},
	}
	if f, ok := userFrame(stack); !ok || f.File != "/home/u/proj/train.py" {
		t.Errorf("user frame %v", f)
	}
	if got := libPath(stack[0]); got != "jax/_src/xla_bridge.py:911" {
		t.Errorf("libPath %s", got)
	}
	if got := libPath(stack[1]); got != "multiprocessing/process.py:108" {
		t.Errorf("libPath %s", got)
	}
}

func TestPickCompiler(t *testing.T) {
	look := func(name string) (string, error) {
		if name == "gcc" {
			return "/usr/bin/gcc", nil
		}
		return "", os.ErrNotExist
	}
	cc, err := pickCompiler([][]string{{"clang-99", "-m64"}, nil, {"gcc"}}, look)
	if err != nil || !reflect.DeepEqual(cc, []string{"/usr/bin/gcc"}) {
		t.Errorf("cc %v err %v", cc, err)
	}
	cc, err = pickCompiler([][]string{{"x86_64-linux-gnu-gcc", "-m64"}}, func(string) (string, error) { return "/bin/x", nil })
	if err != nil || !reflect.DeepEqual(cc, []string{"/bin/x", "-m64"}) {
		t.Errorf("flags of go env CC are kept: %v", cc)
	}
	if _, err := pickCompiler([][]string{{"cc"}}, look); err != ErrNoCompiler {
		t.Errorf("err %v", err)
	}
}

func TestEndFromStatus(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   End
	}{
		{0, End{Kind: EndExited, Code: 0}},
		{3 << 8, End{Kind: EndExited, Code: 3}},
		{255 << 8, End{Kind: EndExited, Code: 255}},
		{134, End{Kind: EndSignaled, Signal: syscall.SIGABRT, Core: true}}, // 0x80 | 6
		{9, End{Kind: EndSignaled, Signal: syscall.SIGKILL}},
		{0x137f, End{}}, // stopped by SIGSTOP: not an end
	} {
		if got := endFromStatus(tc.status, 0); got != tc.want {
			t.Errorf("endFromStatus(%#x) = %+v, want %+v", tc.status, got, tc.want)
		}
	}
}

func TestOutputLines(t *testing.T) {
	out := &outputLines{}
	var sink strings.Builder
	tee := &lineTee{dst: &sink, out: out}
	text := "Traceback (most recent call last):\n" +
		"  File \"/w/m.py\", line 5, in child\n" +
		"    raise CudaError(\"cuInit failed\")\n" +
		"DeprecationWarning: This process is multi-threaded, use of fork() may lead to deadlocks\n" +
		"RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method\r\n" +
		"F1202 11:49:14.858671    4989 cuda_context.cc:190] Check failed: cuda::ToStatus(result, \"Failed setting context\") is OK\n" +
		"cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorInitializationError: initialization error\n" +
		"RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method\n" +
		"partial CUDA err"
	// Written in pieces that split lines, as a pipe delivers them.
	for i := 0; i < len(text); i += 7 {
		j := min(i+7, len(text))
		if _, err := tee.Write([]byte(text[i:j])); err != nil {
			t.Fatal(err)
		}
	}
	if sink.String() != text {
		t.Errorf("the output was not passed through unchanged")
	}
	got := out.snapshot()
	if len(got) != 3 || !strings.HasPrefix(got[0], "RuntimeError: Cannot re-initialize CUDA") ||
		!strings.HasPrefix(got[1], "F1202") || !strings.HasPrefix(got[2], "cupy_backends") {
		t.Errorf("kept %q", got)
	}
	if !forkSignatureRe.MatchString(got[0]) || forkSignatureRe.MatchString(got[1]) || !forkSignatureRe.MatchString(got[2]) {
		t.Errorf("fork signatures: %q", got)
	}
}

// A log with what the wrapper cannot see and children that end in every way: root python
// (pid 10) forks 11, which tries to exec and fails, then _exits 255; a vfork child 12 execs a
// spawn child; 13 is terminated by its parent; 14 crashes; 15 is killed once the run ended
// things, 16 exits 1 after that; 99 is reaped without a record; last the root execs a program
// without the wrapper.
func verdictEvents() []Event {
	py := []string{"/usr/bin/python3", "m.py"}
	spawn := []string{"/usr/bin/python3", "-c", "from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=5, pipe_handle=7)", "--multiprocessing-fork"}
	return []Event{
		{Ev: "start", PID: 10, PPID: 1, T: 1, Argv: py, Cwd: "/w", St: 500},
		{Ev: "fork", PID: 11, PPID: 10, T: 2, CUDA: ip(-1), St: 501},
		{Ev: "exec", PID: 11, PPID: 10, T: 3, Path: "/nonexistent", Keeps: ip(1), Argv: []string{"/nonexistent"}},
		{Ev: "execfail", PID: 11, T: 4, Errno: 2},
		{Ev: "exit", PID: 11, T: 5, Code: ip(255)},
		{Ev: "wait", PID: 10, T: 6, Child: 11, Status: ip(255 << 8)},
		{Ev: "exec", PID: 12, PPID: 10, T: 7, Path: "/usr/bin/python3", Keeps: ip(1), Argv: spawn, St: 502},
		{Ev: "start", PID: 12, PPID: 10, T: 8, Argv: spawn, Cwd: "/w", St: 502},
		{Ev: "wait", PID: 10, T: 9, Child: 12, Status: ip(1 << 8)},
		{Ev: "fork", PID: 13, PPID: 10, T: 10, CUDA: ip(-1), St: 503},
		{Ev: "kill", PID: 10, T: 11, Target: 13, Sig: 15},
		{Ev: "wait", PID: 10, T: 12, Child: 13, Status: ip(15)},
		{Ev: "fork", PID: 14, PPID: 10, T: 13, CUDA: ip(-1), St: 504},
		{Ev: "wait", PID: 10, T: 14, Child: 14, Status: ip(11 | 0x80)},
		{Ev: "fork", PID: 15, PPID: 10, T: 15, CUDA: ip(-1), St: 505},
		{Ev: "wait", PID: 10, T: 101, Child: 15, Status: ip(9)},
		{Ev: "fork", PID: 16, PPID: 10, T: 16, CUDA: ip(-1), St: 506},
		{Ev: "wait", PID: 10, T: 101, Child: 16, Status: ip(1 << 8)}, // KeyboardInterrupt after a forwarded Ctrl-C
		{Ev: "wait", PID: 10, T: 102, Child: 99, Status: ip(0)},
		{Ev: "exec", PID: 10, PPID: 1, T: 103, Path: "/bin/static", Keeps: ip(0), Argv: []string{"static"}},
	}
}

func TestBuildTreeExecsAndKills(t *testing.T) {
	tr := BuildTree(verdictEvents(), 10)
	root := tr.Root
	if root.PID != 10 || root.Lost == nil || root.Lost.Keeps || root.Lost.Path != "/bin/static" || root.Start != 500 {
		t.Fatalf("root %+v", root)
	}
	byPID := map[int]*Process{}
	for _, p := range tr.All {
		byPID[p.PID] = p
	}
	if p := byPID[11]; p.Lost != nil || !p.TriedExec || p.End.Code != 255 {
		t.Errorf("11: a failed exec is not lost: %+v", p)
	}
	if p := byPID[12]; p.Parent != root || len(p.Images) != 1 || p.TriedExec || p.Lost != nil || p.Start != 502 {
		t.Errorf("12: a vfork child's exec and start make one image: %+v", p)
	}
	if p := byPID[99]; p == nil || !p.Unseen || p.Parent != root || p.End.Kind != EndExited {
		t.Errorf("99: a child reaped without a record: %+v", p)
	}
	if len(tr.Kills) != 1 || tr.Kills[0].From != root || tr.Kills[0].Target != 13 || tr.Kills[0].Sig != syscall.SIGTERM {
		t.Errorf("kills %+v", tr.Kills)
	}
	// The root of a run whose command never loaded the wrapper is a stand-in that adopts the
	// processes it started.
	orphan := []Event{{Ev: "start", PID: 21, PPID: 20, T: 1, Argv: []string{"python3", "m.py"}}}
	tr = BuildTree(orphan, 20)
	if !tr.Root.Unseen || tr.Root.PID != 20 || len(tr.Root.Children) != 1 || tr.Root.Children[0].PID != 21 || len(tr.All) != 2 {
		t.Errorf("stand-in root %+v", tr.Root)
	}
}

// TestSystemToolsAreNoBlindSpot: ctypes.util.find_library's `ldconfig -p`, exec'd with an
// environment without the wrapper, leaves nothing unseen; any other program exec'd that way does.
func TestSystemToolsAreNoBlindSpot(t *testing.T) {
	for _, tc := range []struct {
		path  string
		keeps int
		blind bool
	}{
		{"/sbin/ldconfig", 0, false},
		{"/usr/sbin/ldconfig.real", 0, false},
		{"/sbin/ldconfig", 1, true}, // kept the wrapper yet never started: static or setuid, not ctypes
		{"/tmp/ldconfig", 0, true},
		{"/usr/bin/python3", 0, true},
	} {
		evs := []Event{
			{Ev: "start", PID: 10, PPID: 1, T: 1, Argv: []string{"/usr/bin/python3", "m.py"}, Cwd: "/w", St: 500},
			{Ev: "fork", PID: 11, PPID: 10, T: 2, CUDA: ip(-1), St: 501},
			{Ev: "exec", PID: 11, PPID: 10, T: 3, Path: tc.path, Keeps: ip(tc.keeps), Argv: []string{tc.path, "-p"}},
			{Ev: "wait", PID: 10, T: 4, Child: 11, Status: ip(0)},
			{Ev: "exit", PID: 10, T: 5, Code: ip(0)},
		}
		blind := blindSpots(BuildTree(evs, 10), nil, false)
		if got := len(blind) == 1 && blind[0].PID == 11; got != tc.blind || len(blind) > 1 {
			t.Errorf("exec of %s (keeps %d): blind spots %+v, want one: %v", tc.path, tc.keeps, blind, tc.blind)
		}
	}
}

func TestBlindSpotsAndFailedChildren(t *testing.T) {
	tr := BuildTree(verdictEvents(), 10)
	tr.markRunning(map[int]procNow{}, "left running", 100)
	blind := blindSpots(tr, nil, false)
	if len(blind) != 2 || blind[0].PID != 10 || !strings.Contains(blind[0].Why, "dropped the wrapper") ||
		blind[1].PID != 99 || !strings.Contains(blind[1].Why, "reaped child 99 (exited 0), which never loaded the wrapper") {
		t.Errorf("blind spots %+v", blind)
	}
	// 11 tried to exec (the subprocess pattern), 13 was terminated by its parent, 15 and 16 ended
	// after the run began ending things: none of them failed on its own.
	var got []string
	for _, c := range failedChildren(tr) {
		got = append(got, fmt.Sprintf("%d %s %s", c.PID, c.How, c.End))
	}
	want := []string{"12 spawn exited 1", "14 fork killed by SIGSEGV (core dumped)"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("failed children %q, want %q", got, want)
	}
	unseen := BuildTree(nil, 7)
	b := blindSpots(unseen, []string{"ERROR: ld.so: object '/x/notes.txt' from LD_PRELOAD cannot be preloaded (invalid ELF header): ignored."}, false)
	if len(b) != 1 || !strings.Contains(b[0].Why, "the dynamic loader said: ERROR: ld.so: object '/x/notes.txt'") {
		t.Errorf("blind spots of a run nothing saw: %+v", b)
	}
}

func TestExitCodePrecedence(t *testing.T) {
	hazard := []finding.Finding{{Code: "CFL005", Status: StatusConfirmed}}
	blind := []BlindSpot{{PID: 1, Why: "x"}}
	failed := []ChildFailure{{PID: 2, How: "spawn", End: "exited 1"}}
	cases := []struct {
		r    Report
		want int
	}{
		{Report{Findings: hazard, BlindSpots: blind, FailedChildren: failed}, ExitHazard},
		{Report{BlindSpots: blind, FailedChildren: failed, ExitStatus: 1}, ExitToolError},
		{Report{FailedChildren: failed}, ExitNoVerdict},
		{Report{Findings: []finding.Finding{{Code: "CFL004", Status: StatusConfirmed}}}, ExitClean},
		{Report{Findings: []finding.Finding{{Code: "CFL003", Status: StatusRefuted}}}, ExitClean},
		// A process the root left running was ended before it finished: not a pass; one a
		// timeout cut short is the timeout's.
		{Report{Unfinished: []Unfinished{{PID: 3, Why: "left running", Doing: "sleeping"}}}, ExitToolError},
		{Report{Unfinished: []Unfinished{{PID: 3, Why: "left running", Doing: "sleeping"}}, FailedChildren: failed}, ExitToolError},
		{Report{TimedOut: true, Unfinished: []Unfinished{{PID: 3, Why: "timeout", Doing: "sleeping"}}}, ExitNoVerdict},
	}
	for i, c := range cases {
		if got := c.r.ExitCode(); got != c.want {
			t.Errorf("case %d: %d, want %d", i, got, c.want)
		}
		v := c.r.Verdict()
		if !strings.Contains(v, fmt.Sprintf("(exit %d)", c.want)) {
			t.Errorf("case %d: verdict %q", i, v)
		}
		if len(c.r.Unfinished) > 0 && !strings.Contains(v, "process 3 (?; sleeping)") {
			t.Errorf("case %d: verdict %q does not name the unfinished process", i, v)
		}
	}
	// The verdict's words agree with the number of processes ended.
	for _, c := range []struct {
		pids []int
		want string
	}{
		{[]int{3}, "1 process was still running after the program's root exited, and verify ended it before it finished: process 3 "},
		{[]int{3, 4}, "2 processes were still running after the program's root exited, and verify ended them before they finished: process 3 "},
	} {
		var r Report
		for _, pid := range c.pids {
			r.Unfinished = append(r.Unfinished, Unfinished{PID: pid, Why: "left running", Doing: "sleeping"})
		}
		if v := r.Verdict(); !strings.Contains(v, c.want) {
			t.Errorf("%d unfinished: verdict %q, want it to say %q", len(c.pids), v, c.want)
		}
	}
}

func TestJudgeReimports(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "m.py")
	os.WriteFile(script, []byte("import torch\ntorch.cuda.init()\n"), 0o644)
	spawn := []string{"python3", "-c", "from multiprocessing.spawn import spawn_main; spawn_main(tracker_fd=5, pipe_handle=7)", "--multiprocessing-fork"}
	evs := []Event{
		{Ev: "start", PID: 10, PPID: 1, Argv: []string{"python3", "m.py"}, Cwd: dir},
		{Ev: "start", PID: 11, PPID: 10, Argv: spawn, Cwd: dir},
		{Ev: "call", PID: 11, Fn: "cuInit", N: 1, RC: ip(0), Stack: []Frame{
			{filepath.Join(dir, "m.py"), 2, "<module>"}, {"<frozen runpy>", 88, "_run_code"}}},
		{Ev: "wait", PID: 10, Child: 11, Status: ip(1 << 8)},
	}
	static := func(code string) []finding.Finding {
		return []finding.Finding{{Code: code, Location: loc("m.py", 2)}}
	}
	fs := static("CFL004")
	judgeReimports(fs, BuildTree(evs, 10), false, dir)
	if fs[0].Status != StatusConfirmed || !strings.Contains(strings.Join(fs[0].Evidence, "\n"), "ran m.py's top level again and called cuInit at m.py:2") {
		t.Errorf("CFL004: %s %q", fs[0].Status, fs[0].Evidence)
	}
	for _, bootstrap := range []bool{false, true} {
		fs = static("CFL005")
		judgeReimports(fs, BuildTree(evs, 10), bootstrap, dir)
		want := StatusNotObserved
		if bootstrap {
			want = StatusConfirmed
		}
		if fs[0].Status != want {
			t.Errorf("CFL005 with the bootstrapping error printed %v: %s %q", bootstrap, fs[0].Status, fs[0].Evidence)
		}
	}
	// No child imported the file again.
	fs = append(static("CFL004"), static("CFL005")...)
	judgeReimports(fs, BuildTree(evs[:1], 10), true, dir)
	for _, f := range fs {
		if f.Status != StatusNotObserved || !strings.Contains(strings.Join(f.Evidence, "\n"), "no spawn or forkserver child imported m.py again") {
			t.Errorf("%s: %s %q", f.Code, f.Status, f.Evidence)
		}
	}
}

func TestSummaryDrawsSiblings(t *testing.T) {
	evs := []Event{{Ev: "start", PID: 10, PPID: 1, Argv: []string{"python3", "m.py"}}}
	for _, pid := range []int{11, 12, 13, 16, 17} { // 13, 16, 17: like leaves, too few to fold
		evs = append(evs, Event{Ev: "fork", PID: pid, PPID: 10, CUDA: ip(-1)})
	}
	evs = append(evs, Event{Ev: "fork", PID: 14, PPID: 11, CUDA: ip(-1)})
	for pid := 20; pid < 26; pid++ { // six like leaves under 12: folded
		evs = append(evs, Event{Ev: "fork", PID: pid, PPID: 12, CUDA: ip(-1)})
	}
	r := &Report{Command: []string{"python3", "m.py"}, Tree: BuildTree(evs, 10)}
	var lines []string
	for _, l := range strings.Split(r.Summary(), "\n") {
		if i := strings.Index(l, " fork of"); i >= 0 {
			lines = append(lines, l[:i])
		}
	}
	want := []string{
		"  ├─ 11",
		"  │  └─ 14",
		"  ├─ 12",
		"  │  ├─ 20",
		"  ├─ 13",
		"  ├─ 16",
		"  └─ 17",
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("tree:\n%s\nwant:\n%s\nsummary:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"), r.Summary())
	}
	if !strings.Contains(r.Summary(), "  │  └─ … and 5 more like it (pids 21 to 25)") {
		t.Errorf("the folded siblings:\n%s", r.Summary())
	}
}

func TestOutputLinesKinds(t *testing.T) {
	out := &outputLines{}
	for _, l := range []string{
		"ERROR: ld.so: object '/x/notes.txt' from LD_PRELOAD cannot be preloaded (invalid ELF header): ignored.",
		"RuntimeError: context has already been set",
		"RuntimeError: ",
		"        current process has finished its bootstrapping phase.",
		"RuntimeError: CUDA error: initialization error",
		"    raise ValueError('x')",
		"SystemExit: 3",
	} {
		out.add(l)
	}
	exc, preload, bootstrap := out.others()
	if want := []string{"RuntimeError: context has already been set", "RuntimeError: ", "SystemExit: 3"}; !reflect.DeepEqual(exc, want) {
		t.Errorf("exceptions %q, want %q", exc, want)
	}
	if len(preload) != 1 || !bootstrap || !reflect.DeepEqual(out.snapshot(), []string{"RuntimeError: CUDA error: initialization error"}) {
		t.Errorf("preload %q, bootstrap %v, cuda %q", preload, bootstrap, out.snapshot())
	}
}

func TestLiveRecorded(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	pid := cmd.Process.Pid
	_, _, start, ok := procStat(pid)
	if !ok || start <= 0 {
		t.Fatalf("procStat(%d): %d %v", pid, start, ok)
	}
	log := filepath.Join(t.TempDir(), "events.jsonl")
	write := func(st int64) {
		rec := fmt.Sprintf(`{"ev":"start","pid":%d,"ppid":1,"t":1,"st":%d,"argv":["sleep"]}`+"\n", pid, st)
		if err := os.WriteFile(log, []byte(rec), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(start)
	if got := liveRecorded(log, syscall.Getpgrp()); got[pid].State == "" || len(got) != 1 {
		t.Errorf("liveRecorded = %v, want pid %d", got, pid)
	}
	write(start + 1) // another process that had this pid
	if got := liveRecorded(log, syscall.Getpgrp()); len(got) != 0 {
		t.Errorf("a reused pid was taken for the recorded process: %v", got)
	}
	write(start)
	if got := liveRecorded(log, pid); len(got) != 0 { // a member of the group is the group's business
		t.Errorf("a group member was reported: %v", got)
	}
}

func TestCheckSharedObject(t *testing.T) {
	e := setup(t)
	if err := checkSharedObject(e.shim); err != nil {
		t.Errorf("the wrapper: %v", err)
	}
	if err := checkSharedObject(e.static); err == nil || !strings.Contains(err.Error(), "an ELF EXEC, not a shared library") {
		t.Errorf("a static program: %v", err)
	}
	if err := checkSharedObject("verify.go"); err == nil || !strings.Contains(err.Error(), "not an ELF shared library") {
		t.Errorf("a text file: %v", err)
	}
}

// TestNoRuleCodeLiterals: verify names rules through package ruledoc (ruledoc.CFL001.Code …), so
// that a code exists in one place and a misspelt one does not compile; no string literal of the
// package's own code holds a rule code.
func TestNoRuleCodeLiterals(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	code := regexp.MustCompile(`CFL\d{3}`)
	files := 0
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			files++
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && code.MatchString(lit.Value) {
					t.Errorf("%s: rule code in a string literal %s: use ruledoc", fset.Position(lit.Pos()), lit.Value)
				}
				return true
			})
		}
	}
	if files < 5 {
		t.Fatalf("parsed %d files of the package, want all of them", files)
	}
}

// TestSignalsSentByTheProgram: a child that died of a signal another process of the program sent
// it was ended on purpose (Pool.terminate, Popen.kill) and did not fail; one that sent the signal
// to itself did.
func TestSignalsSentByTheProgram(t *testing.T) {
	for _, tc := range []struct {
		name              string
		from, target, sig int
		died              syscall.Signal
		failed            bool
	}{
		{"the parent terminates its worker", 10, 11, 15, syscall.SIGTERM, false},
		{"the parent kills its own process group", 10, 0, 9, syscall.SIGKILL, false},
		{"the child kills itself", 11, 11, 9, syscall.SIGKILL, true},
		{"the child kills its own process group", 11, 0, 9, syscall.SIGKILL, true},
		{"the parent sent another signal than the one it died of", 10, 11, 15, syscall.SIGKILL, true},
	} {
		evs := []Event{
			{Ev: "start", PID: 10, PPID: 1, T: 1, Argv: []string{"/usr/bin/python3", "m.py"}, Cwd: "/w", St: 500},
			{Ev: "fork", PID: 11, PPID: 10, T: 2, CUDA: ip(-1), St: 501},
			{Ev: "kill", PID: tc.from, T: 3, Target: tc.target, Sig: tc.sig},
			{Ev: "wait", PID: 10, T: 4, Child: 11, Status: ip(int(tc.died))},
			{Ev: "exit", PID: 10, T: 5, Code: ip(0)},
		}
		failed := failedChildren(BuildTree(evs, 10))
		if got := len(failed) == 1 && failed[0].PID == 11; got != tc.failed || len(failed) > 1 {
			t.Errorf("%s: failed children %+v, want child 11 failed: %v", tc.name, failed, tc.failed)
		}
	}
}

// TestCUDAUnobserved: the run could not observe CUDA when the driver failed everywhere the program
// asked for it; not when some process initialized it, nor when the program never asked.
func TestCUDAUnobserved(t *testing.T) {
	py := []string{"/usr/bin/python3", "m.py"}
	start := Event{Ev: "start", PID: 10, PPID: 1, T: 1, Argv: py, Cwd: "/w", St: 500}
	load := func(pid, ok int) Event {
		return Event{Ev: "dlopen", PID: pid, T: 2, Path: "libcuda.so.1", OK: ip(ok)}
	}
	cuInit := func(pid, rc int) Event { return Event{Ev: "call", PID: pid, T: 3, Fn: "cuInit", N: 1, RC: ip(rc)} }
	for _, tc := range []struct {
		name string
		evs  []Event
		want string // a prefix; "" when CUDA was observable or never asked for
	}{
		{"no driver library", []Event{start, load(10, 0), load(10, 0)},
			"process 10 (python3 m.py) could not load the driver library (dlopen of libcuda.so.1 failed)"},
		{"a driver without a device", []Event{start, load(10, 1), cuInit(10, 100)},
			"cuInit returned CUDA_ERROR_NO_DEVICE (100) in process 10 (python3 m.py)"},
		{"the toolkit's stub", []Event{start, cuInit(10, 34)}, "cuInit returned CUDA_ERROR_STUB_LIBRARY (34) in process 10"},
		{"one name failed, the next loaded", []Event{start, load(10, 0), load(10, 1)}, ""},
		{"loaded in the parent, seen at a fork", []Event{start, load(11, 0),
			{Ev: "fork", PID: 11, PPID: 10, T: 2, CUDA: ip(0), St: 501}}, ""},
		{"initialized", []Event{start, load(10, 1), cuInit(10, 0)}, ""},
		{"initialized, and refused in the forked child", []Event{start, cuInit(10, 0),
			{Ev: "fork", PID: 11, PPID: 10, T: 4, CUDA: ip(1), RC: ip(0), St: 501}, cuInit(11, 3)}, ""},
		{"never asked for the driver", []Event{start, {Ev: "exit", PID: 10, T: 5, Code: ip(0)}}, ""},
	} {
		got := cudaUnobserved(BuildTree(tc.evs, 10))
		if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
