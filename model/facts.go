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

func eventFacts(events []event) facts {
	var out facts
	for i := range events {
		e := &events[i]
		var f facts
		switch e.kind {
		case evEffect:
			switch e.eff.kind {
			case effInit, effSetMethod, effDefaultDevice, effPreload, effNVMLCheck, effNVMLRestore:
				f.relevant = true
			case effStart, effPendingStart:
				f.relevant, f.starts = true, true
			case effCall:
				f = e.eff.fn.facts()
			case effImport:
				f = e.eff.mod.topFacts()
			}
		case evBranch:
			for _, a := range e.arms {
				f = f.or(eventFacts(a))
			}
		case evLoop, evGuard:
			f = eventFacts(e.body)
		}
		out = out.or(f)
		if out.relevant && out.starts {
			return out
		}
	}
	return out
}

func (a facts) or(b facts) facts {
	return facts{relevant: a.relevant || b.relevant, starts: a.starts || b.starts}
}
