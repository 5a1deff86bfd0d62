package model

import "github.com/cudaforklint/cudaforklint/syntax"

// Properties. Reading obj.name, where name is a property of obj's local
// class (a def decorated @property or @cached_property, or a class-level
// `name = property(getter)`), runs the getter on obj: the read evaluates to
// what the getter returns, run as a bound method call is (self is obj, in
// the context of the constructor call that made it), and the getter's
// events happen where the attribute is read (builder.propertyRead), so a
// property that hands out a DataLoader, builds one, initializes CUDA or
// starts processes does so at the read. Only local classes are followed: a
// library object's attributes stay library paths. The prescan counts the
// read of a property's name as a call of its getter (prescan.go).

// accessorKind says what a decorator makes of a def in a class body.
type accessorKind uint8

const (
	notAccessor    accessorKind = iota
	getterAccessor              // @property, @cached_property, @name.getter: the def is the getter
	otherAccessor               // @name.setter, @name.deleter: the property keeps its getter
)

// decoratorAccessor classifies a decorator of a def named name, as
// written: @property, @functools.cached_property (and the look-alikes of
// other libraries, which cache the getter's result the same way), and the
// accessor methods of a property of the same name.
func decoratorAccessor(d syntax.Expr, name string) accessorKind {
	switch d := d.(type) {
	case *syntax.Name:
		if d.ID == "property" || d.ID == "cached_property" {
			return getterAccessor
		}
	case *syntax.Attribute:
		if x, ok := d.X.(*syntax.Name); ok && x.ID == name {
			switch d.Attr {
			case "getter":
				return getterAccessor
			case "setter", "deleter":
				return otherAccessor
			}
		}
		if d.Attr == "property" || d.Attr == "cached_property" {
			return getterAccessor
		}
	}
	return notAccessor
}

// noteAccessor records f, a def of c's body met in source order, in c's
// getters: a getter decorator makes f the getter of its name, a setter or
// deleter keeps the property's getter, and any other def of the name
// rebinds it to a plain method.
func (c *Class) noteAccessor(f *Function) {
	kind := notAccessor
	for _, d := range f.Decorators {
		if kind = decoratorAccessor(d, f.Name); kind != notAccessor {
			break
		}
	}
	switch kind {
	case getterAccessor:
		if c.getters == nil {
			c.getters = map[string]*Function{}
		}
		c.getters[f.Name] = f
	case notAccessor:
		delete(c.getters, f.Name)
	}
}

// getter returns the getter run when name is read on an instance of c, and
// whether c or a local base class defines name at all: the first class in
// method resolution order (depth-first over the local bases, which is the
// order of single inheritance) that binds name decides.
func (ev *evaluator) getter(c *Class, name string, depth int) (*Function, bool) {
	if depth > 8 {
		return nil, false
	}
	if bs := c.Scope.Bindings[name]; len(bs) > 0 {
		switch last := bs[len(bs)-1]; last.Kind {
		case BindDef:
			return c.getters[name], true
		case BindAssign:
			return ev.assignedGetter(last, c), true
		}
		return nil, true
	}
	var found *Function
	defined := false
	ev.eachBase(c, func(base []Value) bool {
		for _, bv := range base {
			if bv.Kind == VClass {
				if found, defined = ev.getter(bv.Class, name, depth+1); defined {
					return true
				}
			}
		}
		return false
	})
	return found, defined
}

// assignedGetter is the getter of a class-level `name = property(fget)`
// (or property(fget=...)): a local function or lambda.
func (ev *evaluator) assignedGetter(b *Binding, c *Class) *Function {
	call, ok := b.Value.(*syntax.Call)
	if !ok || len(b.Index()) > 0 || !isPropertyCall(call) || len(lookup("property", c.Scope)) > 0 {
		return nil
	}
	fget := argExpr(call, 0, "fget")
	if fget == nil {
		return nil
	}
	for _, v := range ev.expr(fget, c.Scope) {
		if v.Kind == VFunc && v.Path == "" && v.Partial == nil {
			return v.Func
		}
	}
	return nil
}

// isPropertyCall reports whether c calls the name property.
func isPropertyCall(c *syntax.Call) bool {
	n, ok := c.Func.(*syntax.Name)
	return ok && n.ID == "property"
}

// getterCall returns the getter that reading name on v runs, with the
// context it runs in (nil: none of its own); ok is false when v is not an
// instance of a local class on which name is a property.
func (ev *evaluator) getterCall(v Value, name string) (g *Function, ctx *callContext, ok bool) {
	if v.Kind != VInstance {
		return nil, nil, false
	}
	if g, _ = ev.getter(v.Class, name, 0); g == nil {
		return nil, nil, false
	}
	// As a bound method's call: self is the receiver, with the context it
	// carries.
	ctx = ev.contextFor(Value{Kind: VFunc, Func: g, Self: v.Class, Env: v.Env}, argList{complete: true})
	return g, ctx, true
}

// propertyRead evaluates what getter g returns in ctx, the context of its
// receiver. A property is read as any attribute is, afresh at each read,
// not memoized as a call's returns are: what it returns may be set later by
// a method (storingContexts; composer's State.dataloader, set by
// set_dataloader). reading cuts a getter that reads itself.
func (ev *evaluator) propertyRead(g *Function, ctx *callContext) []Value {
	if ev.reading[g] || ev.nest >= maxNest {
		return nil
	}
	if ev.reading == nil {
		ev.reading = map[*Function]bool{}
	}
	ev.reading[g] = true
	saved := ev.ctx
	if ctx != nil {
		ev.ctx = ctx
	}
	defer func() { ev.ctx = saved; delete(ev.reading, g) }()
	defer ev.fresh()()
	out := ev.returnValues(g)
	if len(out) == 0 {
		return unknown()
	}
	return out
}

// accessedName is a property's name and the name of its getter.
type accessedName struct{ name, getter string }

// propertyNames lists c's properties with the names of their getters, for
// the prescan, as written (a lambda getter has no name to be called by and
// is left out).
func propertyNames(c *Class) []accessedName {
	var out []accessedName
	for name, g := range c.getters {
		out = append(out, accessedName{name, g.Name})
	}
	for name, bs := range c.Scope.Bindings {
		for _, b := range bs {
			call, ok := b.Value.(*syntax.Call)
			if b.Kind != BindAssign || !ok || !isPropertyCall(call) {
				continue
			}
			if id := lastIdent(argExpr(call, 0, "fget")); id != "" {
				out = append(out, accessedName{name, id})
			}
		}
	}
	return out
}
