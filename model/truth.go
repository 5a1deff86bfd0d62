package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Branches decided by constants. A test whose every possible value has the
// same truth (num_workers > 1 with num_workers bound to 1 by the call's
// context, `self.fn is None` where the constructor left fn None, a flag
// defined as False) takes one arm only; anything the model cannot evaluate
// keeps both.

// truth reports the truth value of a test, and whether it is known.
func (ev *evaluator) truth(e syntax.Expr, sc *Scope) (value, known bool) {
	switch e := e.(type) {
	case *syntax.UnaryOp:
		if e.Op == "not" {
			v, ok := ev.truth(e.X, sc)
			return !v, ok
		}
	case *syntax.BoolOp:
		x, xok := ev.truth(e.X, sc)
		if e.Op == "and" {
			if xok && !x {
				return false, true
			}
			y, yok := ev.truth(e.Y, sc)
			if yok && !y {
				return false, true
			}
			return true, xok && yok
		}
		if xok && x {
			return true, true
		}
		y, yok := ev.truth(e.Y, sc)
		if yok && y {
			return true, true
		}
		return false, xok && yok
	case *syntax.Compare:
		if len(e.Ops) == 1 {
			xs := ev.expr(e.Left, sc)
			if t, ok := ev.membership(e.Ops[0], xs, e.Comparators[0], sc); ok {
				return t, true
			}
			return ev.compare(e.Ops[0], xs, ev.expr(e.Comparators[0], sc))
		}
		return false, false
	case *syntax.Call:
		if v, ok := ev.quantifier(e, sc); ok {
			return v, true
		}
	}
	return truthOfAll(ev.expr(e, sc))
}

// truthOfAll is the truth shared by every value of vs, when all are known
// and agree.
func truthOfAll(vs []Value) (bool, bool) {
	if len(vs) == 0 {
		return false, false
	}
	first, ok := truthOf(vs[0])
	for _, v := range vs[1:] {
		t, tok := truthOf(v)
		ok = ok && tok && t == first
	}
	return first, ok
}

// boolValue is the constant True or False.
func boolValue(t bool) Value {
	if t {
		return Value{Kind: VConst, Int: int(syntax.ConstTrue)}
	}
	return Value{Kind: VConst, Int: int(syntax.ConstFalse)}
}

// truthOf is the truth of a constant.
func truthOf(v Value) (bool, bool) {
	switch v.Kind {
	case VConst:
		return v.Int == int(syntax.ConstTrue), true
	case VInt:
		return v.Int != 0, true
	case VStr:
		if v.Interp {
			return false, false
		}
		return v.Str != "", true
	case VFunc, VClass, VModule:
		return true, true
	case VList:
		if len(v.elems()) > 0 {
			return true, true // device_ids or [-1, -1] with device_ids=[0, 1]
		}
	case VPath:
		// typing.TYPE_CHECKING is False whenever the program runs: only
		// type checkers take `if TYPE_CHECKING:`, and the imports under
		// it never run.
		if v.Path == "typing.TYPE_CHECKING" || v.Path == "typing_extensions.TYPE_CHECKING" {
			return false, true
		}
	}
	// (Not an os.fork() result, an int the model does not know.)
	return false, false
}

// compare is the truth of `a op b` when it is the same for every pair of
// possible values.
func (ev *evaluator) compare(op string, as, bs []Value) (bool, bool) {
	if len(as) == 0 || len(bs) == 0 {
		return false, false
	}
	var result, known bool
	for i, a := range as {
		for j, b := range bs {
			r, ok := compareValues(op, a, b)
			if !ok {
				return false, false
			}
			if i == 0 && j == 0 {
				result, known = r, true
			} else if r != result {
				return false, false
			}
		}
	}
	return result, known
}

// membership is the truth of `x in coll` (or `x not in coll`) for xs, the
// values of x, when it is the same for each: coll is a tuple, list or set
// written out (sys.platform in ("win32", "cygwin"), flag.lower() not in
// ["0", "false"], int(level) in {1, 2}) whose every element is one value
// that compareValues decides == on against each of xs. The model's lists
// stand for their elements by a representative (merge, and one element
// for a comprehension), too loose for a membership test: so a collection
// not written out, or an element with several values, decides nothing.
func (ev *evaluator) membership(op string, xs []Value, coll syntax.Expr, sc *Scope) (bool, bool) {
	seq, ok := coll.(*syntax.Sequence)
	if op != "in" && op != "not in" || !ok || len(xs) == 0 {
		return false, false
	}
	elems := make([]Value, len(seq.Elts))
	for i, el := range seq.Elts {
		vs := ev.expr(el, sc)
		if len(vs) != 1 {
			return false, false
		}
		elems[i] = vs[0]
	}
	var result bool
	for i, x := range xs {
		in := false
		for _, el := range elems {
			eq, ok := compareValues("==", x, el)
			if !ok {
				return false, false
			}
			in = in || eq
		}
		t := in == (op == "in")
		if i > 0 && t != result {
			return false, false
		}
		result = t
	}
	return result, true
}

func compareValues(op string, a, b Value) (bool, bool) {
	switch {
	case a.Kind == VInt && b.Kind == VInt:
		switch op {
		case "==":
			return a.Int == b.Int, true
		case "!=":
			return a.Int != b.Int, true
		case "<":
			return a.Int < b.Int, true
		case "<=":
			return a.Int <= b.Int, true
		case ">":
			return a.Int > b.Int, true
		case ">=":
			return a.Int >= b.Int, true
		}
	case (op == "in" || op == "not in") && a.Kind == VStr && !a.Interp && b.Kind == VStr && !b.Interp:
		// A substring: "win" in sys.platform.
		return strings.Contains(b.Str, a.Str) == (op == "in"), true
	case a.Kind == VStr && b.Kind == VStr && !a.Interp && !b.Interp:
		switch op {
		case "==":
			return a.Str == b.Str, true
		case "!=":
			return a.Str != b.Str, true
		}
	case (op == "in" || op == "not in") && a.Kind == VStr && !a.Interp && b.Kind == VDict:
		// A key among the dict's known keys: "start_method" in kwargs. A
		// dict with keys the model did not see ("") decides only presence.
		in, known := slicesContain(b.keys(), a.Str), !slicesContain(b.keys(), "")
		if !in && !known {
			return false, false
		}
		return in == (op == "in"), true
	case op == "is" || op == "is not":
		// Only `x is None` is decided: a constant against None, or any other
		// value the model knows the kind of.
		aNone, aok := isNone(a)
		bNone, bok := isNone(b)
		if !aok || !bok || !(aNone || bNone) {
			return false, false
		}
		same := aNone == bNone
		if op == "is" {
			return same, true
		}
		return !same, true
	}
	return false, false
}

// isNone reports whether a value is None, when that is known.
func isNone(v Value) (bool, bool) {
	switch v.Kind {
	case VConst:
		return v.Int == int(syntax.ConstNone), true
	case VInt, VStr, VFunc, VClass, VModule, VList, VDict, VNamespace, VInstance:
		return false, true
	}
	return false, false
}

// quantifier is the truth of any(test for x in xs) or all(...) over a list
// the model knows to be non-empty, when the test has one truth for every
// element x may be (allennlp's `"spawn" if any(x >= 0 for x in device_ids)
// else "fork"`, called with [0, 1]).
func (ev *evaluator) quantifier(c *syntax.Call, sc *Scope) (bool, bool) {
	f, ok := c.Func.(*syntax.Name)
	if !ok || (f.ID != "any" && f.ID != "all") || len(lookup(f.ID, sc)) > 0 || len(c.Args) != 1 || c.Args[0].Keyword != "" || c.Args[0].Star != 0 {
		return false, false
	}
	comp, ok := c.Args[0].Value.(*syntax.Comprehension)
	if !ok || comp.Kind == syntax.DictComp || len(comp.Generators) != 1 || len(comp.Generators[0].Ifs) > 0 {
		return false, false
	}
	iters := ev.expr(comp.Generators[0].Iter, sc)
	for _, v := range iters {
		if v.Kind != VList || len(v.elems()) == 0 {
			return false, false // may be empty, or not a list the model knows
		}
	}
	if len(iters) == 0 {
		return false, false
	}
	// The loop variable holds every element at once (a BindIter binding):
	// a known truth of the test holds for each of them.
	return ev.truth(comp.Elt, sc)
}
