package verify

import (
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// Process is one process of the program's tree. Its pid may have run several program images in
// turn (env, bash, then python: exec keeps the pid); events are attributed to the image that was
// current when they were written.
type Process struct {
	PID, PPID int
	Parent    *Process
	Children  []*Process
	// Images are the program images in order. A child created by fork starts with its parent's
	// image at the fork (Inherited); each exec adds one.
	Images []Image
	// Fork is how the process was forked; nil when the wrapper saw no fork (the root, or a child
	// started by vfork or posix_spawn and exec'd at once).
	Fork *ForkInfo
	// Initializer is the process whose initialized CUDA state this one inherited by fork (its
	// parent, or the initializer of a tainted parent); nil otherwise. It concerns Images[0] only:
	// exec gives the process a fresh driver.
	Initializer *Process
	Calls       []*Call
	// DriverLoads are the process's attempts to load the driver library (dlopen of libcuda.so*)
	// made while no libcuda was loaded in it, in order.
	DriverLoads []DriverLoad
	End         End
	// Start is the process's start time in clock ticks since boot, as its records give it (0
	// when none did): with the pid it names the process for good (see Run's liveRecorded).
	Start int64
	// Lost is the exec the wrapper did not follow: the process replaced its last image it saw
	// with a program that never loaded the wrapper. Nil when every image was seen.
	Lost *Exec
	// Unseen: the process left no record of its own; it is known from its parent's wait (a
	// child started by posix_spawn or clone of a program without the wrapper), or it is the
	// root of a run whose command never loaded the wrapper.
	Unseen bool
	// TriedExec: the current image called exec (and every attempt failed, or the new image is
	// Lost): the subprocess pattern, whose failure is the exec's.
	TriedExec bool

	pending *Exec // an exec announced and neither followed by a start nor failed yet
}

// Exec is an exec call the wrapper recorded before it happened.
type Exec struct {
	Path string
	Argv []string
	// Keeps: the environment handed to the new program still preloaded the wrapper and named
	// the log (false: the program dropped it, e.g. cleared LD_PRELOAD).
	Keeps bool
	T     int64
}

// Kill is a signal a process of the program sent.
type Kill struct {
	From   *Process
	Target int // kill's pid argument: a pid, 0 or negative for a process group, -1 for all
	Sig    syscall.Signal
	T      int64
}

// DriverLoad is one attempt to load the driver library.
type DriverLoad struct {
	Path string // the name the program asked for: libcuda.so.1, or a path
	OK   bool
	T    int64
}

// Image is one program image of a process.
type Image struct {
	Argv      []string
	Cwd       string
	Inherited bool // a forked child's copy of its parent's image, before any exec
	T         int64
}

// ForkInfo is what the fork handlers recorded.
type ForkInfo struct {
	// CUDA is the parent's driver state at the fork: -1 no libcuda loaded, 0 not initialized,
	// 1 initialized (cuDeviceGetCount returned RC, without initializing anything).
	CUDA int
	RC   int
	// Site is the parent's Python stack at the fork (innermost first); empty when the forking
	// thread did not hold the GIL.
	Site        []Frame
	ParentImage int // the index of the parent's image at the fork
	T           int64
}

// Call is one recorded call of a wrapped driver entry point.
type Call struct {
	Fn       string
	N        int  // the call's ordinal for this function in this process
	RC       int  // meaningful when Returned
	Returned bool // false: the call was entered (recorded in tainted processes) but never returned
	Stack    []Frame
	Py       string // how the stack was read (gil, ensure, nogil, nothread, none)
	Image    int
	T        int64
}

// EndKind says how a process ended, as far as the run saw.
type EndKind uint8

const (
	EndUnknown  EndKind = iota
	EndExited           // exited with Code
	EndSignaled         // killed by Signal
	EndRunning          // still running when the run ended it (timeout, interrupt, or left behind by the root)
)

// End is how a process ended.
type End struct {
	Kind   EndKind
	Code   int
	Signal syscall.Signal
	Core   bool
	// Why is set for EndRunning: "timeout", "interrupt" or "left running".
	Why string
	// Source is where the end was learned: "wait" (the parent reaped it), "_exit" (it said so),
	// "run" (Go waited for the root), "proc" (alive in /proc when the run ended it).
	Source string
	State  string // for EndRunning: the state letter /proc showed (S sleeping, R running, D disk, ...)
	// Wchan is, for EndRunning, the kernel function /proc showed it waiting in (hrtimer_nanosleep,
	// do_wait, futex_wait_queue); empty when it was not waiting or /proc did not say.
	Wchan string
	T     int64
}

// procNow is what /proc showed of a live process just before the run ended it.
type procNow struct {
	State string // the state letter of /proc/PID/stat
	Wchan string // /proc/PID/wchan, "" for none
}

// Tree is the process tree of one run.
type Tree struct {
	Root *Process
	All  []*Process // in order of creation
	// Kills are the signals the program's processes sent (kill, killpg), in log order.
	Kills []Kill
	// EndedAt is when the run began ending processes itself (timeout, interrupt, left running);
	// 0 when it did not. A process killed after that did not fail on its own.
	EndedAt int64
}

// Image returns the process's current (last) image.
func (p *Process) Image() Image {
	if len(p.Images) == 0 {
		return Image{}
	}
	return p.Images[len(p.Images)-1]
}

// Execed reports whether a forked child replaced its inherited image.
func (p *Process) Execed() bool {
	return len(p.Images) > 1 || (len(p.Images) == 1 && !p.Images[0].Inherited)
}

// IsForkserver reports whether the process is multiprocessing's forkserver.
func (p *Process) IsForkserver() bool {
	return strings.Contains(strings.Join(p.Image().Argv, " "), "from multiprocessing.forkserver import main")
}

// IsPython reports whether the current image looks like a Python interpreter.
func (p *Process) IsPython() bool {
	a := p.Image().Argv
	return len(a) > 0 && strings.HasPrefix(filepath.Base(a[0]), "python")
}

// BuildTree builds the process tree from the events, in log order. rootPID is the process the
// run started.
func BuildTree(events []Event, rootPID int) *Tree {
	t := &Tree{}
	live := map[int]*Process{}
	add := func(p *Process) {
		live[p.PID] = p // a reused pid: later events belong to the new process
		t.All = append(t.All, p)
		if p.Parent != nil {
			p.Parent.Children = append(p.Parent.Children, p)
		}
	}
	get := func(pid int) *Process {
		p := live[pid]
		if p == nil { // events of a process whose start the log lacks
			p = &Process{PID: pid}
			add(p)
		}
		return p
	}
	for i := range events {
		e := &events[i]
		switch e.Ev {
		case "start":
			img := Image{Argv: e.Argv, Cwd: e.Cwd, T: e.T}
			if p := live[e.PID]; p != nil && p.End.Kind == EndUnknown && !p.Unseen {
				p.Images = append(p.Images, img) // exec
				p.pending, p.TriedExec = nil, false
				if p.Start == 0 {
					p.Start = e.St
				}
				continue
			}
			p := &Process{PID: e.PID, PPID: e.PPID, Parent: live[e.PPID], Images: []Image{img}, Start: e.St}
			add(p)
		case "exec":
			// Written before the call, by the process itself; a vfork child writes it first.
			x := &Exec{Path: e.Path, Argv: e.Argv, Keeps: e.Keeps != nil && *e.Keeps == 1, T: e.T}
			p := live[e.PID]
			if p == nil || p.End.Kind != EndUnknown || p.Unseen {
				p = &Process{PID: e.PID, PPID: e.PPID, Parent: live[e.PPID], Start: e.St}
				add(p)
			}
			p.pending, p.TriedExec = x, true
		case "execfail":
			if p := live[e.PID]; p != nil {
				p.pending = nil
			}
		case "dlopen":
			p := get(e.PID)
			p.DriverLoads = append(p.DriverLoads, DriverLoad{Path: e.Path, OK: e.OK != nil && *e.OK == 1, T: e.T})
		case "kill":
			if e.Sig > 0 {
				t.Kills = append(t.Kills, Kill{From: live[e.PID], Target: e.Target, Sig: syscall.Signal(e.Sig), T: e.T})
			}
		case "fork":
			parent := live[e.PPID]
			f := &ForkInfo{CUDA: -1, Site: e.Stack, T: e.T}
			if e.CUDA != nil {
				f.CUDA = *e.CUDA
			}
			if e.RC != nil {
				f.RC = *e.RC
			}
			p := &Process{PID: e.PID, PPID: e.PPID, Parent: parent, Fork: f, Start: e.St}
			if parent != nil {
				f.ParentImage = len(parent.Images) - 1
				img := parent.Image()
				img.Inherited, img.T = true, e.T
				p.Images = []Image{img}
				switch {
				case f.CUDA == 1:
					p.Initializer = parent
				case parent.Initializer != nil && !parent.Execed():
					p.Initializer = parent.Initializer
				}
			}
			add(p)
		case "enter", "call":
			p := get(e.PID)
			img := len(p.Images) - 1
			var c *Call
			if e.Ev == "call" {
				// The return of a call whose entry was recorded.
				for _, x := range p.Calls {
					if !x.Returned && x.Fn == e.Fn && x.N == e.N && x.Image == img {
						c = x
						break
					}
				}
			}
			if c == nil {
				c = &Call{Fn: e.Fn, N: e.N, Image: img, T: e.T, Stack: e.Stack, Py: e.Py}
				p.Calls = append(p.Calls, c)
			}
			if e.Ev == "call" {
				c.Returned = true
				if e.RC != nil {
					c.RC = *e.RC
				}
				if len(e.Stack) > 0 {
					c.Stack, c.Py = e.Stack, e.Py
				}
			}
		case "wait":
			if e.Status == nil {
				continue
			}
			c := live[e.Child]
			if c == nil || c.End.Source == "wait" { // reaped before: this pid was reused
				// A child that never wrote a record: posix_spawn or clone of a program that did
				// not load the wrapper (a vfork child writes its exec record first).
				c = &Process{PID: e.Child, PPID: e.PID, Parent: live[e.PID], Unseen: true}
				add(c)
			}
			c.End = endFromStatus(*e.Status, e.T)
			c.End.Source = "wait"
		case "exit":
			if p := live[e.PID]; p != nil && e.Code != nil && p.End.Kind == EndUnknown {
				p.End = End{Kind: EndExited, Code: *e.Code, T: e.T, Source: "_exit"}
			}
		}
	}
	for _, p := range t.All {
		if p.pending != nil {
			p.Lost, p.pending = p.pending, nil
		}
	}
	for _, p := range t.All {
		if p.PID == rootPID {
			t.Root = p
			break
		}
	}
	if t.Root == nil {
		// The command itself never loaded the wrapper (a statically linked or setuid program,
		// a --shim that is not the wrapper): its children that did hang below a stand-in.
		t.Root = &Process{PID: rootPID, Unseen: true}
		for _, p := range t.All {
			if p.Parent == nil && p.PPID == rootPID {
				p.Parent = t.Root
				t.Root.Children = append(t.Root.Children, p)
			}
		}
		t.All = append([]*Process{t.Root}, t.All...)
	}
	return t
}

// endFromStatus decodes a wait status as Linux lays it out (the wrapper's wait records, and the
// root's own, are Linux's): the exit code in bits 8-15 when the low 7 bits are 0; else, unless
// they are 0x7f (stopped), the signal in them and the core-dump flag in bit 7. Decoded here
// rather than by syscall.WaitStatus, which is another type on Windows, so that the package builds
// there (Run does not run there).
func endFromStatus(status int, t int64) End {
	sig := status & 0x7f
	switch {
	case sig == 0:
		return End{Kind: EndExited, Code: (status >> 8) & 0xff, T: t}
	case sig != 0x7f:
		return End{Kind: EndSignaled, Signal: syscall.Signal(sig), Core: status&0x80 != 0, T: t}
	}
	return End{T: t}
}

// markRunning records the processes the run found alive when it ended them. alive maps pids to
// what /proc showed of them.
func (t *Tree) markRunning(alive map[int]procNow, why string, at int64) {
	last := map[int]*Process{}
	for _, p := range t.All {
		last[p.PID] = p
	}
	pids := make([]int, 0, len(alive))
	for pid := range alive {
		pids = append(pids, pid)
	}
	sort.Ints(pids)
	for _, pid := range pids {
		p := last[pid]
		if p == nil {
			continue
		}
		// A parent that reaped it after the run killed it recorded that SIGKILL: what matters is
		// that it was still running.
		killedByRun := p.End.Kind == EndSignaled && p.End.Signal == syscall.SIGKILL && p.End.T >= at
		if p.End.Kind == EndUnknown || killedByRun {
			p.End = End{Kind: EndRunning, Why: why, State: alive[pid].State, Wchan: alive[pid].Wchan, T: at, Source: "proc"}
		}
	}
	if t.EndedAt == 0 || at < t.EndedAt {
		t.EndedAt = at
	}
}

// unreturned is the call the process entered and never returned from, if any: it hung there or
// died there.
func (p *Process) unreturned(image int) *Call {
	for _, c := range p.Calls {
		if !c.Returned && c.Image == image {
			return c
		}
	}
	return nil
}
