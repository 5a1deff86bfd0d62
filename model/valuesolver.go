package model

// valueSolver settles the memoized values of evaluation (a binding's
// values, in a call context or not; what a function returns, in a context
// or not; the value of a call) per strongly connected component of the
// questions, as factSolver settles facts: Tarjan's algorithm run on the
// memos as evaluation asks them, and each component iterated once it
// closes, from the values its first pass found, until no member changes.
//
// Caching each memo as it finished, with one still being computed read as
// holding nothing, gave the values of a cycle's members by the order they
// were first asked in. With make_pool returning make_capped_pool() and
// that returning make_pool(), asking make_capped_pool first cached
// make_pool as returning only its own Pool; a later `make_pool().map(...)`
// then handed its function to that Pool alone, and the other Pool, forked
// after cuInit, was reported as failing with no code handed to its
// children (testdata/py/cfl003/recursive_pool_factory.py,
// TestValuesOfCyclesIndependentOfOrder).
//
// Values only grow as the values they are built from grow, with two
// exceptions: a call that resolves to nothing is unknown(), and a set is
// cut at maxValues. So a component is iterated at most maxValueRounds
// times; where the least fixpoint exists below those caps, the passes
// reach it from below, the same whichever member was asked first.
//
// One solver serves one program's analysis, which runs on one goroutine.
type valueSolver struct {
	openComponents[valueNode]
	// singletons holds one copy of each one-value set a memo settled on,
	// which every memo settled on the same value shares (shared).
	singletons map[Value][]Value
}

// maxValueRounds bounds the passes over one component. Some components
// have no fixpoint: a value made from itself differs on every pass (a
// name rebound to its own `.decode()`, an instance whose constructor
// passes it to itself, made in a new call context each pass). They keep
// the values of their last pass: 15 of the 1,792 cyclic components of a
// forced-full check of the stdlib, where 1,525 find nothing new on their
// first pass, 236 settle in two or three, and 16 in four to seven.
const maxValueRounds = 8

// valueCell is one memo: its values, and the state of their computation.
type valueCell struct {
	values []Value
	state  factState
	// at is the cell's place in the solver's open components while its
	// component is open (state factBusy).
	at int32
}

// valueNode is an open cell and what computes its values again.
type valueNode struct {
	cell    *valueCell
	compute func() []Value
}

func (p *Program) valueSolver() *valueSolver {
	if p.valSolver == nil {
		p.valSolver = &valueSolver{}
	}
	return p.valSolver
}

// done returns the cell's values if they are settled.
func (c *valueCell) done() ([]Value, bool) { return c.values, c.state == factDone }

// value returns the values of cell c, computing them with compute the
// first time it is asked. A cell asked again while its component is open
// answers its values so far, and the computation that asked joins the
// component.
func (s *valueSolver) value(c *valueCell, compute func() []Value) []Value {
	switch c.state {
	case factDone:
		return c.values
	case factBusy:
		s.reached(int(c.at))
		return c.values
	}
	at := s.enter(valueNode{c, compute})
	c.state, c.at = factBusy, int32(at)
	c.values = compute()
	s.finish(at, s)
	return c.values
}

// reachedCell records that the running computation read cell c without
// computing it: if c's component is open, the computation joins it.
func (s *valueSolver) reachedCell(c *valueCell) {
	if c.state == factBusy {
		s.reached(int(c.at))
	}
}

// settle computes every member of the component opened at place at
// again, with the members' values so far, until none changes (or
// maxValueRounds passes).
func (s *valueSolver) settle(at int) {
	s.iterate(at, maxValueRounds, func(n valueNode) bool {
		got := n.compute()
		if sameValues(got, n.cell.values) {
			return false
		}
		n.cell.values = got
		return true
	})
}

func (s *valueSolver) done(n valueNode) {
	n.cell.state = factDone
	n.cell.values = s.shared(n.cell.values)
}

// shared returns the one copy of vs that the memos settled on it share,
// when vs holds one value. Most memos settle on one value, and many on
// the same (a module, a class, a library's path): on composer, 135,000
// one-value sets held 22,000 distinct values, 14 MB of copies. The copy
// is capped at its length, as every set handed out is (union), so that an
// append never writes into it.
func (s *valueSolver) shared(vs []Value) []Value {
	if len(vs) != 1 || &vs[0] == &unknownValues[0] {
		return vs
	}
	if one, ok := s.singletons[vs[0]]; ok {
		return one
	}
	if s.singletons == nil {
		s.singletons = map[Value][]Value{}
	}
	one := vs[:1:1]
	if cap(vs) > 1 {
		one = []Value{vs[0]} // not the grown array behind vs
	}
	s.singletons[vs[0]] = one
	return one
}

// sameValues reports whether a and b hold the same values, in any order,
// for a component's fixpoint: lists and dicts count only as being there or
// not. Their elements are not compared, since a list built from itself
// (`batch = batch + [item]` in a loop) grows by one element each pass and
// would never settle: such a component keeps the lists of the passes its
// other values took (the stdlib has a few dozen).
func sameValues(a, b []Value) bool {
	return containsValues(a, b) && containsValues(b, a) && hasContainer(a) == hasContainer(b)
}

// containsValues reports whether every value of a that is not a list or a
// dict is in b.
func containsValues(a, b []Value) bool {
next:
	for i := range a {
		if a[i].Kind == VList || a[i].Kind == VDict {
			continue
		}
		for j := range b {
			if sameValue(&a[i], &b[j]) {
				continue next
			}
		}
		return false
	}
	return true
}
