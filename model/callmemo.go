package model

import (
	"maps"
	"slices"
)

// The simulation runs every call again in its caller's state, and most
// calls change nothing it tracks: on mosaicml/composer 89 % of the 7.5
// million calls simulated were a call already simulated, from an equal
// state, that had changed nothing. A call that changed nothing and started
// no process is recorded (a callRun), and a later call of the same
// function in an equal state is skipped where its run would be cut in the
// same places: it would do exactly what the recorded one did, nothing.
//
// A replay uses up one event of the simulation's budget, not the events
// the recorded run took: the budget bounds the work a simulation does, and
// a replay is one lookup. Charging the recorded cost, so that a run with
// records stops at the same event as one without, made the budget count
// the whole unfolded run, in which every call is run again in each caller
// and each loop's body twice:
// fairseq's training entries reached 1,000,000 such events in under 50,000
// simulated ones, and 15 of them were cut for it. So where the budget runs
// out, the records now reach further than a run without them; nowhere
// else do they change what is found (TestCallRecordsChangeNoFinding).
//
// What a call's run reads besides the state: the simulator's fields in
// runKey (the budget is checked, not keyed), the functions on the stack
// (a call of one of them is cut) and the stack's depth (a call at
// maxCallDepth is cut). So a record keeps the functions its run entered
// (none may be on the stack where it is replayed), those it did not enter
// because the caller's stack held them (all must be on it), how deep it
// went, and whether a call was cut for depth (then it is replayed only at
// the same depth). A run cut by the budget is never recorded, nor one that
// initialized CUDA or imported a module, since it changed the state.
//
// A run that started a process is recorded too. Its starts found hazards,
// and running it again in an equal state finds them again: the same keys,
// which hazardSet.add merges into the hazards already there (the same
// configs, the same start sites, of a greater rank), whatever the call
// chain or the branches around the call; so a replay adds nothing. What a
// start reads besides the state is which initialization each start was
// reported with before (initFor): a record keeps the one each start of its
// run picked, and is replayed only where each would pick the same. On
// NVIDIA/Megatron-LM the training scripts call a loss function in every
// step of every pipeline schedule, nested in loops and branches, and the
// loss function makes a DataLoader and iterates it: 4,202 runs of that
// chain in one entry, none recorded, until the entry's budget of 1,000,000
// events ran out (four of its scripts were cut). Recorded, no entry there
// runs out.

// recordCalls turns the records on; tests compare with them off.
var recordCalls = true

// maxCallRuns bounds the states recorded per call key: past it, the call
// is simulated as before.
const maxCallRuns = 64

// runKey is what a call's run depends on besides the state and the stack.
type runKey struct {
	fn         *Function
	ctx        *callContext
	importOnly bool
	proc       procKind
	procGuard  Site
	// unsure: what the call raises may not go on up (simulator.unsure),
	// where a start may raise (simulator.boot).
	unsure bool
}

// callRun is one recorded run of a call that changed nothing.
type callRun struct {
	st      *simState // the state it ran in, and left
	deepest int       // how much deeper than the call the stack went
	entered []*Function
	// needs are the functions not entered because the caller's stack
	// held them.
	needs []*Function
	// depthCut: a call was cut for depth; depth is the stack's then.
	depthCut bool
	depth    int
	// picks are the initializations its starts were reported with, and
	// touched the keys of the hazards they found (simulator.touched).
	picks   []initPick
	touched []string
}

// initPick is the initialization a start was reported with (initFor).
type initPick struct {
	start, init Site
}

// runTrace is what the runs being recorded did: the functions they
// entered, the deepest stack a call was entered at, the calls cut for
// being on the stack, the initializations starts were reported with, and
// counts of the other cuts (a record whose budget cuts moved is not kept).
type runTrace struct {
	recording int
	entered   []*Function
	deepest   int
	stackCuts []stackCut
	picks     []initPick
	depthCuts int
	cuts      int
	// raises counts the paths a start ended by raising
	// (raiseAtBootstrap): a run with one changed the paths' outcome,
	// whatever its state at the end.
	raises int
}

// stackCut is a call not entered because its function was on the stack,
// at index at.
type stackCut struct {
	fn *Function
	at int
}

// traceMark is the trace when a record began.
type traceMark struct {
	st        *simState
	depth     int
	entered   int
	deepest   int
	stackCuts int
	picks     int
	touched   int
	depthCuts int
	cuts      int
	raises    int
}

// entering notes a call entered at the current stack depth.
func (s *simulator) entering(f *Function) {
	if s.trace.recording == 0 {
		return
	}
	s.trace.entered = append(s.trace.entered, f)
	s.trace.deepest = max(s.trace.deepest, len(s.stack))
}

// stackCut notes a call of f not entered because f is s.stack[at].
func (s *simulator) stackCut(f *Function, at int) {
	if s.trace.recording > 0 {
		s.trace.stackCuts = append(s.trace.stackCuts, stackCut{fn: f, at: at})
	}
}

// markTrace begins a record of a run from state st, a copy the run does
// not change.
func (s *simulator) markTrace(st *simState) traceMark {
	m := traceMark{st: st, depth: len(s.stack), entered: len(s.trace.entered),
		deepest: s.trace.deepest, stackCuts: len(s.trace.stackCuts), picks: len(s.trace.picks), touched: len(s.touched),
		depthCuts: s.trace.depthCuts, cuts: s.trace.cuts, raises: s.trace.raises}
	s.trace.recording++
	s.trace.deepest = len(s.stack)
	return m
}

// unmarkTrace ends the record begun at m in state st: the run it describes
// when that run changed nothing and was not cut by the budget, else nil. The trace goes on for the records around it; the run's
// entered functions are the trace's until record keeps them.
func (s *simulator) unmarkTrace(m traceMark, st *simState) *callRun {
	var run *callRun
	if s.trace.cuts == m.cuts && s.trace.raises == m.raises && st.sameAs(m.st) {
		run = &callRun{st: m.st, deepest: s.trace.deepest - m.depth,
			entered: s.trace.entered[m.entered:], depthCut: s.trace.depthCuts != m.depthCuts, depth: m.depth,
			picks: slices.Clip(s.trace.picks[m.picks:]), touched: uniqueKeys(s.touched[m.touched:])}
		for _, c := range s.trace.stackCuts[m.stackCuts:] {
			// Cut for a function of the caller's stack; a cut for one the
			// run itself entered happens wherever it runs.
			if c.at < m.depth && !slices.Contains(run.needs, c.fn) {
				run.needs = append(run.needs, c.fn)
			}
		}
	}
	s.trace.deepest = max(m.deepest, s.trace.deepest)
	s.trace.recording--
	if s.trace.recording == 0 {
		s.trace.entered = s.trace.entered[:0]
		s.trace.stackCuts = s.trace.stackCuts[:0]
		s.trace.picks = nil // kept by the records
	}
	return run
}

// uniqueFuncs copies fs without repeats.
func uniqueFuncs(fs []*Function) []*Function {
	var out []*Function
	if len(fs) <= 16 {
		for _, f := range fs {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
		return out
	}
	seen := make(map[*Function]bool, len(fs))
	for _, f := range fs {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// replays reports whether run may stand for running its call again now, in
// st (equal to the state it ran in): budget is left for the one event a
// replay uses, the run's calls would be cut where they were, and only
// there, and its starts would be reported with the initializations they
// were.
func (s *simulator) replays(run *callRun, st *simState) bool {
	if s.budget <= 0 {
		return false
	}
	if run.depthCut {
		if len(s.stack) != run.depth {
			return false
		}
	} else if len(s.stack)+run.deepest >= maxCallDepth {
		return false
	}
	for _, f := range s.stack {
		if slices.Contains(run.entered, f) {
			return false
		}
	}
	for _, f := range run.needs {
		if !slices.Contains(s.stack, f) {
			return false
		}
	}
	for _, p := range run.picks {
		if s.pickInit(st, p.start).Site != p.init {
			return false
		}
	}
	return true
}

// replay uses up the one event of a replay, notes the hazards run touched
// and the initializations its starts were reported with, and what it did
// for the records around it.
func (s *simulator) replay(run *callRun) {
	s.budget--
	s.touched = append(s.touched, run.touched...)
	for _, p := range run.picks {
		// As its run did: a record made by a module's import is replayed
		// by each uncalled function's simulator (importRun).
		if s.reported == nil {
			s.reported = map[[2]Site]bool{}
		}
		s.reported[[2]Site{p.start, p.init}] = true
	}
	if s.trace.recording == 0 {
		return
	}
	s.trace.entered = append(s.trace.entered, run.entered...)
	s.trace.deepest = max(s.trace.deepest, len(s.stack)+run.deepest)
	for _, f := range run.needs {
		s.stackCut(f, slices.Index(s.stack, f))
	}
	if run.depthCut {
		s.trace.depthCuts++
	}
	s.trace.picks = append(s.trace.picks, run.picks...)
}

// recordedRun finds a recorded run of key in a state equal to st that may
// stand for running the call now.
func (s *simulator) recordedRun(key runKey, st *simState) *callRun {
	for _, run := range s.calls[key] {
		if run.st.sameAs(st) && s.replays(run, st) {
			return run
		}
	}
	return nil
}

func (s *simulator) record(key runKey, run *callRun) {
	if s.calls == nil {
		s.calls = map[runKey][]*callRun{}
	}
	if runs := s.calls[key]; len(runs) < maxCallRuns {
		// The trace's slice is reused once the outermost record ends.
		run.entered = uniqueFuncs(run.entered)
		s.calls[key] = append(runs, run)
	}
}

// sameAs reports whether two states are equal in everything the
// simulation reads (sameFactsRead: of the arms taken, only those of the
// tests an initialization ran under).
func (s *simState) sameAs(o *simState) bool {
	if s.ended != o.ended || s.defaultCUDA != o.defaultCUDA || s.outerDefault != o.outerDefault || s.nvml != o.nvml || s.phase != o.phase ||
		!slices.Equal(s.inits, o.inits) || !s.sure.equal(o.sure) ||
		!s.imported.equal(o.imported) || !s.startedOnce.equal(o.startedOnce) ||
		!slices.Equal(s.conds, o.conds) || !s.sameFactsRead(o) ||
		!maps.Equal(s.methods, o.methods) || !maps.Equal(s.methodLits, o.methodLits) ||
		len(s.preload) != len(o.preload) {
		return false
	}
	for k, v := range s.preload {
		if w, ok := o.preload[k]; !ok || !slices.Equal(v, w) {
			return false
		}
	}
	return true
}
