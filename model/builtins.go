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
