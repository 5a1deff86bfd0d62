package model

import (
	"slices"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Attribute stores on an object after it is made. minGPT's notebook writes
//
//	train_config = Trainer.get_default_config()   # C = CN(); C.num_workers = 4; return C
//	train_config.num_workers = 0
//	trainer = Trainer(train_config, model, train_dataset)
//
// and Trainer.run builds DataLoader(..., num_workers=config.num_workers)
// from it: a loader that starts no workers. An instance's attributes are
// otherwise what its class's methods store into self (Class.SelfAttrs),
// and a store through any other name was not seen at all.
//
// A store `x.attr = v` to a name x of the scope's own (not a method's
// self, whose stores are the class's) is read as a binding of x
// (BindAttrStore): x's values where the store runs, each local instance
// and attribute bag (argparse's namespace, SimpleNamespace) among them
// with attr replaced by v's values. The store is ordered as any
// assignment is (dominance.go): in straight-line code it hides what x
// held before from the uses after it, so the later value replaces the
// earlier one; a store in an if arm leaves both values to the uses after
// the if. Only the uses of x read the stores: the other readers of a
// name's bindings (how many there are, the tests of a loop) see the
// name's plain bindings, as before.
//
// What the model does not see keeps what it read before: a store through
// another name for the same object (an alias made before the store, a
// parameter of a function that sets it) is not seen by the uses of x, a
// method that sets the attribute again is not ordered against the store
// (the store's value is read), and a store to a property, or on an
// instance of a class that defines __setattr__, changes nothing the model
// reads.

// storedName is the name an attribute-store target writes through:
// x for `x.attr = v`; false for any other target.
func storedName(t syntax.Expr) (string, bool) {
	a, ok := t.(*syntax.Attribute)
	if !ok {
		return "", false
	}
	n, ok := a.X.(*syntax.Name)
	if !ok {
		return "", false
	}
	return n.ID, true
}

// addStores records the attribute stores of one statement list of sc's own
// body as bindings of the names they write through, when the indexer saw
// any (Scope.hasStores).
func (fl *scopeFlow) addStores(sc *Scope, block []syntax.Stmt) {
	if !sc.hasStores {
		return
	}
	for _, s := range block {
		a, ok := s.(*syntax.Assign)
		if !ok || a.Op != "=" || a.Value == nil {
			continue
		}
		for _, t := range a.Targets {
			name, ok := storedName(t)
			if !ok || sc.Globals[name] || sc.Func != nil && sc.Func.Class != nil && isSelfParam(sc.Func, name) {
				continue
			}
			attr := t.(*syntax.Attribute)
			if fl.stores == nil {
				fl.stores = map[string][]*Binding{}
			}
			fl.stores[name] = append(fl.stores[name], &Binding{
				Kind: BindAttrStore, Name: name, Span: attr.Span, Value: a.Value, Scope: sc,
				path: &bindingPath{attr: attr.Attr},
			})
		}
	}
}

// addStoreKill records k, the kill of an assignment to target t, as a
// store kill when t is an attribute store through a name, in a scope that
// has any (storeKills is nil in the others).
func (fl *scopeFlow) addStoreKill(t syntax.Expr, k kill) {
	if fl.storeKills == nil {
		return
	}
	if n, ok := storedName(t); ok {
		k.store = true
		fl.storeKills[n] = append(fl.storeKills[n], k)
	}
}

// mergeStoreKills completes the flow's store kills with the plain kills of
// the same names, and puts the stores in source order (the blocks are
// walked outermost first).
func (fl *scopeFlow) mergeStoreKills() {
	for name, ks := range fl.storeKills {
		fl.storeKills[name] = append(slices.Clip(fl.kills[name]), ks...)
	}
	for _, bs := range fl.stores {
		slices.SortFunc(bs, func(a, b *Binding) int { return int(a.Span.Start) - int(b.Span.Start) })
	}
}

// storesOf are the attribute stores through name in the scope that binds
// it, bs being lookup's bindings of it.
func storesOf(bs []*Binding, name string) []*Binding {
	if len(bs) == 0 || bs[0].Scope == nil || !bs[0].Scope.hasStores {
		return nil
	}
	return bs[0].Scope.flowOf().stores[name]
}

// reachingStores is reaching for bs, a name's bindings and its attribute
// stores, ordered by the kills of both.
func (ev *evaluator) reachingStores(bs []*Binding, name string, sc *Scope, pos int) []*Binding {
	if len(bs) < 2 || pos < 0 {
		return bs
	}
	kills, ok := sc.flowOf().storeKills[name]
	if !ok {
		kills = sc.killsOf()[name]
	}
	return ev.reachingUnder(bs, name, sc, pos, kills)
}

// storeValues is the value of store b: its name's values where the store
// runs, with the attribute replaced.
func (ev *evaluator) storeValues(b *Binding) []Value {
	// The earlier stores of the name first, each from the one before it:
	// a config built by fifty stores in a row would otherwise be
	// evaluated fifty calls deep.
	for _, e := range b.Scope.flowOf().stores[b.Name] {
		if e == b {
			break
		}
		ev.binding(e)
	}
	before := ev.nameAt(b.Name, b.Scope, int(b.Span.Start))
	stored := ev.expr(b.Value, b.Scope)
	out := make([]Value, 0, len(before))
	for _, v := range before {
		if v.Kind == VNamespace || v.Kind == VInstance && v.Class != nil && ev.plainAttr(v.Class, b.Attr()) {
			v = v.withAttr(b.Attr(), stored)
		}
		out = add(out, v)
	}
	return out
}

// plainAttr reports whether storing attr on an instance of c makes the
// stored value what a read of it gives: c and its local bases define no
// property of that name and no __setattr__.
func (ev *evaluator) plainAttr(c *Class, attr string) bool {
	if g, _ := ev.getter(c, attr, 0); g != nil {
		return false
	}
	_, custom := ev.getter(c, "__setattr__", 0)
	return !custom
}

// withAttr is v, an instance or an attribute bag, with attr's values
// replaced by vals (kept as a namespace keeps its entries: one per value,
// under the attribute's name).
func (v Value) withAttr(attr string, vals []Value) Value {
	var keys []string
	var elems []Value
	for i, k := range v.keys() {
		if k != attr {
			keys, elems = append(keys, k), append(elems, v.elems()[i])
		}
	}
	for _, s := range vals {
		keys, elems = append(keys, attr), append(elems, s)
	}
	return v.withSeq(elems, keys)
}

// storedAttr is what the stores made on instance v put in attr, if any
// did.
func storedAttr(v Value, attr string) ([]Value, bool) {
	var out []Value
	found := false
	for i, k := range v.keys() {
		if k == attr {
			out, found = add(out, v.elems()[i]), true
		}
	}
	return out, found
}

// sameStored reports whether a and b, two values otherwise the same, hold
// the same elements: none, or, for instances, the same stores. A list's
// or dict's elements are never compared (a list built from itself grows
// on each pass of a loop).
func sameStored(a, b *Value, depth int) bool {
	if a.seq == nil || b.seq == nil {
		return a.seq == b.seq
	}
	if a.Kind != VInstance || depth > 2 || len(a.seq.Elems) != len(b.seq.Elems) || !slices.Equal(a.seq.Keys, b.seq.Keys) {
		return false
	}
	for i := range a.seq.Elems {
		x, y := &a.seq.Elems[i], &b.seq.Elems[i]
		if !sameScalar(x, y) || !sameStored(x, y, depth+1) {
			return false
		}
	}
	return true
}
