package model

import "github.com/cudaforklint/cudaforklint/syntax"

// Containers filled after they are made. Evaluation is flow-insensitive, so
// a list bound once as `procs = []` holds, as its elements, whatever the
// same scope appends to it anywhere (procs.append(p), procs.extend(ps),
// procs.insert(0, p), procs[i] = p); a dict, what is stored under its keys
// (d[k] = v, d.setdefault(k, v), d.update(...)); a list kept in an instance
// attribute (self.workers = []), what any method of the class appends to
// self.workers. That is what makes `for p in procs: p.start()` and
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

// withAppends adds to the lists and dicts a binding evaluates to the
// elements stored into them after it.
func (ev *evaluator) withAppends(b *Binding, vs []Value) []Value {
	hasContainer := false
	for _, v := range vs {
		hasContainer = hasContainer || v.Kind == VList || v.Kind == VDict
	}
	if !hasContainer {
		return vs
	}
	var stored []appended
	if c := selfAttrClass(b); c != nil {
		stored = b.Scope.Module.Prog.values().classAppends(c)[b.Name]
	} else {
		stored = b.Scope.Module.Prog.values().scopeAppends(b.Scope)[b.Name]
	}
	if len(stored) == 0 {
		return vs
	}
	var elems []Value
	var keys []string
	for _, a := range stored {
		got := ev.expr(a.value, a.sc)
		if a.each {
			got = iterElems(got)
		}
		for _, v := range got {
			if len(elems) < maxAppended {
				elems, keys = append(elems, v), append(keys, a.key)
			}
		}
	}
	out := make([]Value, len(vs))
	for i, v := range vs {
		if v.Kind == VList || v.Kind == VDict {
			v.Elems = append(append([]Value(nil), v.Elems...), elems...)
			if v.Kind == VDict {
				v.Keys = append(append([]string(nil), v.Keys...), keys...)
			}
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
		body = sc.Func.Def.Body
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
	for _, f := range c.Methods {
		if f.Def == nil || len(f.Params()) == 0 {
			continue
		}
		self := f.Params()[0].Name
		for _, s := range f.Def.Body {
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
	d := Value{Kind: VDict}
	for i := range e.Values {
		if i >= len(e.Keys) || e.Keys[i] == nil {
			for _, o := range ev.expr(e.Values[i], sc) {
				if o.Kind == VDict {
					d.Keys, d.Elems = append(d.Keys, o.Keys...), append(d.Elems, o.Elems...)
				}
			}
			continue
		}
		d.Keys = append(d.Keys, constKey(e.Keys[i]))
		d.Elems = append(d.Elems, merge(ev.expr(e.Values[i], sc)))
	}
	return d
}

// dictGet is what a dict holds under key: the entries stored under it, or,
// for a key that is not a constant string or that no constant entry has,
// every entry whose key is not known.
func dictGet(d Value, key string) []Value {
	var out []Value
	if key != "" {
		for i, k := range d.Keys {
			if k == key {
				out = add(out, d.Elems[i])
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	for i, el := range d.Elems {
		if key == "" || i >= len(d.Keys) || d.Keys[i] == "" {
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
		r.values = add(r.values, v.Elems...)
	case v.Kind != VDict:
	case name == "values":
		r.value(Value{Kind: VList, Elems: v.Elems})
	case name == "keys":
		r.value(Value{Kind: VList, Elems: iterElems([]Value{v})})
	case name == "items":
		pairs := Value{Kind: VList}
		for i, el := range v.Elems {
			k := Value{Kind: VUnknown}
			if i < len(v.Keys) && v.Keys[i] != "" {
				k = Value{Kind: VStr, Str: v.Keys[i]}
			}
			pairs.Elems = append(pairs.Elems, Value{Kind: VList, Elems: []Value{k, el}})
		}
		r.value(pairs)
	case name == "get" || name == "pop" || name == "setdefault":
		r.values = add(r.values, dictGet(v, key)...)
	}
}
