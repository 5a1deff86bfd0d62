package model

// Most functions in a real code base neither initialize CUDA nor start
// processes, nor call anything that does. The simulation skips them: facts
// are computed once per function and per module body, transitively through
// local calls and imports, and decide what needs to be run at all.

type factState uint8

const (
	factUnknown factState = iota
	factBusy
	factDone
)

// facts summarize what running some events can do, transitively.
type facts struct {
	state factState
	// at is the place of the code in its program's factSolver.open while
	// its component is open (state factBusy).
	at int32
	// relevant: the events change what the simulation tracks (CUDA
	// initialization, start methods, default device, preload, NVML check)
	// or start processes.
	relevant bool
	// starts: the events start processes.
	starts bool
	// iterates: the events iterate a parameter, which starts processes
	// when a call hands it a loader.
	iterates bool
}

func (f *Function) facts() facts { return memoFacts(f.Module.Prog, &f.fx, f.summaryOf, false) }

func (m *Module) topFacts() facts { return memoFacts(m.Prog, &m.fx, m.topSummary, false) }

// importFacts are the facts of importing m: those of its body but for what
// runs only when it is __main__ (a name guard's body), which an import never
// runs (the simulation takes the guard's other side, simulator.guard). A
// process guard's body runs on import in the main process, and counts.
//
// Asking topFacts instead is sound, only dearer: a guarded main() asks for
// the facts of everything it calls, and building those summaries loads the
// modules their function-level imports name (a check of the standard
// library's json/decoder.py loaded argparse, shutil, locale and a dozen
// more for tokenize's guarded main() alone).
func (m *Module) importFacts() facts { return memoFacts(m.Prog, &m.importFx, m.topSummary, true) }

// memoFacts computes the facts of some events once (with importing, as
// importFacts folds them), through p's factSolver.
func memoFacts(p *Program, fx *facts, events func() []event, importing bool) facts {
	return p.factSolver().facts(fx, events, importing)
}

// factSolver settles the facts of code that reaches itself (a function
// calling one that calls it back, a package importing a submodule that
// imports the package) per strongly connected component of what the
// questions ask about, as cudaPossible settles reachability: Tarjan's
// algorithm, run on the calls and imports as the facts ask for them, and
// each component iterated to its fixpoint once it closes.
//
// Caching each piece of code's facts as it finished, with one still being
// computed counted as doing nothing, gave the facts of a cycle's members
// by the order they were first asked in: with load_shards calling
// load_shards_after_backoff and that calling load_shards back, asking
// load_shards first cached the other as irrelevant, and the simulation then
// skipped a later call of it that forks after CUDA was initialized
// (testdata/py/cfl003/recursive_fan_out.py,
// TestFactsOfCyclesIndependentOfOrder). Facts only grow as the facts they
// are built from grow (an or of booleans; callFacts turns a callee's
// iterates into starts by the call's own arguments), so the fixpoint is
// reached from below in a few passes, and is the same whichever member was
// asked first.
//
// One solver serves one program's analysis, which runs on one goroutine.
type factSolver struct {
	openComponents[factNode]
}

type factNode struct {
	fx        *facts
	events    func() []event
	importing bool
}

func (p *Program) factSolver() *factSolver {
	if p.solver == nil {
		p.solver = &factSolver{}
	}
	return p.solver
}

func (s *factSolver) facts(fx *facts, events func() []event, importing bool) facts {
	switch fx.state {
	case factDone:
		return *fx
	case factBusy:
		// Code whose component is open: the running computation joins
		// it, and reads its facts so far, which settle adds to.
		s.reached(int(fx.at))
		return *fx
	}
	at := s.enter(factNode{fx, events, importing})
	fx.state, fx.at = factBusy, int32(at)
	fx.setBits(eventFacts(events(), importing))
	s.finish(at, s)
	return *fx
}

// settle folds the events of every member of the component opened at
// place at again, with the members' facts so far, until none changes.
// Facts only grow, so they settle.
func (s *factSolver) settle(at int) {
	s.iterate(at, untilSettled, func(n factNode) bool {
		got := eventFacts(n.events(), n.importing)
		if got.bits() == n.fx.bits() {
			return false
		}
		n.fx.setBits(got)
		return true
	})
}

func (s *factSolver) done(n factNode) { n.fx.state = factDone }

// bits are the facts without the state of their computation.
func (f facts) bits() facts {
	return facts{relevant: f.relevant, starts: f.starts, iterates: f.iterates}
}

func (f *facts) setBits(b facts) {
	f.relevant, f.starts, f.iterates = b.relevant, b.starts, b.iterates
}

// eventFacts folds the facts of events list by list: each nested list (an
// arm, a body) is folded on its own and stops once it is relevant, starts
// and iterates, while every arm of a branch is folded.
func eventFacts(events []event, importing bool) facts {
	var out facts
	for i := range events {
		e := &events[i]
		var f facts
		switch {
		case e.kind == evEffect:
			f = effectFacts(&e.eff)
		case importing && e.kind == evGuard && e.guard == NameGuard:
			f = eventFacts(e.alt(), importing)
		default:
			e.eachNested(func(list []event) bool {
				f = f.or(eventFacts(list, importing))
				return true
			})
		}
		out = out.or(f)
		if out.relevant && out.starts && out.iterates {
			return out
		}
	}
	return out
}

// effectFacts are the facts of one effect.
func effectFacts(e *effect) facts {
	switch e.kind {
	case effInit, effSetMethod, effDefaultDevice, effPreload, effNVMLCheck, effNVMLRestore:
		return facts{relevant: true}
	case effStart, effPendingStart:
		// A loader made starts nothing, unless it escapes (escapedLoader),
		// which is known only once every summary is built.
		return facts{relevant: true, starts: true}
	case effIterate:
		src := e.src()
		return facts{relevant: len(src.objs) > 0, starts: len(src.objs) > 0, iterates: len(src.params) > 0}
	case effCall:
		return callFacts(e)
	case effImport:
		return e.mod.importFacts()
	}
	return facts{}
}

// callFacts are the facts of calling a local function: its own, and when
// it iterates its parameters, those of the loaders the call hands it.
func callFacts(e *effect) facts {
	f := factsIn(e.fn, e.ctx)
	if !f.iterates {
		return f
	}
	f.iterates = false
	for _, b := range e.binds() {
		if len(b.src.objs) > 0 {
			f.relevant, f.starts = true, true
		}
		if len(b.src.params) > 0 {
			f.iterates = true
		}
	}
	return f
}

func (a facts) or(b facts) facts {
	return facts{relevant: a.relevant || b.relevant, starts: a.starts || b.starts, iterates: a.iterates || b.iterates}
}
