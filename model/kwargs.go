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
// changes made to it before the call in that scope (`name["k"] = v`,
// update(k=v), setdefault("k", v), pop("k"), del name["k"]): one among the
// scope's own statements always runs, one nested in an if or a loop may.
// Any other change to the dict (a computed key, update(other), clear()),
// or any other shape, leaves the call as written.

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
	bs := ev.reaching(lookup(n.ID, sc), n.ID, sc, int(c.Start))
	if len(bs) != 1 || bs[0].Kind != BindAssign || bs[0].Scope != sc || len(bs[0].Index()) > 0 {
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
	// The changes between the binding and the call: one among the scope's
	// own statements always runs; one nested in an if, a loop or a try may
	// or may not, so a store makes the keyword either value (a conditional
	// expression whose test the model cannot decide) and a removal keeps
	// it. A change the model cannot list leaves the call as written.
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
							kws, known = removeKey(kws, sub.Index, isTopStmt(st, x))
						}
					}
				}
			case *syntax.Call:
				a, ok := x.Func.(*syntax.Attribute)
				if !ok || !isNameExpr(a.X, n.ID) || !dictMutators[a.Attr] {
					break
				}
				top := isTopStmt(st, x)
				switch a.Attr {
				case "update":
					// update(k=v, ...): stores of those keys.
					for _, arg := range x.Args {
						if arg.Keyword == "" || arg.Star != 0 {
							known = false
							break
						}
						kw := arg
						if !top {
							kw.Value = eitherOf(kws, arg.Keyword, arg.Value)
						}
						kws = setKeyword(kws, kw)
					}
				case "setdefault":
					// setdefault("k", v): v when the key was not there.
					k, ok := constKeyArg(x)
					if !ok || len(x.Args) != 2 {
						known = false
						break
					}
					if keywordAt(kws, k.Value) < 0 {
						kws = setKeyword(kws, syntax.Arg{Span: x.Args[1].Value.Pos(), Keyword: k.Value, KeywordSpan: k.Span, Value: x.Args[1].Value})
					}
				case "pop":
					if len(x.Args) == 0 {
						known = false
						break
					}
					kws, known = removeKey(kws, []syntax.Expr{x.Args[0].Value}, top)
				default:
					known = false // clear(), popitem(): not followed
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
	if i := keywordAt(kws, key); i >= 0 {
		return &syntax.IfExp{Span: v.Pos(), Test: &syntax.Opaque{Span: v.Pos(), Kind: "undecided"}, Body: kws[i].Value, Else: v}
	}
	return v
}

// dictMutators are the dict methods that change it.
var dictMutators = map[string]bool{"update": true, "setdefault": true, "pop": true, "popitem": true, "clear": true, "__setitem__": true, "__delitem__": true}

// isTopStmt reports whether x is the statement st itself or its whole
// expression: a change among the scope's own statements, which runs
// whenever the call does.
func isTopStmt(st syntax.Stmt, x syntax.Node) bool {
	if e, ok := st.(*syntax.ExprStmt); ok {
		return syntax.Node(e.X) == x
	}
	return syntax.Node(st) == x
}

// removeKey drops a constant key from the keywords when the removal always
// runs; one that may not run keeps it (the entry may be there). A
// computed key is not known.
func removeKey(kws []syntax.Arg, index []syntax.Expr, always bool) ([]syntax.Arg, bool) {
	if len(index) != 1 {
		return kws, false
	}
	k, ok := index[0].(*syntax.String)
	if !ok || k.Interpolated {
		return kws, false
	}
	if !always {
		return kws, true
	}
	out := kws[:0:0]
	for _, a := range kws {
		if a.Keyword != k.Value {
			out = append(out, a)
		}
	}
	return out, true
}

// constKeyArg is a call's first argument when it is a constant string.
func constKeyArg(c *syntax.Call) (*syntax.String, bool) {
	if len(c.Args) == 0 || c.Args[0].Keyword != "" || c.Args[0].Star != 0 {
		return nil, false
	}
	k, ok := c.Args[0].Value.(*syntax.String)
	return k, ok && !k.Interpolated
}

// keywordAt is the index of the keyword argument key in kws, or -1.
func keywordAt(kws []syntax.Arg, key string) int {
	for i, a := range kws {
		if a.Keyword == key {
			return i
		}
	}
	return -1
}

// setKeyword replaces the keyword argument of the same name, or appends.
func setKeyword(kws []syntax.Arg, a syntax.Arg) []syntax.Arg {
	if i := keywordAt(kws, a.Keyword); i >= 0 {
		kws[i] = a
		return kws
	}
	return append(kws, a)
}
