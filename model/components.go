package model

import "math"

// openComponents is the bookkeeping of Tarjan's algorithm run on questions
// as they are asked, which the memos that must not depend on the order of
// questions share (factSolver, hitSolver, valueSolver, retParamsSolver;
// cudaPossible keeps its own maps, over modules): the questions whose
// strongly connected component is not settled yet, and the computations
// running.
//
// A computation enters with its node, reaches open nodes (a question
// asked again while its component is open), and leaves; when it leaves as
// the first node of its component (its lowest reach is itself), the nodes
// above it are the component, which the solver settles and closes.
type openComponents[N any] struct {
	// open are the nodes whose component is not settled, in the order
	// they were first asked about.
	open []N
	// calls are the computations running, innermost last.
	calls []factCall
}

// factCall is a running computation: the lowest place in open it reached,
// and whether it met a node whose answer was not final yet.
type factCall struct {
	low    int
	cyclic bool
}

// enter opens n and starts its computation; it returns n's place in open.
func (o *openComponents[N]) enter(n N) int {
	at := len(o.open)
	o.open = append(o.open, n)
	o.calls = append(o.calls, factCall{low: at})
	return at
}

// reached records that the running computation reached place low of open,
// a node whose answer is not final.
func (o *openComponents[N]) reached(low int) {
	if len(o.calls) == 0 {
		return // an analysis that panicked left a node open: nothing runs
	}
	c := &o.calls[len(o.calls)-1]
	c.low, c.cyclic = min(c.low, low), true
}

// leave ends the computation of the node at place at. It reports whether
// that node is the first of its component; if not, the running
// computation below it joins the component.
func (o *openComponents[N]) leave(at int) (first, cyclic bool) {
	c := o.calls[len(o.calls)-1]
	o.calls = o.calls[:len(o.calls)-1]
	if c.low < at {
		o.reached(c.low)
		return false, true
	}
	return true, c.cyclic
}

// members are the nodes of the component whose first node is at place at.
func (o *openComponents[N]) members(at int) []N { return o.open[at:] }

// close removes the component whose first node is at place at.
func (o *openComponents[N]) close(at int) {
	clear(o.open[at:])
	o.open = o.open[:at]
}

// again runs fn, a pass over a component's members that asks them again,
// as a computation of its own: what it reaches is the component's.
func (o *openComponents[N]) again(at int, fn func()) {
	o.calls = append(o.calls, factCall{low: at})
	fn()
	o.calls = o.calls[:len(o.calls)-1]
}

// componentSettler is what a solver does with a component once it closes:
// settle gives a cyclic component's members their final answers, and done
// marks one member's answer final.
type componentSettler[N any] interface {
	settle(at int)
	done(n N)
}

// finish ends the computation of the node at place at (leave); when that
// node is the first of its component, s settles the component (if it is
// cyclic), marks each member done, and the component closes. Either way
// the node's answer is the one to return: a member that is not first is
// settled by its component's first.
//
// s is an interface rather than a func so that the memo miss every
// question of every solver goes through allocates no closure.
func (o *openComponents[N]) finish(at int, s componentSettler[N]) {
	first, cyclic := o.leave(at)
	if !first {
		return
	}
	if cyclic {
		s.settle(at)
	}
	for _, n := range o.members(at) {
		s.done(n)
	}
	o.close(at)
}

// iterate computes the members of the component opened at place at again,
// as a computation of its own (again), pass after pass, until a pass
// changes no member's answer and adds no member (a question first asked
// with the fuller answers joins the component), or after rounds passes.
// recompute computes one member again and reports whether its answer
// changed.
func (o *openComponents[N]) iterate(at, rounds int, recompute func(N) (changed bool)) {
	o.again(at, func() {
		for range rounds {
			size := len(o.open)
			changed := false
			for i := at; i < len(o.open); i++ {
				if recompute(o.open[i]) {
					changed = true
				}
			}
			if !changed && len(o.open) == size {
				return
			}
		}
	})
}

// untilSettled is iterate's rounds for answers that only grow, within
// bounds, and so settle after finitely many passes.
const untilSettled = math.MaxInt
