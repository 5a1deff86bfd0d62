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
}

func (f *Function) facts() facts { return memoFacts(&f.fx, f.summaryOf) }

func (m *Module) topFacts() facts { return memoFacts(&m.fx, m.topSummary) }

// memoFacts computes the facts of some events once. A recursive request
// answers "nothing": what a cycle adds is found through its other members.
func memoFacts(fx *facts, events func() []event) facts {
	switch fx.state {
	case factDone:
		return *fx
	case factBusy:
		return facts{}
	}
	fx.state = factBusy
	got := eventFacts(events())
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
func eventFacts(events []event) facts {
	var out facts
	for i := range events {
		e := &events[i]
		var f facts
		if e.kind == evEffect {
			f = effectFacts(&e.eff)
		} else {
			e.eachNested(func(list []event) bool {
				f = f.or(eventFacts(list))
				return true
			})
		}
		out = out.or(f)
		if out.relevant && out.starts {
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
		return facts{relevant: true, starts: true}
	case effCall:
		return e.fn.facts()
	case effImport:
		return e.mod.topFacts()
	}
	return facts{}
}

func (a facts) or(b facts) facts {
	return facts{relevant: a.relevant || b.relevant, starts: a.starts || b.starts}
}
