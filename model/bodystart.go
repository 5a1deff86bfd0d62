package model

import "slices"

// An uncalled function is analyzed as an entry when its facts say it can
// start a process (entries.go): its module is imported, then its body runs.
// The facts hold whatever was imported before, so a body that can start
// processes only by importing, for the first time, a module whose import
// starts them counts as starting. Once its own module's import has run,
// every such module may be imported already, and the body's run then
// starts nothing.
//
// That is what happens when a module that much of a repository imports
// starts a process at import time: each function of each module importing
// it counts as starting, and each was run as an entry, its module's import
// first. DeepSpeed with a spawn Pool made at the top level of
// deepspeed/compression/constants.py: 2,917 uncalled functions run, 104
// million events, of them 15.5 million their modules' imports run again
// and again; the check took 114–195 s where it takes 4 s without the Pool,
// and none of those runs found anything the modules run as __main__ did
// not. A start is what every hazard needs (simulator.start adds them all),
// so a body that cannot reach one from the state its module's import left
// adds no finding, and is not run; and the import is run once per module.

// uncalledShortcuts turns both on: the import run shared by a module's
// uncalled functions, and the bodies that cannot start left unrun. Tests
// compare with them off.
var uncalledShortcuts = true

// importRun is the simulation of a module's import that its uncalled
// functions start from: run once for them all. Each of them ran it afresh,
// and every run was the same: the same events from a new state, found the
// same hazards (which only the first, of least rank, adds: hazardSet) and
// left the same state. On DeepSpeed with a module-level Pool in a module
// most of it imports, those runs were 15.5 million events.
type importRun struct {
	st     *simState
	budget int
	ranOut bool
	calls  map[runKey][]*callRun
	read   cfgReads // what of the config the import read (configreads.go)
}

// importRun returns what s's run of its module's import left, st the state.
func (s *simulator) importRun(st *simState) *importRun {
	return &importRun{st: st.clone(), budget: s.budget, ranOut: s.ranOut, calls: copyCalls(s.calls), read: s.read}
}

// resume sets s where the import run r left its simulator, and returns a
// state of its own to go on from: the budget left, a cut, the calls
// recorded (replaying them changes nothing but the work done), and what of
// the config the import read.
func (s *simulator) resume(r *importRun) *simState {
	s.budget, s.ranOut, s.read = r.budget, r.ranOut, r.read
	s.calls = copyCalls(r.calls)
	return r.st.clone()
}

// copyCalls returns a copy of a simulator's recorded calls that records
// made in either do not reach the other (a record appends).
func copyCalls(calls map[runKey][]*callRun) map[runKey][]*callRun {
	if len(calls) == 0 {
		return nil
	}
	out := make(map[runKey][]*callRun, len(calls))
	for k, runs := range calls {
		out[k] = slices.Clip(runs)
	}
	return out
}

// bodyMayStart reports whether running events (an uncalled function's body)
// in state st can reach a process start. It asks of each call the facts the
// run would ask before entering it (simulator.effect), and builds nothing
// else: an import whose facts are not settled, or a module whose import
// summary is not built, counts as starting.
func bodyMayStart(events []event, st *simState) bool {
	q := startQuery{imported: st.imported, seen: map[startQueryKey]bool{}, seenMods: map[*Module]bool{}}
	return q.events(events)
}

type startQuery struct {
	imported cowSet[moduleSetKey]
	// seen are the calls whose bodies were asked about already: a body
	// that can start made the query answer yes, so one seen again adds
	// nothing (a recursion included).
	seen map[startQueryKey]bool
	// seenMods are the modules whose import was asked about, likewise.
	seenMods map[*Module]bool
}

type startQueryKey struct {
	fn  *Function
	ctx *callContext
}

func (q *startQuery) events(events []event) bool {
	for i := range events {
		e := &events[i]
		if e.kind == evEffect {
			if q.effect(&e.eff) {
				return true
			}
			continue
		}
		may := false
		e.eachNested(func(list []event) bool {
			may = q.events(list)
			return !may
		})
		if may {
			return true
		}
	}
	return false
}

func (q *startQuery) effect(e *effect) bool {
	switch e.kind {
	case effStart, effPendingStart:
		return true
	case effIterate:
		// Loaders made here, or handed to a parameter: the entry's own
		// parameters are handed none, and a callee's are handed what its
		// call binds (below).
		return len(e.src().objs) > 0
	case effImport:
		return q.importing(e.mod)
	case effCall:
		return q.call(e)
	}
	return false
}

// importing reports whether importing m can start a process: not when the
// state has imported it (the simulation imports a module once), nor when
// its import facts say it cannot; otherwise, whether its import-time code
// can, from this state (the modules m's chain imports that the state holds
// start nothing again).
func (q *startQuery) importing(m *Module) bool {
	if q.imported.has(m.setKey()) || q.seenMods[m] {
		return false
	}
	fx, ok := settledFacts(&m.importFx)
	if !ok {
		return true
	}
	if !fx.starts {
		return false
	}
	q.seenMods[m] = true
	if m.top == nil || m.top.building {
		return true
	}
	// Both sides of a name guard: more than an import runs.
	return q.events(m.top.events)
}

func (q *startQuery) call(e *effect) bool {
	fx := &e.fn.fx
	if e.ctx != nil {
		fx = &e.ctx.fx
	}
	f, ok := settledFacts(fx)
	if !ok {
		// Asked now, as the body's run would ask it before entering
		// the call (simulator.effect).
		f = factsIn(e.fn, e.ctx)
	}
	if f.iterates {
		for _, b := range e.binds() {
			if len(b.src.objs) > 0 {
				return true
			}
		}
	}
	if !f.starts {
		return false
	}
	// It may start: through what, from this state?
	k := startQueryKey{e.fn, e.ctx}
	if q.seen[k] {
		return false
	}
	q.seen[k] = true
	body, ok := builtSummary(e.fn, e.ctx)
	return !ok || q.events(body)
}

// settledFacts returns facts that the solver has settled, ok=false when it
// has not (not asked yet, or in a component still open).
func settledFacts(fx *facts) (facts, bool) {
	return *fx, fx.state == factDone
}

// builtSummary returns the summary of f in context c if it is built (as it
// is when its facts are settled: they were folded from it).
func builtSummary(f *Function, c *callContext) ([]event, bool) {
	sum := f.summary
	if c != nil {
		sum = c.summary
	}
	if sum == nil || sum.building {
		return nil, false
	}
	return sum.events, true
}
