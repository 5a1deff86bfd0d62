package model

import "cmp"

// The searches of a child's code for its first use of CUDA (touchSearch, a
// certain use; maybeSearch, a possible one) follow local calls and
// imports, and memoize each function's and module's answer. Code that calls
// itself back (a retry calling the function that retries, a walk over
// nested items) made the memo's answers depend on which member of the cycle
// was asked first: a member still being searched counted as using nothing,
// and what was computed under that cut was kept. With encode_next calling
// encode_rest and encode_rest calling encode_next back, asking encode_next
// first cached encode_rest as using nothing, and a Pool whose workers ran
// encode_rest was reported as never touching CUDA (CFL003) instead of as
// failing in its children (CFL001): testdata/py/cfl001/recursive_embed.py.
//
// A hitSolver settles those answers per strongly connected component, as
// factSolver settles facts. Whether a member hits is the least fixpoint (a
// member hits if an effect of its own does, or a callee hits), the same in
// every order: a search stops early only at a hit, so code that does not
// hit has had everything it reaches searched. Which place a member names
// is its first effect that hits: its own use, the answer of a callee
// outside the component (final by then), or, for a call into the
// component, the component's own answer: the least (by module path and
// span) of its members' exits, each member's first effect that hits
// outside the component. That place can still depend on the order where a
// search stopped early: a member's effects after its first hit are read
// only as far as earlier questions searched their callees, so an exit
// among them may go unseen; the verdict does not depend on it. The search does not stop at a depth:
// each piece of code is searched once per question and program, so a chain
// of calls costs its length.

// firstHit is where a search first finds what it looks for.
type firstHit struct {
	site Site
	api  string // what is used there
	ok   bool
}

// before orders hits by place, for a component's answer.
func (h firstHit) before(o firstHit) bool {
	if c := cmp.Compare(h.site.Mod.Path, o.site.Mod.Path); c != 0 {
		return c < 0
	}
	if h.site.Span != o.site.Span {
		return h.site.Span.Start < o.site.Span.Start || h.site.Span.Start == o.site.Span.Start && h.site.Span.End < o.site.Span.End
	}
	return h.api < o.api
}

// hitCell memoizes one piece of code's answer to one search.
type hitCell struct {
	state factState
	at    int32 // the place in the solver's open stack while busy
	hit   firstHit
}

// hitStep is what one effect of a search's events says: a hit of its own,
// or code whose answer is the effect's (a local call, an import; cell nil
// when there is neither).
type hitStep struct {
	hit    firstHit
	cell   *hitCell
	events func() []event
}

// hitSolver runs one kind of search (step classifies its effects) over one
// program's code, on the analysis's goroutine.
type hitSolver struct {
	step func(e *effect) hitStep
	openComponents[hitNode]
}

type hitNode struct {
	cell   *hitCell
	events func() []event
}

// search returns the first hit in events, which no cell stands for (the
// body of a fork's child, the code of a target).
func (s *hitSolver) search(events []event) firstHit {
	return s.scan(events, nil)
}

// answer returns cell's answer, searching events once.
func (s *hitSolver) answer(cell *hitCell, events func() []event) firstHit {
	switch cell.state {
	case factDone:
		return cell.hit
	case factBusy:
		// Code whose component is open: the running search joins it,
		// and reads its answer so far.
		s.reached(int(cell.at))
		return cell.hit
	}
	at := s.enter(hitNode{cell, events})
	cell.state, cell.at = factBusy, int32(at)
	cell.hit = s.scan(events(), nil)
	s.finish(at, s)
	return cell.hit
}

// scan returns the first effect of events that hits. With inside set, a
// call into the component being settled answers inside (its answer), and
// its members' answers are not asked.
func (s *hitSolver) scan(events []event, inside *firstHit) firstHit {
	for e := range effects(events) {
		st := s.step(e)
		if st.hit.ok {
			return st.hit
		}
		if st.cell == nil {
			continue
		}
		if inside != nil && st.cell.state == factBusy {
			if inside.ok {
				return *inside
			}
			continue
		}
		if h := s.answer(st.cell, st.events); h.ok {
			return h
		}
	}
	return firstHit{}
}

// settle gives the members of the component opened at place at their
// answers: first whether each hits, folded to the fixpoint (a pass asks no
// code the first did not: answers only turn to hits, and a scan stops no
// later for it); then the component's own answer, the least of the
// members' exits, and each member's first hitting effect with it.
func (s *hitSolver) settle(at int) {
	s.iterate(at, untilSettled, func(n hitNode) bool {
		if n.cell.hit.ok {
			return false
		}
		h := s.scan(n.events(), nil)
		n.cell.hit = h
		return h.ok
	})
	var own firstHit
	for _, n := range s.members(at) {
		if h := s.exit(n.events()); h.ok && (!own.ok || h.before(own)) {
			own = h
		}
	}
	for _, n := range s.members(at) {
		n.cell.hit = s.scan(n.events(), &own)
	}
}

func (s *hitSolver) done(n hitNode) { n.cell.state = factDone }

// exit is the first place a member's events hit outside its component:
// its own hit, or a callee's settled answer, calls into the component
// skipped (they hit only through some member's exit).
func (s *hitSolver) exit(events []event) firstHit {
	for e := range effects(events) {
		st := s.step(e)
		if st.hit.ok {
			return st.hit
		}
		if st.cell != nil && st.cell.state == factDone && st.cell.hit.ok {
			return st.cell.hit
		}
	}
	return firstHit{}
}
