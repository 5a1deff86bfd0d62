package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Python's builtins that pass values through: list(xs), sorted(xs),
// enumerate(xs), zip(a, b), next(it), dict(k=v), getattr(obj, "name"). The
// elements of the containers they take come out of them, so that a list of
// processes or of CUDA tensors stays one through them.

// iterElems is what iterating over values gives: a list's or a tuple's
// elements, a dict's keys, a tensor's slices (on its device).
func iterElems(vs []Value) []Value {
	var elems []Value
	for _, v := range vs {
		switch {
		case v.Kind == VList:
			elems = add(elems, v.elems()...)
		case v.Kind == VDict:
			for _, k := range v.keys() {
				if k != "" {
					elems = add(elems, Value{Kind: VStr, Str: k})
				}
			}
		case v.Dev != DevNone && v.Kind != VDevice:
			elems = add(elems, Value{Kind: VUnknown, Dev: v.Dev})
		}
	}
	return elems
}

// builtinCall handles a call of a builtin (a name bound nowhere in scope);
// it reports whether it knew the builtin.
func (ev *evaluator) builtinCall(r *callResult, name string, c *syntax.Call, sc *Scope) bool {
	arg := func(i int) []Value {
		if i < len(c.Args) && c.Args[i].Keyword == "" && c.Args[i].Star == 0 {
			return ev.expr(c.Args[i].Value, sc)
		}
		return nil
	}
	switch name {
	case "list", "tuple", "sorted", "reversed", "set", "frozenset", "iter":
		r.value(listOf(iterElems(arg(0))...))
	case "next", "max", "min":
		if name != "next" && len(c.Args) > 1 {
			r.values = add(r.values, ev.extremum(name == "min", c, sc)...)
			break
		}
		if elems := iterElems(arg(0)); len(elems) > 0 {
			r.values = add(r.values, elems...)
		}
	case "enumerate":
		pair := listOf(Value{Kind: VUnknown}, merge(iterElems(arg(0))))
		r.value(listOf(pair))
	case "map":
		// map(list, rows): each row made a list, its items where they were
		// (graphs, labels = map(list, zip(*samples)) in a collate_fn).
		if len(c.Args) != 2 || c.Args[0].Keyword != "" || c.Args[0].Star != 0 {
			return false
		}
		conv, ok := c.Args[0].Value.(*syntax.Name)
		if !ok || len(lookup(conv.ID, sc)) > 0 || (conv.ID != "list" && conv.ID != "tuple" && conv.ID != "sorted") {
			return false
		}
		var rows []Value
		for _, row := range iterElems(arg(1)) {
			rows = add(rows, listOf(iterElems([]Value{row})...))
		}
		r.value(listOf(rows...))
	case "zip":
		var tuple []Value
		if len(c.Args) == 1 && c.Args[0].Star == 1 {
			// zip(*batch), a transposition: each tuple holds the items of
			// the rows (one representative column: the arity is unknown).
			rows := iterElems(ev.expr(c.Args[0].Value, sc))
			tuple = append(tuple, merge(iterElems(rows)))
		}
		for i := range c.Args {
			if c.Args[i].Star == 0 {
				tuple = append(tuple, merge(iterElems(arg(i))))
			}
		}
		r.value(listOf(listOf(tuple...)))
	case "dict":
		var d elements
		for _, v := range arg(0) {
			if v.Kind == VDict {
				d.Elems, d.Keys = append(d.Elems, v.elems()...), append(d.Keys, v.keys()...)
			}
		}
		for _, a := range c.Args {
			if a.Keyword != "" {
				d.Elems, d.Keys = append(d.Elems, merge(ev.expr(a.Value, sc))), append(d.Keys, a.Keyword)
			}
		}
		r.value(Value{Kind: VDict}.withSeq(d.Elems, d.Keys))
	case "super":
		r.values = add(r.values, ev.super(sc)...)
	case "vars":
		for _, v := range arg(0) {
			if v.Kind == VNamespace {
				v.Kind = VDict
				r.value(v)
			}
		}
	case "len":
		// len(xs[:k]) is at most k, whatever xs holds: DGL's notebook
		// keeps one GPU (devices = [...][:1]) and spawns only when
		// len(devices) > 1.
		k, ok := ev.sliceLimit(c, sc)
		if !ok {
			return false
		}
		for i := 0; i <= k; i++ {
			r.value(Value{Kind: VInt, Int: i})
		}
	case "getattr":
		if len(c.Args) >= 2 {
			if s, ok := c.Args[1].Value.(*syntax.String); ok && !s.Interpolated {
				r.values = add(r.values, ev.attr(arg(0), s.Value)...)
			}
		}
	default:
		return false
	}
	return true
}

// maxExtremumCases bounds the combinations of its arguments' values that
// min(a, b, ...) or max(a, b, ...) is computed for.
const maxExtremumCases = 64

// extremum is min(a, b, ...) (least) or max(a, b, ...): one of its
// arguments, whichever compares least (greatest). Each combination of the
// arguments' values where all are ints gives that int; one with a value the
// model does not know gives the combination's values (a tensor keeps its
// device), except for a min whose known values are at most 0 where every
// unknown one is a count, never negative: that is the least known value.
// lightly's video frame counting clamps `num_workers = min(num_workers,
// len(video_instances))`, which is its 0 whatever the folder holds, so its
// DataLoader starts no workers.
func (ev *evaluator) extremum(least bool, c *syntax.Call, sc *Scope) []Value {
	var args [][]Value
	var counts []bool
	cases, keyed := 1, false
	for _, a := range c.Args {
		switch {
		case a.Star != 0:
			return unknown()
		case a.Keyword != "":
			keyed = true // key=: compared by what the function makes of them
			continue
		}
		vs := ev.expr(a.Value, sc)
		args, counts = append(args, vs), append(counts, neverNegative(a.Value, vs, sc))
		cases *= len(vs)
	}
	if keyed || cases == 0 || cases > maxExtremumCases {
		// (An argument with no value raises before the call.)
		var out []Value
		for _, vs := range args {
			out = add(out, vs...)
		}
		return out
	}
	var out []Value
	pick := make([]int, len(args))
	for {
		// bound is the least (greatest) of the known values; counted
		// whether every unknown one is a count.
		bound, haveInt, allKnown, counted := 0, false, true, true
		for i, k := range pick {
			v := args[i][k]
			if v.Kind != VInt {
				allKnown, counted = false, counted && counts[i]
				continue
			}
			if !haveInt || least && v.Int < bound || !least && v.Int > bound {
				bound = v.Int
			}
			haveInt = true
		}
		switch {
		case allKnown, least && haveInt && counted && bound <= 0:
			out = add(out, Value{Kind: VInt, Int: bound})
		default:
			for i, k := range pick {
				out = add(out, args[i][k])
			}
		}
		i := len(pick) - 1
		for ; i >= 0; i-- {
			if pick[i]++; pick[i] < len(args[i]) {
				break
			}
			pick[i] = 0
		}
		if i < 0 {
			return out
		}
	}
}

// countPaths are the library calls that return a count of things, never
// negative.
var countPaths = map[string]bool{
	"os.cpu_count()": true, "multiprocessing.cpu_count()": true, "torch.cuda.device_count()": true,
}

// neverNegative reports whether e, an argument of min or max whose values
// are vs, is a count: len(xs), a CPU or device count, or ints at least 0.
func neverNegative(e syntax.Expr, vs []Value, sc *Scope) bool {
	if c, ok := e.(*syntax.Call); ok {
		if n, ok := c.Func.(*syntax.Name); ok && n.ID == "len" && len(lookup(n.ID, sc)) == 0 {
			return true
		}
	}
	for _, v := range vs {
		if !(v.Kind == VInt && v.Int >= 0 || v.Kind == VPath && countPaths[v.Path]) {
			return false
		}
	}
	return len(vs) > 0
}

// maxSliceLimit bounds the lengths len() enumerates for a sliced sequence.
const maxSliceLimit = 8

// sliceLimit returns k when len's argument is a sequence sliced as xs[:k]
// or xs[0:k] with a small constant k, written in the call or bound once to
// the name it passes.
func (ev *evaluator) sliceLimit(c *syntax.Call, sc *Scope) (int, bool) {
	if len(c.Args) != 1 || c.Args[0].Keyword != "" || c.Args[0].Star != 0 {
		return 0, false
	}
	e := c.Args[0].Value
	if n, ok := e.(*syntax.Name); ok {
		bs := lookup(n.ID, sc)
		if len(bs) != 1 || bs[0].Kind != BindAssign || len(bs[0].Index()) > 0 {
			return 0, false
		}
		e = bs[0].Value
		sc = bs[0].Scope
	}
	s, ok := e.(*syntax.Subscript)
	if !ok || len(s.Index) != 1 {
		return 0, false
	}
	o, ok := s.Index[0].(*syntax.Opaque)
	if !ok || o.Kind != "slice" {
		return 0, false
	}
	text := strings.ReplaceAll(string(sc.Module.Src[o.Start:o.End]), " ", "")
	text = strings.TrimPrefix(text, "0")
	if !strings.HasPrefix(text, ":") {
		return 0, false
	}
	k, ok := parseInt(text[1:])
	if !ok || k < 0 || k > maxSliceLimit {
		return 0, false
	}
	return k, true
}

// super is super() in a method: the method's receiver seen as an instance
// of the class's first local base class, so that super().__init__(...)
// runs the base's constructor on the same instance.
func (ev *evaluator) super(sc *Scope) []Value {
	f := sc.Func
	if f == nil || f.Class == nil || len(f.Params()) == 0 {
		return nil
	}
	var self []Value
	for _, v := range ev.name(f.Params()[0].Name, f.Scope) {
		if v.Kind == VInstance {
			self = append(self, v)
		}
	}
	var out []Value
	ev.eachBase(f.Class, func(base []Value) bool {
		for _, bv := range base {
			if bv.Kind == VPath {
				// A library base: only its classFactories are read
				// through it (attrOf), for the instance of self's class
				// they make (a local from_pretrained that calls the
				// library's through super()).
				for _, s := range self {
					out = add(out, Value{Kind: VPath, Path: bv.Path + "()", Self: receiverClass(s), Env: s.Env})
				}
				return true
			}
			if bv.Kind != VClass {
				continue
			}
			for _, s := range self {
				// Methods are looked up from the base; self stays the
				// instance (receiverClass).
				out = add(out, Value{Kind: VInstance, Class: bv.Class, Self: receiverClass(s), Env: s.Env})
			}
			return true
		}
		return false
	})
	return out
}
