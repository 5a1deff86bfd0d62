package model

import (
	"slices"
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Initializations and forks on paths that never meet. The simulation joins
// the arms of every branch, so in
//
//	for chunk in chunks:
//	    if self.workers > 1:
//	        futures.append(pool.submit(work, chunk))
//	    else:
//	        work_on_gpu(chunk)
//
// the second pass of the loop forked in a state the first pass's else arm
// had initialized, though a process takes one arm on every pass: the
// parent initializes only on the path that never forks. A test whose value
// cannot change while a function runs (stableTest) makes each arm a fact
// that holds on the paths through it, keyed by the test's text and the
// call of the function it runs in. An initialization remembers the facts
// that held on every path that ran it (initCond); a fork where one of them
// holds with the other arm is not after that initialization. Across two
// calls of the function the arms meet only if the test's value changed in
// between, which the analysis did not see: the fork is then the CFL003
// warning (acrossCalls).

// branchFact is that the test of an if, in one call of its function, took
// one arm.
type branchFact struct {
	call int32     // the simulator's number for the call (simulator.call); pastCall once it returned
	fn   *Function // the function the if is in (nil: the entry's body)
	test string    // the test's source, spaces dropped
	arm  uint8     // 0: its body ran, 1: its else
}

// pastCall is the call of a fact of a call that returned. An
// initialization keeps the facts it ran under in that call (forget): a fork
// in a later call of the same function, on the other arm of the same
// stable test, meets it only if the test's value changed between the two
// calls (another instance, other arguments), which the analysis cannot see
// when it could not evaluate the test in either call (a test it can
// evaluate takes one arm and records no fact: summary.go's ifStmt).
const pastCall int32 = -1

// initCond is a fact that held on every path that ran the initialization
// at site.
type initCond struct {
	site Site
	fact branchFact
}

// stableTest reports whether the value of test, an if's test in the
// function being built, is the same wherever in one call of it the test
// runs: it reads only constants, parameters and locals bound once and not
// again in the loops around the if, and attributes of self that only
// __init__ assigns, through comparisons, `and`, `or` and `not`. A call,
// a subscript or a global may read anything.
func (b *builder) stableTest(test syntax.Expr, loopFrom int32) bool {
	f := b.sc.Func
	if f == nil || b.sc != f.Scope {
		return false
	}
	var stable func(e syntax.Expr) bool
	stable = func(e syntax.Expr) bool {
		switch e := e.(type) {
		case *syntax.Constant, *syntax.Number:
			return true
		case *syntax.String:
			return !e.Interpolated
		case *syntax.Name:
			return b.boundOnce(e.ID, loopFrom)
		case *syntax.Attribute:
			n, ok := e.X.(*syntax.Name)
			return ok && f.Class != nil && isSelfParam(f, n.ID) && b.boundOnce(n.ID, loopFrom) && setOnlyInInit(f.Class, e.Attr)
		case *syntax.Compare:
			return stable(e.Left) && !slices.ContainsFunc(e.Comparators, func(x syntax.Expr) bool { return !stable(x) })
		case *syntax.BoolOp:
			return stable(e.X) && stable(e.Y)
		case *syntax.UnaryOp:
			return e.Op == "not" && stable(e.X)
		}
		return false
	}
	return stable(test)
}

// boundOnce reports whether name has one binding in the function being
// built, a parameter or one made before loopFrom (where the outermost loop
// around the if starts; the if itself when there is none).
func (b *builder) boundOnce(name string, loopFrom int32) bool {
	if b.sc.Globals[name] {
		return false
	}
	bs := b.sc.bindingsOf(name)
	if len(bs) != 1 {
		return false
	}
	return bs[0].Kind == BindParam || bs[0].Kind == BindAssign && bs[0].Span.End <= loopFrom
}

// setOnlyInInit reports whether c's __init__ assigns self.attr, and no
// other code of c assigns an attribute of that name (`self.attr += 1` in
// another method). An assignment from outside the class (`runner.attr = 0`
// between two calls) is not looked for: scanning every module's bodies for
// one took Megatron-LM's entries five times as long.
func setOnlyInInit(c *Class, attr string) bool {
	for _, b := range c.SelfAttrs[attr] {
		if b.Scope != nil && b.Scope.Func != nil && b.Scope.Func.Name == "__init__" {
			return !c.attrsSetOutsideInit()[attr]
		}
	}
	return false
}

// attrsSetOutsideInit are the names of the attributes c's code assigns
// (plainly or augmented) outside its __init__, gathered once per class.
func (c *Class) attrsSetOutsideInit() map[string]bool {
	if c.setAttrs != nil {
		return c.setAttrs
	}
	c.setAttrs = map[string]bool{}
	var walk func(n syntax.Node) bool
	walk = func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FunctionDef:
			return n.Name != "__init__"
		case *syntax.Assign:
			for _, t := range n.Targets {
				syntax.InspectScan(t, func(x syntax.Node) bool {
					if a, ok := x.(*syntax.Attribute); ok {
						c.setAttrs[a.Attr] = true
					}
					return true
				})
			}
		}
		return true
	}
	for _, s := range c.Def.Body {
		syntax.InspectScan(s, walk)
	}
	return c.setAttrs
}

// stableTestKey is the text a stable test is known by: two ifs of one function
// with the same test take the same arm.
func stableTestKey(s Site) string {
	return strings.Join(strings.Fields(string(s.Mod.Src[s.Span.Start:s.Span.End])), "")
}

// holds reports whether f is among the facts.
func holds(facts []branchFact, f branchFact) bool { return slices.Contains(facts, f) }

// contradicted reports whether the facts say the test of f took the other
// arm.
func contradicted(facts []branchFact, f branchFact) bool {
	return slices.ContainsFunc(facts, func(g branchFact) bool { return g.call == f.call && g.test == f.test && g.arm != f.arm })
}

// assume records, on the path into arm of a branch on a stable test, that
// the test took it.
func (st *simState) assume(f branchFact) {
	if !holds(st.facts, f) {
		st.facts = append(st.facts[:len(st.facts):len(st.facts)], f)
	}
}

// initialized records the facts under which the initialization at site
// ran now: a first run keeps all that hold, a later one only those that
// held on both.
func (st *simState) initialized(site Site, first bool) {
	if first {
		for _, f := range st.facts {
			st.conds = append(st.conds[:len(st.conds):len(st.conds)], initCond{site, f})
		}
		return
	}
	lost := func(c initCond) bool { return c.site == site && !st.holdsNow(c.fact) }
	if slices.ContainsFunc(st.conds, lost) {
		st.conds = slices.DeleteFunc(slices.Clone(st.conds), lost)
	}
}

// holdsNow reports whether f holds on the path st is on; a past fact holds
// where a running call of its function took the same arm of its test.
func (st *simState) holdsNow(f branchFact) bool {
	if f.call != pastCall {
		return holds(st.facts, f)
	}
	return slices.ContainsFunc(st.facts, func(g branchFact) bool { return g.fn == f.fn && g.test == f.test && g.arm == f.arm })
}

// unreachedFrom reports whether the initialization at site ran only on
// paths that never meet the one st is on.
func (st *simState) unreachedFrom(site Site) bool {
	for _, c := range st.conds {
		if c.site == site && contradicted(st.facts, c.fact) {
			return true
		}
	}
	return false
}

// joinFacts is join's share for o: the facts both paths hold, and for each
// initialization the facts that held on every path that ran it.
func (st *simState) joinFacts(o *simState, sInits, oInits []*InitRecord) {
	if len(st.facts) > 0 || len(o.facts) > 0 {
		st.facts = slices.DeleteFunc(slices.Clone(st.facts), func(f branchFact) bool { return !holds(o.facts, f) })
	}
	if slices.Equal(st.conds, o.conds) {
		// A condition names an initialization its state holds: the same
		// conditions on both paths are the conditions of their join.
		return
	}
	in := hasInit
	var conds []initCond
	for _, c := range st.conds {
		if !in(oInits, c.site) || slices.Contains(o.conds, c) {
			conds = append(conds, c)
		}
	}
	for _, c := range o.conds {
		if !in(sInits, c.site) {
			conds = append(conds, c)
		}
	}
	st.conds = conds
}

// sameFactsRead reports whether st and o, whose conds are equal, hold the
// same facts about the tests their initializations ran under: the only
// facts a start reads (unreachedFrom). The others differ from branch to
// branch, and comparing them made the records of calls (callmemo.go) miss
// where nothing they read differed.
func (st *simState) sameFactsRead(o *simState) bool {
	if len(st.conds) == 0 {
		return true
	}
	read := func(f branchFact) bool {
		return slices.ContainsFunc(st.conds, func(c initCond) bool {
			return c.fact.test == f.test && (c.fact.call == f.call || c.fact.call == pastCall && c.fact.fn == f.fn) // unreachedFrom, acrossCalls
		})
	}
	for _, f := range st.facts {
		if read(f) && !holds(o.facts, f) {
			return false
		}
	}
	for _, f := range o.facts {
		if read(f) && !holds(st.facts, f) {
			return false
		}
	}
	return true
}

// forget drops the facts of a call that returned: a later call of the
// function may take the other arm. The initializations that ran in the
// call keep them as past facts (pastCall), which no fact of a running call
// contradicts (unreachedFrom) but which acrossCalls reads.
func (st *simState) forget(call int32) {
	mine := func(f branchFact) bool { return f.call == call }
	if slices.ContainsFunc(st.facts, mine) {
		st.facts = slices.DeleteFunc(slices.Clone(st.facts), mine)
	}
	if !slices.ContainsFunc(st.conds, func(c initCond) bool { return mine(c.fact) }) {
		return
	}
	conds := make([]initCond, 0, len(st.conds))
	for _, c := range st.conds {
		if mine(c.fact) {
			c.fact.call = pastCall
			if slices.Contains(conds, c) {
				continue
			}
		}
		conds = append(conds, c)
	}
	st.conds = conds
}

// acrossCalls reports whether every initialization that reaches the path
// st is on ran, in an earlier call of a function, on one arm of a stable
// test that this path takes the other arm of in a later call of that
// function: the initialization and the fork then meet only if the test's
// value changed between the calls, a link the analysis did not see. It
// returns the test's key (stableTestKey) for the message.
func (st *simState) acrossCalls() (string, bool) {
	test := ""
	for _, r := range st.inits {
		if st.unreachedFrom(r.Site) {
			continue
		}
		i := slices.IndexFunc(st.conds, func(c initCond) bool {
			return c.site == r.Site && c.fact.call == pastCall && slices.ContainsFunc(st.facts, func(f branchFact) bool {
				return f.call != pastCall && f.fn == c.fact.fn && f.test == c.fact.test && f.arm != c.fact.arm
			})
		})
		if i < 0 {
			return "", false
		}
		if test == "" {
			test = st.conds[i].fact.test
		}
	}
	return test, test != ""
}
