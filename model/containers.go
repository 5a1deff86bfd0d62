package model

import (
	"cmp"
	"maps"
	"slices"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Containers filled after they are made. Evaluation is flow-insensitive, so
// a list bound once as `procs = []` holds, as its elements, whatever the
// same scope appends to it anywhere (procs.append(p), procs.extend(ps),
// procs.insert(0, p), procs[i] = p); a dict, what is stored under its keys
// (d[k] = v, d.setdefault(k, v), d.update(...)); a list kept in an instance
// attribute (self.workers = []), what any method of the class appends to
// self.workers, evaluated as that method's calls on the instance store it
// (instanceAppends). That is what makes `for p in procs: p.start()` and
// `procs[0].start()` starts of the processes put there.

// maxAppended caps the elements appends add to one container value.
const maxAppended = 8

// appended is one expression stored into a container.
type appended struct {
	value syntax.Expr
	sc    *Scope
	each  bool   // extend/update: the elements of value
	key   string // the constant string key it is stored under, if any
}

// withAppends adds to the lists and dicts a binding of a name evaluates to
// the elements its scope stores into them. An instance attribute's are added
// where it is read, for the instance read (instanceAppends).
func (ev *evaluator) withAppends(b *Binding, vs []Value) []Value {
	if !hasContainer(vs) || selfAttrClass(b) != nil {
		return vs
	}
	stored := b.Scope.Module.Prog.values().scopeAppends(b.Scope)[b.Name]
	if len(stored) == 0 {
		return vs
	}
	var elems []Value
	var keys []string
	for _, a := range stored {
		elems, keys = storedElems(elems, keys, a, ev.expr(a.value, a.sc))
	}
	return withElems(vs, elems, keys)
}

// instanceAppends adds to the lists and dicts vs, the values of attribute
// name of instance v of class c, what c's methods store into them. Each
// store is evaluated as the calls that made it ran: one in the constructor
// call that made v in that call's context; one in another method in the
// contexts of that method's calls on v (allennlp's metrics accumulate
// `self.sums[tau] += dist_reduce_sum(x)` in __call__, on the device the
// worker's process group picks). A store no call on v has been evaluated
// for yet is evaluated with the method's parameters unknown.
func (ev *evaluator) instanceAppends(v Value, c *Class, name string, vs []Value) []Value {
	if !hasContainer(vs) {
		return vs
	}
	stored := c.Scope.Module.Prog.values().classAppends(c)[name]
	if len(stored) == 0 {
		return vs
	}
	var elems []Value
	var keys []string
	for i := range stored {
		a := &stored[i]
		if ev.appending[a] {
			continue // the value stored reads the container back: a cycle
		}
		if ev.appending == nil {
			ev.appending = map[*appended]bool{}
		}
		ev.appending[a] = true
		for _, ctx := range ev.storingContexts(v, a.sc) {
			elems, keys = storedElems(elems, keys, *a, ev.exprIn(ctx, a.value, a.sc))
		}
		delete(ev.appending, a)
	}
	return withElems(vs, elems, keys)
}

// storingContexts are the contexts to evaluate an assignment or a store
// made in method scope sc on instance v in: the constructor call that made
// v, when sc is its function's; else the contexts of sc's function whose
// receiver is v (`self._dataloader = dataloader` in a set_dataloader(self,
// dataloader) read as each call of it on v set it); else, when no such
// call has been evaluated yet, nil: the store read with the method's
// parameters unknown. Only the calls evaluated so far count: a setter is
// called before the attribute is read, in the order the simulation
// follows.
func (ev *evaluator) storingContexts(v Value, sc *Scope) []*callContext {
	if owner := v.Env.owning(sc); owner != nil {
		return []*callContext{owner}
	}
	f := sc.Func
	var out []*callContext
	if f != nil && sc == f.Scope && len(f.Params()) > 0 && !isStatic(f) {
		if indexReceivers {
			out = f.Module.Prog.values().receiverContexts(f, v)
		} else {
			out = scanReceivers(f.Module.Prog.values().byFunc[f], paramBinding(f, 0), v)
		}
	}
	if len(out) == 0 {
		return []*callContext{nil}
	}
	return out
}

// indexReceivers is off only in tests, which compare the index with
// scanReceivers.
var indexReceivers = true

// scanReceivers is what receiverContexts returns, found by testing every
// context in cs: whether it binds self, its function's receiver parameter,
// to an instance made by the same constructor call as v (the same Env) or,
// for instances made without a context of their own, of the same class.
func scanReceivers(cs []*callContext, self *Binding, v Value) []*callContext {
	var out []*callContext
	for _, c := range cs {
		for _, r := range c.params[self] {
			if r.Kind == VInstance && r.Env == v.Env && (v.Env != nil || receiverClass(r) == receiverClass(v)) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// receiverIndex lists a method's contexts by the instance their receiver
// parameter binds, in the order they were made (valueState.byFunc), so
// that an attribute read finds the calls on its instance without testing
// every context of every method that stores the attribute: composer's
// Trainer methods have hundreds. It is extended on each lookup with the
// contexts made since the last one; a context's receiver is final by
// then (construct binds a constructor's self right after interning it).
type receiverIndex struct {
	scanned int
	byEnv   map[*callContext][]*callContext // receivers made in a constructor call
	byClass map[*Class][]*callContext       // receivers made without one, by receiverClass
}

// receiverContexts are the contexts of method f whose receiver is
// instance v, in the order they were made (scanReceivers says which). The
// slice is the index's own: callers only read it.
func (vs *valueState) receiverContexts(f *Function, v Value) []*callContext {
	ix := vs.receivers[f]
	if ix == nil {
		ix = &receiverIndex{byEnv: map[*callContext][]*callContext{}, byClass: map[*Class][]*callContext{}}
		vs.receivers[f] = ix
	}
	if cs := vs.byFunc[f]; ix.scanned < len(cs) {
		self := paramBinding(f, 0)
		for _, c := range cs[ix.scanned:] {
			for _, r := range c.params[self] {
				if r.Kind != VInstance {
					continue
				}
				if r.Env != nil {
					ix.byEnv[r.Env] = appendOnce(ix.byEnv[r.Env], c)
				} else {
					k := receiverClass(r)
					ix.byClass[k] = appendOnce(ix.byClass[k], c)
				}
			}
		}
		ix.scanned = len(cs)
	}
	if v.Env != nil {
		return ix.byEnv[v.Env]
	}
	return ix.byClass[receiverClass(v)]
}

// appendOnce appends c to list unless it is already its last element: a
// context whose receiver may be one of several values is listed once per
// instance.
func appendOnce(list []*callContext, c *callContext) []*callContext {
	if n := len(list); n > 0 && list[n-1] == c {
		return list
	}
	return append(list, c)
}

// exprIn evaluates e, in scope sc, in context c (nil: outside of any).
func (ev *evaluator) exprIn(c *callContext, e syntax.Expr, sc *Scope) []Value {
	if ev.nest >= maxNest {
		return unknown()
	}
	return ev.freshIn(c, func() []Value { return ev.expr(e, sc) })
}

// hasContainer reports whether some value is a list or a dict.
func hasContainer(vs []Value) bool {
	for _, v := range vs {
		if v.Kind == VList || v.Kind == VDict {
			return true
		}
	}
	return false
}

// storedElems appends to elems and keys the values got that store a puts
// into a container, up to maxAppended elements.
func storedElems(elems []Value, keys []string, a appended, got []Value) ([]Value, []string) {
	if a.each {
		got = iterElems(got)
	}
	for _, v := range got {
		if len(elems) < maxAppended {
			elems, keys = append(elems, v), append(keys, a.key)
		}
	}
	return elems, keys
}

// withElems adds elems, stored under keys, to the lists and dicts of vs.
func withElems(vs []Value, elems []Value, keys []string) []Value {
	if len(elems) == 0 {
		return vs
	}
	out := make([]Value, len(vs))
	for i, v := range vs {
		if v.Kind == VList || v.Kind == VDict {
			// One copy each, never written into: the list's own
			// elements may be a cached set.
			own, ownKeys := v.elems(), v.keys()
			own = append(own[:len(own):len(own)], elems...)
			if v.Kind == VDict {
				ownKeys = append(ownKeys[:len(ownKeys):len(ownKeys)], keys...)
			}
			v = v.withSeq(own, ownKeys)
		}
		out[i] = v
	}
	return out
}

// selfAttrClass is the class of an instance-attribute binding (self.x =
// ...), nil for other bindings.
func selfAttrClass(b *Binding) *Class {
	f := b.Scope.Func
	if f == nil || f.Class == nil {
		return nil
	}
	for _, sb := range f.Class.SelfAttrs[b.Name] {
		if sb == b {
			return f.Class
		}
	}
	return nil
}

// scopeAppends indexes, once per scope, what its body stores into the
// containers its names hold (not looking into nested functions and
// classes).
func (vs *valueState) scopeAppends(sc *Scope) map[string][]appended {
	if got, ok := vs.appends[sc]; ok {
		return got
	}
	out := map[string][]appended{}
	var body []syntax.Stmt
	switch {
	case sc.Kind == ModuleScope:
		body = sc.Module.File.Body
	case sc.Func != nil && sc.Func.Def != nil:
		body = sc.Func.Def.Body()
	}
	for _, s := range body {
		collectStores(s, sc, func(x syntax.Expr) (string, bool) {
			n, ok := x.(*syntax.Name)
			if !ok {
				return "", false
			}
			return n.ID, true
		}, out)
	}
	vs.appends[sc] = out
	return out
}

// classAppends indexes, once per class, what its methods store into the
// containers held by self.<attr>.
func (vs *valueState) classAppends(c *Class) map[string][]appended {
	if got, ok := vs.classStores[c]; ok {
		return got
	}
	out := map[string][]appended{}
	// In source order: the elements are capped (maxAppended), and map order
	// would make which ones are kept vary from run to run.
	methods := slices.SortedFunc(maps.Values(c.Methods), func(a, b *Function) int {
		return cmp.Compare(a.NameSpan().Start, b.NameSpan().Start)
	})
	for _, f := range methods {
		if f.Def == nil || len(f.Params()) == 0 {
			continue
		}
		self := f.Params()[0].Name
		for _, s := range f.Def.Body() {
			collectStores(s, f.Scope, func(x syntax.Expr) (string, bool) {
				a, ok := x.(*syntax.Attribute)
				if !ok {
					return "", false
				}
				n, ok := a.X.(*syntax.Name)
				return a.Attr, ok && n.ID == self
			}, out)
		}
	}
	vs.classStores[c] = out
	return out
}

// collectStores records in out the stores into containers that container
// recognises (a name, or self.attr) found in s.
func collectStores(s syntax.Stmt, sc *Scope, container func(syntax.Expr) (string, bool), out map[string][]appended) {
	syntax.Inspect(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FunctionDef, *syntax.ClassDef, *syntax.Lambda:
			return false
		case *syntax.Call:
			a, ok := n.Func.(*syntax.Attribute)
			if !ok {
				return true
			}
			name, ok := container(a.X)
			if !ok {
				return true
			}
			pos := func(i int) syntax.Expr {
				if i < len(n.Args) && n.Args[i].Keyword == "" && n.Args[i].Star == 0 {
					return n.Args[i].Value
				}
				return nil
			}
			switch a.Attr {
			case "append", "add", "appendleft", "put":
				if v := pos(0); v != nil {
					out[name] = append(out[name], appended{value: v, sc: sc})
				}
			case "insert":
				if v := pos(1); v != nil {
					out[name] = append(out[name], appended{value: v, sc: sc})
				}
			case "extend", "update":
				if v := pos(0); v != nil {
					out[name] = append(out[name], appended{value: v, sc: sc, each: a.Attr == "extend"})
				}
			case "setdefault":
				if v := pos(1); v != nil {
					out[name] = append(out[name], appended{value: v, sc: sc, key: constKey(pos(0))})
				}
			}
		case *syntax.Assign:
			for _, t := range n.Targets {
				sub, ok := t.(*syntax.Subscript)
				if !ok || len(sub.Index) != 1 || n.Value == nil {
					continue
				}
				if name, ok := container(sub.X); ok {
					out[name] = append(out[name], appended{value: n.Value, sc: sc, key: constKey(sub.Index[0])})
				}
			}
		}
		return true
	})
}

// constKey is the value of a constant string key, "" for any other.
func constKey(e syntax.Expr) string {
	if s, ok := e.(*syntax.String); ok && !s.Interpolated {
		return s.Value
	}
	return ""
}

// dict evaluates a dict display: its constant string keys and values, and
// the entries of the dicts it unpacks (**other).
func (ev *evaluator) dict(e *syntax.Dict, sc *Scope) Value {
	var d elements
	for i := range e.Values {
		if i >= len(e.Keys) || e.Keys[i] == nil {
			for _, o := range ev.expr(e.Values[i], sc) {
				if o.Kind == VDict {
					d.Keys, d.Elems = append(d.Keys, o.keys()...), append(d.Elems, o.elems()...)
				}
			}
			continue
		}
		d.Keys = append(d.Keys, constKey(e.Keys[i]))
		d.Elems = append(d.Elems, merge(ev.expr(e.Values[i], sc)))
	}
	return Value{Kind: VDict}.withSeq(d.Elems, d.Keys)
}

// dictGet is what a dict holds under key: the entries stored under it, or,
// for a key that is not a constant string or that no constant entry has,
// every entry whose key is not known.
func dictGet(d Value, key string) []Value {
	var out []Value
	if key != "" {
		for i, k := range d.keys() {
			if k == key {
				out = add(out, d.elems()[i])
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	for i, el := range d.elems() {
		if key == "" || i >= len(d.keys()) || d.keys()[i] == "" {
			out = add(out, el)
		}
	}
	if len(out) == 0 {
		return unknown()
	}
	return out
}

// containerMethod handles the methods of lists and dicts that hand out
// their elements: d.values(), d.items(), d.keys(), d.get(k), d.pop(k),
// lst.pop(), x.copy().
func (ev *evaluator) containerMethod(r *callResult, v Value, name string, c *syntax.Call) {
	key := ""
	if len(c.Args) > 0 {
		key = constKey(c.Args[0].Value)
	}
	switch {
	case name == "copy":
		r.value(v)
	case v.Kind == VList && name == "pop":
		r.values = add(r.values, v.elems()...)
	case v.Kind != VDict:
	case name == "values":
		r.value(listOf(v.elems()...))
	case name == "keys":
		r.value(listOf(iterElems([]Value{v})...))
	case name == "items":
		var pairs []Value
		for i, el := range v.elems() {
			k := Value{Kind: VUnknown}
			if i < len(v.keys()) && v.keys()[i] != "" {
				k = Value{Kind: VStr, Str: v.keys()[i]}
			}
			pairs = append(pairs, listOf(k, el))
		}
		r.value(listOf(pairs...))
	case name == "get" || name == "pop" || name == "setdefault":
		r.values = add(r.values, dictGet(v, key)...)
	}
}
