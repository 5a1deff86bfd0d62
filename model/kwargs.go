package model

import (
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Keyword arguments passed as a dict. Training code often collects a
// loader's or a pool's options in a dict and unpacks it:
//
//	dataloader_kwargs = {"num_workers": self.data_num_workers, "pin_memory": True}
//	dataloader_kwargs["batch_sampler"] = batch_sampler
//	train_loader = DataLoader(self.dataset, **dataloader_kwargs)
//
// (YOLOX). The process table's arguments are read from the call as written
// (argOf), so such a loader had no num_workers and never started. A call of
// a process API is read instead as the call with the dict's entries
// written out as keywords (withUnpackedKwargs): for `**name` where name has
// one binding in the call's own scope, to a dict display with constant
// keys (or dict(k=v, ...)), the display's entries and the constant-key
// stores into it (`name["k"] = v`) made before the call in that scope: one
// among the scope's own statements replaces the entry, one nested in an
// if or a loop may replace it. Any other change to the dict, or any other
// shape, leaves the call as written.

// withUnpackedKwargs returns c with its `**name` arguments written out as
// keywords where they can be, or c itself.
func (ev *evaluator) withUnpackedKwargs(c *syntax.Call, sc *Scope) *syntax.Call {
	starred := false
	for _, a := range c.Args {
		starred = starred || a.Star == 2
	}
	if !starred {
		return c
	}
	vs := sc.Module.Prog.values()
	if m, ok := vs.unpacked[c]; ok {
		return m
	}
	if vs.unpacked == nil {
		vs.unpacked = map[*syntax.Call]*syntax.Call{}
	}
	out := c
	var args []syntax.Arg
	changed := false
	for _, a := range c.Args {
		if a.Star == 2 {
			if kws, ok := ev.dictKeywords(a.Value, c, sc); ok {
				args = append(args, kws...)
				changed = true
				continue
			}
		}
		args = append(args, a)
	}
	if changed {
		out = &syntax.Call{Span: c.Span, Func: c.Func, Args: args, ArgsSpan: c.ArgsSpan}
	}
	vs.unpacked[c] = out
	return out
}

// dictKeywords are the keyword arguments `**e` stands for at call c, when
// the model can list them.
func (ev *evaluator) dictKeywords(e syntax.Expr, c *syntax.Call, sc *Scope) ([]syntax.Arg, bool) {
	n, ok := e.(*syntax.Name)
	if !ok {
		return nil, false
	}
	bs := ev.reaching(lookup(n.ID, sc), n.ID, sc, c.Start)
	if len(bs) != 1 || bs[0].Kind != BindAssign || bs[0].Scope != sc || len(bs[0].Index) > 0 {
		return nil, false
	}
	b := bs[0]
	var kws []syntax.Arg
	switch d := b.Value.(type) {
	case *syntax.Dict:
		for i, key := range d.Keys {
			k, ok := key.(*syntax.String)
			if !ok || k.Interpolated || i >= len(d.Values) {
				return nil, false // **spread or a computed key
			}
			kws = append(kws, syntax.Arg{Span: d.Values[i].Pos(), Keyword: k.Value, KeywordSpan: k.Span, Value: d.Values[i]})
		}
	case *syntax.Call:
		if f, ok := d.Func.(*syntax.Name); !ok || f.ID != "dict" || len(lookup("dict", sc)) > 0 {
			return nil, false
		}
		for _, a := range d.Args {
			if a.Keyword == "" || a.Star != 0 {
				return nil, false
			}
			kws = append(kws, a)
		}
	default:
		return nil, false
	}
	// name["key"] = value between the binding and the call: a store among
	// the scope's own statements replaces the entry; one nested in an if, a
	// loop or a try may or may not run, so the keyword is either value (a
	// conditional expression whose test the model cannot decide). Any other
	// change to the dict (update(), pop(), del, a computed key) leaves the
	// call as written: its keywords are not known.
	known := true
	for _, st := range sc.body() {
		if st.Pos().End <= b.Span.Start || st.Pos().Start >= c.Start {
			continue
		}
		top, _ := st.(*syntax.Assign)
		syntax.Inspect(st, func(x syntax.Node) bool {
			switch x := x.(type) {
			case *syntax.Assign:
				for _, t := range x.Targets {
					sub, ok := t.(*syntax.Subscript)
					if !ok || !isNameExpr(sub.X, n.ID) {
						continue
					}
					var k *syntax.String
					if len(sub.Index) == 1 {
						k, _ = sub.Index[0].(*syntax.String)
					}
					if k == nil || k.Interpolated || x.Op != "=" && x.Op != "" || len(x.Targets) != 1 || x.Value == nil {
						known = false
						continue
					}
					kw := syntax.Arg{Span: x.Value.Pos(), Keyword: k.Value, KeywordSpan: k.Span, Value: x.Value}
					if x != top {
						kw.Value = eitherOf(kws, k.Value, x.Value)
					}
					kws = setKeyword(kws, kw)
				}
			case *syntax.OtherStmt:
				if x.Kind == "delete_statement" {
					for _, e := range x.Exprs {
						if sub, ok := e.(*syntax.Subscript); ok && isNameExpr(sub.X, n.ID) {
							known = false
						}
					}
				}
			case *syntax.Call:
				if a, ok := x.Func.(*syntax.Attribute); ok && isNameExpr(a.X, n.ID) && dictMutators[a.Attr] {
					known = false
				}
			}
			return known
		})
		if !known {
			return nil, false
		}
	}
	return kws, true
}

// eitherOf is a keyword's value when a store of v into it may or may not
// run: `old if <undecided> else v`, or v when it had none.
func eitherOf(kws []syntax.Arg, key string, v syntax.Expr) syntax.Expr {
	for _, a := range kws {
		if a.Keyword == key {
			return &syntax.IfExp{Span: v.Pos(), Test: &syntax.Opaque{Span: v.Pos(), Kind: "undecided"}, Body: a.Value, Else: v}
		}
	}
	return v
}

// dictMutators are the dict methods that change it.
var dictMutators = map[string]bool{"update": true, "setdefault": true, "pop": true, "popitem": true, "clear": true, "__setitem__": true, "__delitem__": true}

// isNameExpr reports whether e is the name id.
func isNameExpr(e syntax.Expr, id string) bool {
	n, ok := e.(*syntax.Name)
	return ok && n.ID == id
}

// setKeyword replaces the keyword argument of the same name, or appends.
func setKeyword(kws []syntax.Arg, a syntax.Arg) []syntax.Arg {
	for i := range kws {
		if kws[i].Keyword == a.Keyword {
			kws[i] = a
			return kws
		}
	}
	return append(kws, a)
}
