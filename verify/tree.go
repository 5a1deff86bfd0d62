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
	End         End
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
	T      int64
}

// Tree is the process tree of one run.
type Tree struct {
	Root *Process
	All  []*Process // in order of creation
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
			if p := live[e.PID]; p != nil && p.End.Kind == EndUnknown {
				p.Images = append(p.Images, img) // exec
				continue
			}
			p := &Process{PID: e.PID, PPID: e.PPID, Parent: live[e.PPID], Images: []Image{img}}
			add(p)
		case "fork":
			parent := live[e.PPID]
			f := &ForkInfo{CUDA: -1, Site: e.Stack, T: e.T}
			if e.CUDA != nil {
				f.CUDA = *e.CUDA
			}
			if e.RC != nil {
				f.RC = *e.RC
			}
			p := &Process{PID: e.PID, PPID: e.PPID, Parent: parent, Fork: f}
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
			if c := live[e.Child]; c != nil {
				c.End = endFromStatus(syscall.WaitStatus(*e.Status), e.T)
				c.End.Source = "wait"
			}
		case "exit":
			if p := live[e.PID]; p != nil && e.Code != nil && p.End.Kind == EndUnknown {
				p.End = End{Kind: EndExited, Code: *e.Code, T: e.T, Source: "_exit"}
			}
		}
	}
	if r := live[rootPID]; r != nil {
		t.Root = r
	} else {
		for _, p := range t.All {
			if p.PID == rootPID {
				t.Root = p
				break
			}
		}
	}
	return t
}

func endFromStatus(ws syscall.WaitStatus, t int64) End {
	switch {
	case ws.Exited():
		return End{Kind: EndExited, Code: ws.ExitStatus(), T: t}
	case ws.Signaled():
		return End{Kind: EndSignaled, Signal: ws.Signal(), Core: ws.CoreDump(), T: t}
	}
	return End{T: t}
}

// markRunning records the processes the run found alive when it ended them. alive maps pids to
// the state letter of /proc/PID/stat.
func (t *Tree) markRunning(alive map[int]string, why string, at int64) {
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
		if p := last[pid]; p != nil && p.End.Kind == EndUnknown {
			p.End = End{Kind: EndRunning, Why: why, State: alive[pid], T: at, Source: "proc"}
		}
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
