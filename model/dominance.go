package model

import (
	"math"
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Evaluation is flow-insensitive: a name's value joins every binding of it
// in its scope. That is wrong in one common shape, a parameter or variable
// rebound before it is used:
//
//	def __init__(self, eval_dataloader):
//	    eval_dataloader = ensure_tuple(eval_dataloader)
//	    for evaluator in eval_dataloader: ...
//
// where the loop iterates the tuple, never the parameter. An assignment
// statement dominates every later statement of its statement list (Python
// has no goto: control reaches a later statement only through it), so a
// binding of the same scope made before it cannot reach a use there; the
// bindings made after it (later in the list, or in a loop's next pass) still
// can. The filter keeps to uses in the scope itself: code in a nested
// function or lambda runs when it is called, after any rebinding.
//
// For the same reason a binding that comes after the use in the text
// reaches it only through a loop around both: in
//
//	predictions, gold_labels, mask = self.detach_tensors(predictions, gold_labels, mask)
//	if mask is None:
//	    mask = torch.ones_like(gold_labels).bool()
//
// (allennlp's metrics) the mask passed in is the parameter, never the mask
// made below.

// A kill is a plain assignment statement (or a def or class statement) that
// hides earlier bindings of its name from the uses it runs before:
//
//   - it dominates the later statements of its own statement list, so it
//     hides every binding made before it from the uses there;
//   - in an if arm that nothing leaves before it, it also hides the arm's
//     earlier bindings from every later use in the scope, which is reached
//     through the arm only past it. In DETR's dataset, masks =
//     np.asarray(...), rgb2id(masks), masks == ids and
//     torch.as_tensor(masks) are all made in `if "segments_info" in ann:`,
//     and the use after the if sees the tensor (or, past a skipped arm, what
//     was bound before the if).
//   - in an arm of an if whose test, decided in the evaluation's call
//     context, takes that arm, it dominates the statements after the if in
//     the if's own statement list (cond, a taken-arm kill): with
//     `if num_proc is None: num_proc = 1` in a helper called without
//     num_proc, the test after it reads 1, never the parameter's None, and
//     `if num_proc > 1:` is decided. A test the context does not decide
//     leaves both values, as before.
type kill struct {
	stmt  syntax.Span
	value syntax.Expr // the assigned expression (nil for a def or class)
	from  int         // it hides the bindings from here up to the statement (-1: all before it)
	until int         // from the uses before this offset
	// cond is the if whose arm holds a taken-arm kill, and arm that arm
	// (armBody or armAlt); nil for the others.
	cond *syntax.If
	arm  armsRun
	// store marks an attribute store's kill (x.attr = v): it stores
	// whatever v is, where a rebinding x = wrap(x) may hand x through.
	store bool
}

// applies reports whether the assignment runs before a use at pos on every
// path to it that passes the bindings it hides. A taken-arm kill applies
// after the whole if: its other arm, dead in the context, may still be read.
func (k kill) applies(pos int) bool {
	if k.cond != nil {
		return int(k.cond.End) <= pos && pos < k.until
	}
	return int(k.stmt.End) <= pos && pos < k.until
}

// hides reports whether b is one of the bindings k hides.
func (k kill) hides(b *Binding) bool {
	return k.from <= int(b.Span.Start) && b.Span.Start < k.stmt.Start
}

// reaching drops from bs, the bindings lookup found for a name used at pos
// in sc, those that a kill applying to the use hides, and those the
// statement around the use makes itself: in
// `model, loader = accelerator.prepare(model, loader)` the arguments are
// the values from before (the statement's own bindings reach its right side
// only on a loop's next pass, and evaluating them there is a cycle the
// evaluator would cut, caching what it cut).
//
// A `x = wrap(x)` whose result the model cannot tell (a library call:
// fabric.setup(model), torch.compile(model)) hides nothing: such a call
// commonly returns its argument or a wrapper that forwards to it.
func (ev *evaluator) reaching(bs []*Binding, name string, sc *Scope, pos int) []*Binding {
	if len(bs) < 2 || pos < 0 {
		return bs
	}
	return ev.reachingUnder(bs, name, sc, pos, sc.killsOf()[name])
}

// reachingUnder is reaching with the kills of name in sc given: the plain
// ones, or those and the attribute stores' (reachingStores).
func (ev *evaluator) reachingUnder(bs []*Binding, name string, sc *Scope, pos int, kills []kill) []*Binding {
	// own points into the scope's kills, and hiding starts on the stack:
	// this runs at every use of a name bound more than once, and taking
	// the address of the loop's copy allocated one kill per kill read.
	var own *kill
	var room [4]*kill
	hiding := room[:0]
	for i := range kills {
		k := &kills[i]
		if int(k.stmt.Start) <= pos && pos < int(k.stmt.End) {
			own = k
		}
		if k.applies(pos) && (k.cond == nil || ev.armTest(k.cond, sc) == k.arm) && (k.store || !ev.opaqueWrap(k.value, name, sc)) {
			hiding = append(hiding, k)
		}
	}
	bs = ev.liveArms(bs, sc)
	later := false
	for _, b := range bs {
		later = later || (b.Scope == sc && int(b.Span.Start) > pos)
	}
	if own == nil && len(hiding) == 0 && !later {
		return bs
	}
	out := make([]*Binding, 0, len(bs))
bindings:
	for _, b := range bs {
		if b.Scope == sc {
			if own != nil && own.stmt.Contains(b.Span) {
				continue // bound by the statement the use is in
			}
			if int(b.Span.Start) > pos && !sc.inLoop(pos, int(b.Span.Start)) {
				continue // bound after the use, with no loop back to it
			}
			for _, k := range hiding {
				if k.hides(b) {
					continue bindings
				}
			}
		}
		out = append(out, b)
	}
	if len(out) == 0 {
		return bs // the model's bindings and the statements disagree: keep all
	}
	return out
}

// body is the statement list the scope's own code is written in.
func (sc *Scope) body() []syntax.Stmt {
	switch {
	case sc.Kind == FunctionScope && sc.Func != nil && sc.Func.Def != nil:
		return sc.Func.Def.Body()
	case sc.Kind == ClassScope && sc.Class != nil && sc.Class.Def != nil:
		return sc.Class.Def.Body
	case sc.Kind == ModuleScope && sc.Module != nil && sc.Module.File != nil:
		return sc.Module.File.Body
	}
	return nil
}

// killsOf are the kills of the scope's own body, by name, found once, in
// the same walk as its if arms.
func (sc *Scope) killsOf() map[string][]kill {
	return sc.flowOf().kills
}

// flowOf is the scope's kills, if arms and loops, found in one walk of its
// own body the first time one is asked for.
func (sc *Scope) flowOf() *scopeFlow {
	if sc.flow != nil {
		return sc.flow
	}
	// A function's own pass finds whether its body stores attributes
	// (hasStores), as it indexes its bindings.
	sc.ownBindings()
	fl := &scopeFlow{kills: map[string][]kill{}}
	if sc.hasStores {
		fl.storeKills = map[string][]kill{}
	}
	sc.flow = fl
	eachBlock(sc.body(), false, func(block []syntax.Stmt, inTry bool) {
		addListKills(fl, block)
		fl.addStores(sc, block)
		end := int(block[len(block)-1].Pos().End)
		for _, s := range block {
			switch s.(type) {
			case *syntax.For, *syntax.While:
				fl.loops = append(fl.loops, s.Pos())
			}
			ifs, ok := s.(*syntax.If)
			if !ok {
				continue
			}
			fl.ifArms = append(fl.ifArms, ifArm{stmt: ifs, body: listSpan(ifs.Body), alts: listSpan(ifs.Else)})
			if sc.Kind == FunctionScope {
				// Only a call context decides a test that a parameter's
				// rebinding hangs on; a module's top level has none, and
				// may hold thousands of ifs.
				addTakenArmKills(fl, ifs, ifs.Body, armBody, end)
				if _, elif := singleIf(ifs.Else); !elif {
					addTakenArmKills(fl, ifs, ifs.Else, armAlt, end)
				}
			}
			if !inTry {
				addArmKills(fl, ifs.Body)
				if _, elif := singleIf(ifs.Else); !elif {
					addArmKills(fl, ifs.Else)
				}
			}
		}
	})
	fl.mergeStoreKills()
	return fl
}

// inLoop reports whether a loop statement of sc's own body holds both
// offsets: code at the later one may run before code at the earlier one,
// on the loop's next pass.
func (sc *Scope) inLoop(a, b int) bool {
	for _, l := range sc.flowOf().loops {
		if int(l.Start) <= a && b < int(l.End) {
			return true
		}
	}
	return false
}

// eachBlock calls fn with list and with every statement list nested in
// it, not those of nested functions and classes (other scopes), saying
// whether the block is under a try (an exception may leave it anywhere and
// resume after it).
func eachBlock(list []syntax.Stmt, inTry bool, fn func(block []syntax.Stmt, inTry bool)) {
	if len(list) == 0 {
		return
	}
	fn(list, inTry)
	for _, s := range list {
		switch s := s.(type) {
		case *syntax.If:
			eachBlock(s.Body, inTry, fn)
			eachBlock(s.Else, inTry, fn)
		case *syntax.For:
			eachBlock(s.Body, inTry, fn)
			eachBlock(s.Else, inTry, fn)
		case *syntax.While:
			eachBlock(s.Body, inTry, fn)
			eachBlock(s.Else, inTry, fn)
		case *syntax.With:
			eachBlock(s.Body, inTry, fn)
		case *syntax.Try:
			eachBlock(s.Body, true, fn)
			for _, h := range s.Handlers {
				eachBlock(h.Body, true, fn)
			}
			eachBlock(s.Else, true, fn)
			eachBlock(s.Finally, true, fn)
		case *syntax.Match:
			for _, c := range s.Cases {
				eachBlock(c.Body, inTry, fn)
			}
		}
	}
}

// singleIf reports whether an else arm is an elif (a single nested if).
func singleIf(list []syntax.Stmt) (*syntax.If, bool) {
	if len(list) != 1 {
		return nil, false
	}
	s, ok := list[0].(*syntax.If)
	return s, ok
}

// addArmKills records the plain assignments at the top of one if arm (not
// under a try: the caller's business), up to the first statement that may
// jump out of it (break, continue, return, raise, yield, a nested try).
func addArmKills(fl *scopeFlow, arm []syntax.Stmt) {
	if len(arm) == 0 {
		return
	}
	from := int(arm[0].Pos().Start)
	for _, s := range arm {
		if mayLeave(s) {
			return
		}
		addKill(fl, s, from, math.MaxInt)
	}
}

// addTakenArmKills records the plain assignments of one arm of ifs as kills
// that hide every earlier binding of their names from the uses after ifs in
// its statement list, up to end, when the test takes that arm. Every
// statement of the arm's own list that completes reaches the next, so each
// of them runs on every path that leaves the arm for the statement after
// the if; an arm that jumps elsewhere does not reach those uses at all.
func addTakenArmKills(fl *scopeFlow, ifs *syntax.If, arm []syntax.Stmt, taken armsRun, end int) {
	for _, s := range arm {
		a, ok := s.(*syntax.Assign)
		if !ok || a.Op != "=" || a.Value == nil {
			continue
		}
		for _, t := range a.Targets {
			k := kill{stmt: a.Span, value: a.Value, from: -1, until: end, cond: ifs, arm: taken}
			for _, n := range assignedNames(t) {
				fl.kills[n] = append(fl.kills[n], k)
			}
			fl.addStoreKill(t, k)
		}
	}
}

// mayLeave reports whether a statement may leave its block other than by
// falling through: a jump, a raise, a return, a yield (the generator may be
// abandoned there), or a try.
func mayLeave(s syntax.Stmt) bool {
	leaves := false
	syntax.Inspect(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FunctionDef, *syntax.ClassDef, *syntax.Lambda:
			return false
		case *syntax.Return, *syntax.Try:
			leaves = true
		case *syntax.OtherStmt:
			switch n.Kind {
			case "break_statement", "continue_statement", "raise_statement":
				leaves = true
			}
		case *syntax.Opaque:
			if n.Kind == "yield" {
				leaves = true
			}
		}
		return !leaves
	})
	return leaves
}

// addListKills records the plain assignments of one statement list, each
// hiding what was bound before it from the rest of the list.
func addListKills(fl *scopeFlow, list []syntax.Stmt) {
	end := int(list[len(list)-1].Pos().End)
	for _, s := range list {
		addKill(fl, s, -1, end)
	}
}

// addKill records s if it is a plain assignment: x = v, a, b = v, or a
// def or class statement, which assigns its name just as well (a function
// defined after `from helpers import *` replaces the helper of that name).
// (x += v may extend x in place; `x: T` binds nothing.) An attribute store
// x.attr = v is recorded in the store kills: it hides what x held before
// from the uses that read x with its stores (attrstore.go), and from no
// other.
func addKill(fl *scopeFlow, s syntax.Stmt, from, until int) {
	switch d := s.(type) {
	case *syntax.FunctionDef:
		fl.kills[d.Name] = append(fl.kills[d.Name], kill{stmt: d.Span, from: from, until: until})
		return
	case *syntax.ClassDef:
		fl.kills[d.Name] = append(fl.kills[d.Name], kill{stmt: d.Span, from: from, until: until})
		return
	}
	a, ok := s.(*syntax.Assign)
	if !ok || a.Op != "=" || a.Value == nil {
		return
	}
	for _, t := range a.Targets {
		k := kill{stmt: a.Span, value: a.Value, from: from, until: until}
		for _, n := range assignedNames(t) {
			fl.kills[n] = append(fl.kills[n], k)
		}
		fl.addStoreKill(t, k)
	}
}

// assignedNames are the names an assignment target binds: x, and the names
// in (a, [b, *c]).
func assignedNames(t syntax.Expr) []string {
	switch t := t.(type) {
	case *syntax.Name:
		return []string{t.ID}
	case *syntax.Starred:
		return assignedNames(t.X)
	case *syntax.Sequence:
		var out []string
		for _, el := range t.Elts {
			out = append(out, assignedNames(el)...)
		}
		return out
	}
	return nil
}

// opaqueWrap reports whether value is a call handed the name itself whose
// result the model cannot tell: only unknown values and library results
// with no device.
func (ev *evaluator) opaqueWrap(value syntax.Expr, name string, sc *Scope) bool {
	c, ok := value.(*syntax.Call)
	if !ok {
		return false
	}
	handed := false
	for _, a := range c.Args {
		if n, ok := a.Value.(*syntax.Name); ok && n.ID == name {
			handed = true
		}
	}
	if !handed {
		return false
	}
	for _, f := range ev.expr(c.Func, sc) {
		if f.Kind == VPath && catalogLibrary(f.Path) {
			return false // torch.from_numpy(masks): the device rules know it
		}
	}
	for _, v := range ev.expr(c, sc) {
		// A value with a device is a tensor the model placed
		// (masks = torch.as_tensor(masks) of a numpy array): known.
		if (v.Kind != VUnknown && v.Kind != VPath) || v.Dev != DevNone {
			return false
		}
	}
	return true
}

// catalogLibrary reports whether path is rooted at a library of the
// catalog (torch, numpy, cupy, jax...), whose calls' values the model
// evaluates by the catalog's and the device rules.
func catalogLibrary(path string) bool {
	for _, lib := range catalog.Libraries() {
		if path == lib || strings.HasPrefix(path, lib+".") {
			return true
		}
	}
	return false
}

// ifArms are the if statements of a scope's own body with the spans of
// their arms: a binding in an arm that the test, decided in the context of
// the evaluation, does not take cannot reach any use (allennlp:
// `if "start_method" in kwargs: start_method = kwargs.pop(...)` `else:
// start_method = "fork"`, called with start_method="spawn").
type ifArm struct {
	stmt       *syntax.If
	body, alts syntax.Span
}

// liveArms drops from bs the bindings of sc made in an if arm its test
// does not take.
//
// In a function every if counts: what decides an arm there is the call's
// context, and a function's arms are few. A module's top level may hold
// thousands (a 10 MB module spent a fifth of its time here), and no call
// context decides them, so there only the ifs whose test reads module
// constants count (constArmsOf), wherever the binding is read from: with
// `USE_FFCV = True` bound once, the DataLoader of `if not USE_FFCV:` is
// never made.
func (ev *evaluator) liveArms(bs []*Binding, sc *Scope) []*Binding {
	if len(bs) < 2 {
		return bs
	}
	var out []*Binding
	for i, b := range bs {
		var arms []ifArm
		switch {
		case b.Scope == sc && sc.Kind == FunctionScope:
			arms = sc.ifArmsOf()
		case b.Scope != nil && b.Scope.Kind == ModuleScope:
			arms = b.Scope.constArmsOf()
		}
		if len(arms) > 0 && ev.deadArm(b, arms) {
			if out == nil {
				out = append(make([]*Binding, 0, len(bs)), bs[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, b)
		}
	}
	if out == nil {
		return bs
	}
	if len(out) == 0 {
		return bs // every binding in a dead arm: the model is wrong somewhere
	}
	return out
}

// deadArm reports whether b lies in an arm of an if whose test, decided,
// takes the other arm.
func (ev *evaluator) deadArm(b *Binding, arms []ifArm) bool {
	for _, a := range arms {
		inBody, inAlt := a.body.Contains(b.Span), a.alts.Len() > 0 && a.alts.Contains(b.Span)
		if !inBody && !inAlt {
			continue
		}
		switch ev.armTest(a.stmt, b.Scope) {
		case armNone:
			return true
		case armBody:
			if inAlt {
				return true
			}
		case armAlt:
			if inBody {
				return true
			}
		}
	}
	return false
}

// ifArmsOf lists the if statements of the scope's own body, found once.
func (sc *Scope) ifArmsOf() []ifArm {
	return sc.flowOf().ifArms
}

// constArmsOf lists, once, the if statements of the scope's own body whose
// test a module constant may decide (constantTest).
func (sc *Scope) constArmsOf() []ifArm {
	fl := sc.flowOf()
	if fl.constArms == nil {
		fl.constArms = []ifArm{}
		for _, a := range fl.ifArms {
			if constantTest(a.stmt.Test, sc.Module.Scope) {
				fl.constArms = append(fl.constArms, a)
			}
		}
	}
	return fl.constArms
}

// constantTest reports whether the truth of test may be decided by names
// the module binds once, to a literal (`USE_FFCV = True`, `DEBUG = 0`,
// `BACKEND = "nccl"`), compared with literals and joined with not, and, or:
// a name bound once has that one value wherever it is read. Anything else
// (a call, an attribute, a name bound twice or by a function's `global`)
// is left to the arms both running, as before, without evaluating it.
func constantTest(test syntax.Expr, module *Scope) bool {
	switch e := test.(type) {
	case *syntax.Name:
		bs := module.bindingsOf(e.ID)
		return len(bs) == 1 && bs[0].Kind == BindAssign && bs[0].path == nil && isLiteral(bs[0].Value)
	case *syntax.UnaryOp:
		return e.Op == "not" && constantTest(e.X, module)
	case *syntax.BoolOp:
		// One decided side may decide the whole (`not FAST and exists(p)`).
		return constantTest(e.X, module) || constantTest(e.Y, module)
	case *syntax.Compare:
		if len(e.Ops) != 1 {
			return false
		}
		l, r := constantTest(e.Left, module), constantTest(e.Comparators[0], module)
		return l && (r || isLiteral(e.Comparators[0])) || r && isLiteral(e.Left)
	}
	return false
}

// isLiteral reports whether e is a constant written out: True, None, a
// number or a plain string.
func isLiteral(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Constant, *syntax.Number:
		return true
	case *syntax.String:
		return !e.Interpolated
	}
	return false
}

// listSpan is the span of a statement list, empty for none.
func listSpan(list []syntax.Stmt) syntax.Span {
	if len(list) == 0 {
		return syntax.Span{}
	}
	return syntax.Span{Start: list[0].Pos().Start, End: list[len(list)-1].Pos().End}
}

// armTest is which arms of an if statement its test lets run in the
// evaluation's context, memoized per statement and context (every use of
// every name bound in its arms asks), and settled with the value memos
// (valuesolver.go): a test's truth reads the names its arms bind, through
// loops, so a test can depend on itself. Asked again while it is being
// decided, it answers the arms it lets run so far, none at first, the
// bottom from which the values of its component grow: a test that lets
// fewer arms run leaves fewer bindings live. Answering "unknown" there,
// as before, cached what was read under that answer, and the result
// depended on which question came first.
func (ev *evaluator) armTest(s *syntax.If, sc *Scope) armsRun {
	vs := sc.Module.Prog.values()
	k := armKey{s, ev.ctx.owning(sc)}
	cell := vs.armTests[k]
	if cell == nil {
		cell = &valueCell{}
		vs.armTests[k] = cell
	}
	if out, ok := cell.done(); ok {
		return armsOf(out)
	}
	solver := sc.Module.Prog.valueSolver()
	if cell.state == factBusy {
		return armsOf(solver.value(cell, nil))
	}
	if ev.nest >= maxNest {
		return armBody | armAlt
	}
	// Cached for every later question: decided with the whole depth
	// budget, as a binding's values are, not what is left of the
	// expression that first asked.
	return armsOf(solver.value(cell, func() []Value {
		return ev.freshIn(k.ctx, func() []Value {
			switch t, known := ev.truth(s.Test, sc); {
			case !known:
				return armValues[armBody|armAlt]
			case t:
				return armValues[armBody]
			}
			return armValues[armAlt]
		})
	}))
}

// armKey is an if statement in the context its test is evaluated in.
type armKey struct {
	stmt *syntax.If
	ctx  *callContext
}

// armsRun are the arms of an if statement that may run: its body, its
// alternative (else and elif), both, or, while its test is first being
// decided, neither.
type armsRun uint8

const (
	armNone armsRun = 0
	armBody armsRun = 1
	armAlt  armsRun = 2
)

// armValues encode armsRun as the values of a memo cell: an integer per
// arm that may run (0 the body, 1 the alternative), so that the solver's
// comparison of value sets compares them.
var armValues = [4][]Value{
	armBody:          {{Kind: VInt, Int: 0}},
	armAlt:           {{Kind: VInt, Int: 1}},
	armBody | armAlt: {{Kind: VInt, Int: 0}, {Kind: VInt, Int: 1}},
}

// armsOf decodes armValues.
func armsOf(vs []Value) armsRun {
	var out armsRun
	for _, v := range vs {
		if v.Int == 0 {
			out |= armBody
		} else {
			out |= armAlt
		}
	}
	return out
}
