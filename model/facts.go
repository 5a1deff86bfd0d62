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

func (f *Function) facts() facts { return memoFacts(&f.fx, f.summaryOf, false) }

func (m *Module) topFacts() facts { return memoFacts(&m.fx, m.topSummary, false) }

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
func (m *Module) importFacts() facts { return memoFacts(&m.importFx, m.topSummary, true) }

// memoFacts computes the facts of some events once (with importing, as
// importFacts folds them). A recursive request answers "nothing": what a
// cycle adds is found through its other members.
func memoFacts(fx *facts, events func() []event, importing bool) facts {
	switch fx.state {
	case factDone:
		return *fx
	case factBusy:
		return facts{}
	}
	fx.state = factBusy
	got := eventFacts(events(), importing)
	got.state = factDone
	*fx = got
	return got
}

// eventFacts folds the facts of events list by list: each nested list (an
// arm, a body) is folded on its own and stops once it both is relevant and
// starts, while every arm of a branch is folded. It cannot be a flat walk
// over effects stopping at the first point where the facts are complete:
// the order in which it asks callees for their facts decides what a
// recursive cycle memoizes (see memoFacts), and so what is simulated.
func eventFacts(events []event, importing bool) facts {
	var out facts
	for i := range events {
		e := &events[i]
		var f facts
		switch {
		case e.kind == evEffect:
			f = effectFacts(&e.eff)
		case importing && e.kind == evGuard && e.guard == NameGuard:
			f = eventFacts(e.alt, importing)
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
		return facts{relevant: len(e.src.objs) > 0, starts: len(e.src.objs) > 0, iterates: len(e.src.params) > 0}
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
	for _, b := range e.binds {
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
