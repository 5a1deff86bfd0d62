package model

import "github.com/cudaforklint/cudaforklint/pytarget"

// HazardKind is the kind of problem a simulation found; each maps to a rule.
type HazardKind uint8

const (
	// ForkAfterInit: a process forked (fork start method, os.fork, a fork
	// pool/executor/DataLoader) after CUDA was initialized in it. CFL001 when
	// the child certainly uses CUDA (ChildUsesCUDA); CFL003 otherwise, when
	// it provably does not and when its use could not be seen
	// (ChildUnknown): an error needs every link seen.
	ForkAfterInit HazardKind = iota
	// ForkserverInherits: the forkserver process itself initializes CUDA while
	// importing __main__ (on versions with the preload fix) or a
	// set_forkserver_preload module, and every child inherits it. CFL002
	// when the children certainly use CUDA, CFL006 when they provably do
	// not or their use could not be seen.
	ForkserverInherits
	// ReinitInChildren: CUDA initialized at the top level of a main module
	// that spawn children (or pre-fix forkserver children) re-import, so every
	// child initializes it again. CFL004.
	ReinitInChildren
	// StartAtImport: processes started at import time of a main module
	// under spawn or forkserver, whose children re-import it and start
	// processes during bootstrapping (RuntimeError). CFL005.
	StartAtImport
	// NotebookTarget: a spawn or forkserver start whose children run a
	// function or class defined in a notebook (model/notebook.go). CFL007.
	NotebookTarget
)

// Phase says when code runs relative to the main guard.
type Phase uint8

const (
	PhaseImport Phase = iota // module top level (also when imported, and when children re-import it)
	PhaseMain                // under `if __name__ == "__main__":` (or in code only it calls)
)

// Frame is one step of a call chain.
type Frame struct {
	Site Site
	// Import names the module for an import step, Func the function for a
	// call step.
	Import, Func string
}

// Desc says what the step does: "calls `setup`", "imports `helper`". It is
// written when a finding is reported, not at every call the simulation
// steps through (millions on a large repository).
func (f Frame) Desc() string {
	if f.Import != "" {
		return "imports `" + f.Import + "`"
	}
	return "calls `" + f.Func + "`"
}

// InitRecord is a CUDA initialization seen by a simulation.
type InitRecord struct {
	Site Site
	API  string // what was called: "torch.cuda.is_available()"
	Lib  string // the catalog row's library ("" for extra-initializers)
	// DriverOnly is set when the initialization runs cuInit without
	// creating a context (the catalog row's effect).
	DriverOnly bool
	Chain      []Frame
	Phase      Phase
	// ProcessGuard is the `current_process().name == "MainProcess"` guard
	// the initialization runs under in the forkserver, which is named
	// MainProcess: the guard does not keep it out of there.
	ProcessGuard Site
}

// StartRecord is a process start seen by a simulation.
type StartRecord struct {
	Site   Site
	Obj    *Object
	Chain  []Frame
	Phase  Phase
	Method pytarget.StartMethod // as resolved for the configs of the hazard
	// Explicit is set when the source names the start method at the
	// object or through set_start_method (not the platform default).
	Explicit bool
	// MethodLit is the string literal naming "fork", when there is one, and
	// SetMethodLit the literal of a set_start_method("fork") that chose it.
	MethodLit Site
	// Conditional is set when the start is reached only through a branch
	// (an if, an except, a match case).
	Conditional bool
	// MethodUnseen says why Method, the family's default, is not known to
	// be the method the start uses (simulator.methodUnseen), or is "".
	MethodUnseen string
	// IterationUnseen says why the start itself is assumed, not seen: a
	// loader's workers start where it is iterated, and this loader's
	// iteration could not be seen (it is kept in a container the analysis
	// does not follow, or handed to a library call that may iterate it);
	// or is "". Like an unseen method, it makes the start's hazards
	// warnings at most.
	IterationUnseen string
}

// Unseen reports whether a link of the start itself could not be seen:
// its start method or, for a loader, its iteration. An error that rests on
// the start (CFL004, CFL005, CFL007) needs both seen.
func (r *StartRecord) Unseen() bool { return r.MethodUnseen != "" || r.IterationUnseen != "" }

// ChildVerdict says whether a child process touches CUDA.
type ChildVerdict uint8

const (
	ChildUsesCUDA ChildVerdict = iota
	ChildUnknown               // its code, or the device of what it touches, could not be seen: a warning, never an error
	ChildNoCUDA                // provably never touches CUDA (or assumed, see ChildUse.Assumed)
)

// ChildUse is what the simulation knows about a child's CUDA use.
type ChildUse struct {
	Verdict  ChildVerdict
	Evidence Site   // where the child touches CUDA (ChildUsesCUDA)
	API      string // what it calls there
	Targets  []Target
	// Assumed is set for DataLoader workers whose dataset code could not be
	// resolved, or that touch a value whose device could not be evaluated
	// (Evidence, Reason): treated as CPU-only (the usual training loop moves
	// batches to the GPU in the parent).
	Assumed bool
	// Reason explains ChildUnknown, and an Assumed verdict with Evidence.
	Reason string
}

// Seen reports whether every link of a fork-after-init or forkserver
// hazard was seen: the children certainly use CUDA, and the start method
// and, for a loader, its iteration are known. Only such a hazard is an
// error (CFL001, CFL002); the others are warnings (CFL003, CFL006).
func (z *Hazard) Seen() bool {
	return z.Child.Verdict == ChildUsesCUDA && !z.Start.Unseen()
}

// Hazard is one problem, with every target config it holds on.
type Hazard struct {
	Kind HazardKind
	// At is where the problem is reported: the initialization, or, when it
	// runs inside a library the entry imports or calls, the entry's own
	// import or call that leads there (the first frame of Init.Chain into
	// the library); for StartAtImport, the process start, or in the same
	// way the entry's call that leads to it inside a library.
	At      Site
	Init    *InitRecord // nil for StartAtImport
	Start   *StartRecord
	Child   ChildUse
	Configs pytarget.Set
	// Via names what the forkserver imported (CFL002): "__main__" or a
	// preloaded module name.
	Via string
	// Entry is the module simulated as __main__ (or holding the uncalled
	// function simulated as an entry point).
	Entry *Module
	// EntryFunc is set when the entry point was an uncalled function.
	EntryFunc *Function
	// MoreStarts are further process starts with the same cause (the same
	// initialization, or the same object started again), in the order found
	// (hazardSet: the order of their ranks). A start is a site and the
	// object it starts: a site that starts several objects is here once for
	// each object Start does not stand for.
	MoreStarts []*StartRecord
	// Inits are, for ForkAfterInit, every initialization that may have run
	// in the process before it forked, Init among them, in the order they
	// ran, joined over all the starts, entries and configs the hazard
	// stands for: a fix that neutralizes only Init leaves the others (the
	// NVML check fixes nothing when a `.to(device)` also ran).
	Inits []*InitRecord

	rank      hazardRank   // see hazardSet
	moreRanks []hazardRank // MoreStarts' ranks
}
