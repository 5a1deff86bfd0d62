package verify

import (
	"fmt"
	"regexp"
	"strings"
)

// BlindSpot is a part of the run the wrapper did not see: a program image that never loaded it.
// A run with one proves nothing about that part, so it cannot pass (ExitCode).
type BlindSpot struct {
	PID  int      `json:"pid"`
	Argv []string `json:"argv,omitempty"`
	// Why says what happened, in words.
	Why string `json:"why"`
}

// blindSpots lists the processes whose images the wrapper did not see, in creation order.
// preloadErrors are the dynamic loader's complaints the program printed ("ld.so: object ...
// cannot be preloaded"), which say why the root did not load it. When the run was interrupted
// or timed out (ended), a process whose end was not seen died with the run, which its verdict
// already says did not finish (exit 3): it is no blind spot of the wrapper's.
func blindSpots(t *Tree, preloadErrors []string, ended bool) []BlindSpot {
	var out []BlindSpot
	for _, p := range t.All {
		switch {
		case p == t.Root && p.Unseen:
			why := "the command never loaded the wrapper (a statically linked or setuid program, or a --shim that is not cudaforklint's wrapper)"
			if len(preloadErrors) > 0 {
				why = "the command never loaded the wrapper; the dynamic loader said: " + preloadErrors[0]
			}
			out = append(out, BlindSpot{PID: p.PID, Why: why})
		case p.Unseen:
			parent := "a process"
			if p.Parent != nil {
				parent = fmt.Sprintf("process %d (%s)", p.Parent.PID, shortArgv(p.Parent.Image().Argv))
			}
			out = append(out, BlindSpot{PID: p.PID, Why: fmt.Sprintf(
				"%s reaped child %d (%s), which never loaded the wrapper (started by posix_spawn or clone with an environment without it, or a statically linked program)",
				parent, p.PID, endText(p.End))})
		case p.Lost != nil && !p.Lost.Keeps && systemTools[p.Lost.Path]:
			// Not seen, and nothing to see: the tree still shows it as not seen.
		case p.Lost != nil:
			x := p.Lost
			why := fmt.Sprintf("process %d exec'd %s, which never loaded the wrapper (a statically linked or setuid program)", p.PID, x.Path)
			if !x.Keeps {
				why = fmt.Sprintf("process %d exec'd %s with an environment that dropped the wrapper (LD_PRELOAD or %s was removed or changed), so what it did was not seen", p.PID, x.Path, LogEnv)
			}
			out = append(out, BlindSpot{PID: p.PID, Argv: x.Argv, Why: why})
		case p != t.Root && p.End.Kind == EndUnknown && !ended:
			// Its parent reaps it with the wrapper, and exit and _exit record their code; no
			// record is left by a process that died of a signal after its parent had gone (an
			// orphan is reaped outside the program), so whether it succeeded was not seen.
			out = append(out, BlindSpot{PID: p.PID, Argv: p.Image().Argv, Why: fmt.Sprintf(
				"process %d (%s): its end was not seen: no process of the program reaped it (its parent had exited or never waited for it) and it recorded no exit, so it likely died of a signal",
				p.PID, shortArgv(p.Image().Argv))})
		}
	}
	return out
}

// systemTools are the programs a run may exec with an environment that drops the wrapper and
// still pass: they run none of the program's code and load no CUDA library. Python's
// ctypes.util.find_library runs `/sbin/ldconfig -p` with an environment of LC_ALL and LANG alone,
// and cupy, numba-cuda and cuda.core call it when they are imported; on the H200 (2026-12-02) that
// made every clean run of theirs "not verified". Only the system's own paths count: a program
// that merely calls itself ldconfig is still a blind spot.
var systemTools = map[string]bool{
	"/sbin/ldconfig":          true,
	"/sbin/ldconfig.real":     true, // Debian and Ubuntu: /sbin/ldconfig is a script that execs it
	"/usr/sbin/ldconfig":      true,
	"/usr/sbin/ldconfig.real": true,
}

// ChildFailure is a process that ran the program's own code, other than the root, and failed:
// exited non-zero or died of a signal nobody in the program sent it.
type ChildFailure struct {
	PID  int      `json:"pid"`
	Argv []string `json:"argv"`
	// How is the kind of child: "fork", "spawn", "forkserver" or "multiprocessing".
	How string `json:"how"`
	// End says how it ended: "exited 1", "killed by SIGSEGV (core dumped)".
	End string `json:"end"`
}

func (c ChildFailure) String() string {
	return fmt.Sprintf("%s child %d (%s) %s", c.How, c.PID, shortArgv(c.Argv), c.End)
}

// multiprocessingRe matches the command lines of the Python processes multiprocessing (and
// loky, joblib's) start to run the program's code: spawn children, the forkserver, and loky's
// workers.
var multiprocessingRe = regexp.MustCompile(`from multiprocessing\.(spawn|forkserver) import|loky\.backend\.popen_loky`)

// childKind says whether p runs the program's own code, and how it was started: a fork of a
// Python process that did not exec, or a Python process multiprocessing started. Other programs
// the program runs (a shell helper, `python -c` probes) report their failure to it as an exit
// status it may well expect.
func childKind(p *Process) (string, bool) {
	if p.Unseen || p.Lost != nil || p.TriedExec || !p.IsPython() {
		return "", false
	}
	img := p.Image()
	if img.Inherited {
		if p.Parent != nil && p.Parent.IsForkserver() {
			return "forkserver", true
		}
		return "fork", true
	}
	if m := multiprocessingRe.FindStringSubmatch(strings.Join(img.Argv, " ")); m != nil {
		switch m[1] {
		case "spawn":
			return "spawn", true
		case "forkserver":
			return "forkserver", true
		}
		return "multiprocessing", true
	}
	return "", false
}

// failedChildren are the children that ran the program's code and failed on their own: not
// killed by a signal a process of the program sent them (Pool.terminate), nor ended after the run
// began ending the program (Tree.EndedAt: a timeout, a forwarded Ctrl-C).
func failedChildren(t *Tree) []ChildFailure {
	var out []ChildFailure
	for _, p := range t.All {
		if p == t.Root {
			continue
		}
		how, ok := childKind(p)
		if !ok || t.EndedAt > 0 && p.End.T >= t.EndedAt { // the run ended it (timeout, interrupt)
			continue
		}
		switch p.End.Kind {
		case EndExited:
			if p.End.Code == 0 {
				continue
			}
		case EndSignaled:
			if sentTo(t, p) {
				continue
			}
		default:
			continue
		}
		out = append(out, ChildFailure{PID: p.PID, Argv: p.Image().Argv, How: how, End: endText(p.End)})
	}
	return out
}

// sentTo reports whether another process of the program sent p the signal it died of, after p
// began: a parent ending its workers (Pool.terminate, Popen.kill) did so on purpose. A process
// that signals itself (os.kill(os.getpid(), SIGKILL), or a killpg of its own group) is not
// forgiven: nobody else decided it should end.
func sentTo(t *Tree, p *Process) bool {
	begin := int64(0)
	if len(p.Images) > 0 {
		begin = p.Images[0].T
	}
	for _, k := range t.Kills {
		if k.From == p {
			continue
		}
		if k.Sig == p.End.Signal && k.T >= begin && (k.Target == p.PID || k.Target <= 0) {
			return true
		}
	}
	return false
}

// Unfinished is a process the run ended before it finished: still running when verify killed it,
// at a timeout, an interrupt, or after the program's root had exited (a grandchild that outlived
// its parent, a daemon that left the group with setsid). What it would have done next (its CUDA
// calls, its exit status) was not seen.
type Unfinished struct {
	PID  int      `json:"pid"`
	Argv []string `json:"argv,omitempty"`
	// Why is "left running" (the root had exited), "timeout" or "interrupt".
	Why string `json:"why"`
	// Forked: a forked copy of a process running Argv, which had not exec'd.
	Forked bool `json:"forked,omitempty"`
	// Escaped: it had left the program's process group (setsid), and was found through the
	// wrapper's records.
	Escaped bool `json:"escaped,omitempty"`
	// Doing says what it was doing when it was ended, as far as the wrapper and /proc showed:
	// "sleeping in hrtimer_nanosleep; no CUDA call yet", "inside cuStreamSynchronize at x.py:12".
	Doing string `json:"doing"`
}

func (u Unfinished) String() string {
	return fmt.Sprintf("process %d (%s)", u.PID, u.detail())
}

// detail is the program, whether it had left the group, and what it was doing.
func (u Unfinished) detail() string {
	prog := shortArgv(u.Argv)
	if u.Forked {
		prog = "fork of " + prog
	}
	if u.Escaped {
		prog += ", which had left the process group with setsid"
	}
	return prog + "; " + u.Doing
}

// leftRunning reports whether the run ended the process after the program's root had exited:
// nothing asked for it, so the program's own run was cut short.
func (u Unfinished) leftRunning() bool { return u.Why == "left running" }

// unfinished lists the processes the run ended before they finished, in creation order; escaped
// are the pids that had left the process group.
func unfinished(t *Tree, escaped []int) []Unfinished {
	esc := map[int]bool{}
	for _, pid := range escaped {
		esc[pid] = true
	}
	var out []Unfinished
	for _, p := range t.All {
		if p.End.Kind != EndRunning {
			continue
		}
		out = append(out, Unfinished{PID: p.PID, Argv: p.Image().Argv, Why: p.End.Why,
			Forked: p.Image().Inherited, Escaped: esc[p.PID], Doing: doing(p)})
	}
	return out
}

// stateWords are /proc's state letters in words.
var stateWords = map[string]string{
	"R": "running", "S": "sleeping", "D": "waiting on a device", "T": "stopped", "t": "stopped by a tracer",
	"I": "idle", "W": "paging", "P": "parked",
}

// doing says what an unfinished process was doing: the CUDA call it was inside, else its state and
// the kernel function it waited in; then how far it had got with CUDA.
func doing(p *Process) string {
	image := len(p.Images) - 1
	if c := p.unreturned(image); c != nil {
		return "inside " + c.Fn + atFrame(c.Stack) + ", which never returned"
	}
	var parts []string
	state := stateWords[p.End.State]
	if state == "" {
		state = "state " + p.End.State
	}
	if p.End.Wchan != "" {
		state += " in " + p.End.Wchan
	}
	parts = append(parts, state)
	var last *Call
	for _, c := range p.Calls {
		if c.Image == image {
			last = c
		}
	}
	if last == nil {
		parts = append(parts, "no CUDA call yet")
	} else {
		parts = append(parts, fmt.Sprintf("its last CUDA call: %s returned %s%s", last.Fn, cuResult(last.RC), atFrame(last.Stack)))
	}
	return strings.Join(parts, ", ")
}

// cudaUnobserved says why the run could not observe CUDA at all, or "" when it could (or the
// program never asked for the driver). CUDA was observed when some process's cuInit succeeded,
// or a fork record found the driver initialized. It was not when no process got that far because
// the driver itself failed: cuInit returned an error in a process that did not inherit CUDA by
// fork (CUDA_ERROR_NO_DEVICE on a machine without a GPU, CUDA_ERROR_STUB_LIBRARY for the
// toolkit's stub), or the program tried to load libcuda and no attempt in any process succeeded
// (no driver installed, or not on the library path). Then every hazard verify looks for would
// have gone unseen: a static finding "not observed" on such a run says nothing.
func cudaUnobserved(t *Tree) string {
	var failedInit, failedLoad string
	loaded := false
	for _, p := range t.All {
		if p.Fork != nil && p.Fork.CUDA >= 0 {
			loaded = true // libcuda was loaded in the parent at the fork
			if p.Fork.CUDA == 1 {
				return ""
			}
		}
		for _, c := range p.Calls {
			loaded = true // a wrapped driver call: libcuda was loaded
			if c.Fn != "cuInit" || !c.Returned {
				continue
			}
			if c.RC == 0 {
				return ""
			}
			inherited := p.Initializer != nil && c.Image == 0 // fork's refusal, the hazard itself
			if !inherited && failedInit == "" {
				failedInit = fmt.Sprintf("cuInit returned %s in process %d (%s)%s", cuResult(c.RC), p.PID, shortArgv(p.Image().Argv), atFrame(c.Stack))
			}
		}
		for _, l := range p.DriverLoads {
			loaded = loaded || l.OK
			if !l.OK && failedLoad == "" {
				failedLoad = fmt.Sprintf("process %d (%s) could not load the driver library (dlopen of %s failed): no CUDA driver is installed, or it is not on the library path",
					p.PID, shortArgv(p.Image().Argv), l.Path)
			}
		}
	}
	switch {
	case failedInit != "":
		return failedInit
	case !loaded && failedLoad != "":
		return failedLoad
	}
	return ""
}
