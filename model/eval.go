package model

import (
	"slices"
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Evaluation is flow-insensitive: a name's value is the union of everything
// assigned to it in its scope. That is enough for the constant propagation the
// rules need (DEVICE = torch.device("cuda"), ctx = mp.get_context("fork"),
// loader = DataLoader(...)) and it keeps evaluation memoizable per binding.
// The model is single-threaded per Program; memo fields are unguarded.

const (
	maxEvalDepth = 24
	maxValues    = 12
	// maxNest bounds how many memoized evaluations (bindings, function
	// results) may be under way inside each other; each starts its own
	// maxEvalDepth, so that a binding reached deep inside another
	// expression is not cut short and cached that way.
	maxNest = 160
)

// An evaluator evaluates expressions. Bindings, function results and calls
// are cached once computed. A reference cycle (x = f(y); y = g(x)) is read
// where it closes as the values found so far, and the cycle's members are
// settled together once its first member is done (valueSolver), so that a
// name inside a cycle holds the same set whichever member was asked first.
// Not caching cut results was measured to re-evaluate cyclic regions
// exponentially often on the CPython tree.
type evaluator struct {
	depth int
	nest  int
	// ctx is the call context expressions are evaluated in (context.go):
	// nil outside of one.
	ctx *callContext
	// inBases holds the classes whose base expressions are being evaluated. A
	// class met again there is a cycle (class A(A()), or A(B()) with B(A())),
	// which Python rejects with a NameError; following it only recursed, with
	// a fan-out that grew exponentially with maxEvalDepth (a fuzzed input ran
	// for hours).
	inBases map[*Class]bool
	// reading holds the property getters being read (propertyRead): met
	// again, a cycle.
	reading map[*Function]bool
	// appending holds the instance-attribute stores being evaluated
	// (instanceAppends): met again, a cycle.
	appending map[*appended]bool
}

// eachBase calls fn with the values of each of c's positional base
// expressions, in order, until fn returns true; not at all when c's bases are
// being evaluated already (a cycle).
func (ev *evaluator) eachBase(c *Class, fn func(vals []Value) (stop bool)) {
	if ev.inBases[c] {
		return
	}
	if ev.inBases == nil {
		ev.inBases = map[*Class]bool{}
	}
	for _, base := range c.Def.Bases {
		if base.Keyword != "" {
			continue
		}
		// Only the base expression's own evaluation is the cycle to cut:
		// fn may well look c up again, for an attribute of an instance of
		// a subclass whose value reads another (a method of a base of
		// c met while an attribute found in a base of c is evaluated).
		ev.inBases[c] = true
		vals := ev.expr(base.Value, c.Scope.Parent)
		delete(ev.inBases, c)
		if fn(vals) {
			return
		}
	}
}

// Eval returns the possible values of e evaluated in sc.
func (m *Module) Eval(e syntax.Expr, sc *Scope) []Value {
	var ev evaluator
	return ev.expr(e, sc)
}

// add appends the values of more that vs does not hold yet, up to
// maxValues: a set, so that the same value reached twice takes no room.
func add(vs []Value, more ...Value) []Value {
next:
	for k, v := range more {
		if len(vs) >= maxValues {
			return vs
		}
		for i := range vs {
			if sameValue(&vs[i], &v) {
				continue next
			}
		}
		if len(vs) == cap(vs) {
			// Grow once, to what the rest of more may need (a set never
			// holds more than maxValues), rather than value by value: add
			// is where the analysis allocates most.
			grown := make([]Value, len(vs), min(max(len(vs)+len(more)-k, 2*cap(vs)), maxValues))
			copy(grown, vs)
			vs = grown
		}
		vs = append(vs, v)
	}
	return vs
}

// sameValue reports whether two values are the same; lists are never
// merged (comparing them would cost more than keeping both).
func sameValue(a, b *Value) bool {
	return sameScalar(a, b) && (a.seq == nil && b.seq == nil || sameStored(a, b, 0))
}

// sameScalar compares what sameValue does but the elements.
func sameScalar(a, b *Value) bool {
	return a.Kind == b.Kind && a.Path == b.Path && a.Mod == b.Mod && a.Func == b.Func && a.Class == b.Class &&
		a.Str == b.Str && a.Interp == b.Interp && a.Alt == b.Alt && a.Int == b.Int && a.Obj == b.Obj && (a.Method == b.Method || a.spec() == b.spec()) &&
		a.Dev == b.Dev && a.Self == b.Self && a.Env == b.Env && a.Partial == b.Partial
}

var unknownValues = []Value{{Kind: VUnknown}}

// unknown returns the one-element "unknown" set. The slice is shared: its
// capacity is its length, so an append (add) copies instead of writing into it.
func unknown() []Value { return unknownValues[:1:1] }

func (ev *evaluator) expr(e syntax.Expr, sc *Scope) []Value {
	if e == nil {
		return nil
	}
	if ev.depth > maxEvalDepth {
		return unknown()
	}
	ev.depth++
	defer func() { ev.depth-- }()
	switch e := e.(type) {
	case *syntax.Name:
		return platformConst(ev.nameAt(e.ID, sc, int(e.Start)), sc)
	case *syntax.Attribute:
		return platformConst(ev.attr(ev.expr(e.X, sc), e.Attr), sc)
	case *syntax.Call:
		return ev.call(e, sc)
	case *syntax.Subscript:
		var out []Value
		for _, v := range ev.expr(e.X, sc) {
			out = add(out, subscript(v, e, ev, sc)...)
		}
		return out
	case *syntax.String:
		return []Value{{Kind: VStr, Str: e.Value, Interp: e.Interpolated}}
	case *syntax.Number:
		if n, ok := parseInt(e.Text); ok {
			return []Value{{Kind: VInt, Int: n}}
		}
		return unknown()
	case *syntax.Constant:
		return []Value{{Kind: VConst, Int: int(e.Kind)}}
	case *syntax.Compare:
		// A comparison the model can decide is that boolean, so that a
		// flag computed from a constructor's arguments (`self.use_pool =
		// backend == "process"` with backend left at its default) decides
		// a later `if self.use_pool:` as the constant it is.
		if t, ok := ev.truth(e, sc); ok {
			return []Value{boolValue(t)}
		}
		return unknown()
	case *syntax.UnaryOp:
		if e.Op == "not" {
			if t, ok := ev.truth(e, sc); ok {
				return []Value{boolValue(t)}
			}
			return unknown()
		}
		if e.Op == "-" || e.Op == "+" {
			// A negative literal is a minus on a number: device_ids=[-1, -1].
			var out []Value
			for _, v := range ev.expr(e.X, sc) {
				if v.Kind != VInt {
					return unknown()
				}
				if e.Op == "-" {
					v.Int = -v.Int
				}
				out = add(out, v)
			}
			if len(out) > 0 {
				return out
			}
		}
		return unknown()
	case *syntax.Sequence:
		var elems []Value
		if len(e.Elts) > 0 {
			elems = make([]Value, 0, len(e.Elts))
		}
		for _, el := range e.Elts {
			vs := ev.expr(el, sc)
			if len(vs) == 1 {
				elems = append(elems, vs[0])
			} else {
				elems = append(elems, merge(vs))
			}
		}
		return []Value{listOf(elems...)}
	case *syntax.Comprehension:
		switch e.Kind {
		case syntax.ListComp, syntax.GeneratorExp, syntax.SetComp:
			el := merge(ev.expr(e.Elt, sc))
			return []Value{listOf(el)}
		case syntax.DictComp:
			return []Value{Value{Kind: VDict}.withSeq([]Value{merge(ev.expr(e.Value, sc))}, []string{""})}
		}
		return unknown()
	case *syntax.Dict:
		return []Value{ev.dict(e, sc)}
	case *syntax.IfExp:
		if t, ok := ev.truth(e.Test, sc); ok {
			// A test decided by constants takes one arm, as an if
			// statement does (truth.go).
			if t {
				return ev.expr(e.Body, sc)
			}
			return ev.expr(e.Else, sc)
		}
		return add(ev.expr(e.Body, sc), ev.expr(e.Else, sc)...)
	case *syntax.BoolOp:
		// `x or y` is x when x's values are all true, y when all false;
		// `and` the other way round. (From x's values, evaluated once:
		// asking truth first would evaluate a chain a or b or c... twice
		// per level.)
		xs := ev.expr(e.X, sc)
		if t, ok := truthOfAll(xs); ok {
			if t == (e.Op == "or") {
				return xs
			}
			return ev.expr(e.Y, sc)
		}
		return add(xs, ev.expr(e.Y, sc)...)
	case *syntax.NamedExpr:
		return ev.expr(e.Value, sc)
	case *syntax.Await:
		return ev.expr(e.X, sc)
	case *syntax.Starred:
		return ev.expr(e.X, sc)
	case *syntax.Lambda:
		if f := sc.Module.lambdas[e.Span]; f != nil {
			return []Value{ev.closure(Value{Kind: VFunc, Func: f})}
		}
		return unknown()
	case *syntax.BinOp:
		// Arithmetic on tensors gives a tensor where they live.
		if d := heldDeep(ev.expr(e.X, sc), 3).join(heldDeep(ev.expr(e.Y, sc), 3)); d != DevNone {
			return []Value{{Kind: VUnknown, Dev: d}}
		}
		return unknown()
	}
	return unknown()
}

// merge folds several possible values into one representative (a tuple's
// element, bound in two branches): the first, on the join of their
// devices, holding what the most certain of them holds (held). A plain
// read of a GPU object among them (plainRead: vision_tower.image_processor,
// as often a CPU object as a tensor) is only possibly on the GPU, and the
// representative that takes its device is marked as one (Read), so that
// the None the processor was before a branch set it does not become a
// None certainly in GPU memory. A value certainly on the GPU among them
// stays certain: where the first is a plain read that its path shows, the
// first certain one stands for them.
func merge(vs []Value) Value {
	if len(vs) == 0 {
		return Value{Kind: VUnknown}
	}
	v, h := vs[0], held(vs[0])
	for _, o := range vs[1:] {
		v.Dev = v.Dev.join(o.Dev)
		h = h.join(held(o))
	}
	v.Read = v.Read && h != DevCUDA // a marked read among certain values
	switch got := held(v); {
	case got == h:
		return v
	case h == DevUnknown && got == DevCUDA:
		// The device a plain read joined in: v is that read's stand-in.
		v.Read = true
		return v
	case h == DevCUDA:
		// v cannot hold it (a read its path shows, a model's name).
		for _, o := range vs {
			if held(o) == DevCUDA {
				return o
			}
		}
	}
	return v
}

func subscript(v Value, e *syntax.Subscript, ev *evaluator, sc *Scope) []Value {
	switch v.Kind {
	case VList:
		if len(e.Index) == 1 {
			if o, ok := e.Index[0].(*syntax.Opaque); ok && o.Kind == "slice" {
				return []Value{listOf(v.elems()...)} // workers[1:]
			}
			if n, ok := e.Index[0].(*syntax.Number); ok {
				if i, ok := parseInt(n.Text); ok && i >= 0 && i < len(v.elems()) {
					return []Value{v.elems()[i]}
				}
			}
		}
		return v.elems()
	case VDict:
		if len(e.Index) == 1 {
			return dictGet(v, constKey(e.Index[0]))
		}
		return v.elems()
	case VNamespace:
		return unknown()
	case VPath:
		if m, ok := sysModulesEntry(v, e, sc); ok {
			return []Value{m}
		}
		return []Value{{Kind: VPath, Path: v.Path + "[]", Dev: v.Dev}}
	case VFunc:
		if v.Path != "" {
			return []Value{{Kind: VPath, Path: v.Path + "[]"}}
		}
	}
	if v.Dev != DevNone {
		// A slice of a tensor lives where the tensor does.
		return []Value{{Kind: VUnknown, Dev: v.Dev}}
	}
	return unknown()
}

// callUnderWay reports whether b is bound to the value of a call whose
// evaluation in context ctx (nil: the program-wide cache) is under way,
// and returns that call's memo.
func callUnderWay(b *Binding, ctx *callContext) (*valueCell, bool) {
	c, ok := b.Value.(*syntax.Call)
	if !ok || (b.Kind != BindAssign && b.Kind != BindWith) {
		return nil, false
	}
	cell := b.Scope.Module.Prog.values().openCalls[callKey{c, ctx.owning(b.Scope)}]
	return cell, cell != nil && cell.state == factBusy
}

// freshIn computes a memo's values in call context ctx with a fresh depth
// budget (fresh), and gives the evaluator back its context and depth: a
// memo is read by every later question, so it is computed the same
// whoever asked first, not with what that asker had left.
func (ev *evaluator) freshIn(ctx *callContext, compute func() []Value) []Value {
	saved := ev.ctx
	ev.ctx = ctx
	restore := ev.fresh()
	out := compute()
	restore()
	ev.ctx = saved
	return out
}

// fresh starts a memoized evaluation at depth 0 and returns what restores
// the evaluator after it.
func (ev *evaluator) fresh() func() {
	depth := ev.depth
	ev.depth = 0
	ev.nest++
	return func() { ev.depth = depth; ev.nest-- }
}

// lookup finds the bindings a name refers to from scope sc (a module's
// star imports' included: bindingsOf).
func lookup(name string, sc *Scope) []*Binding {
	first := true
	for s := sc; s != nil; s = s.Parent {
		if s.Kind == ClassScope && !first {
			continue
		}
		first = false
		if s.Kind != ModuleScope && s.Globals[name] {
			return s.Module.Scope.bindingsOf(name)
		}
		if bs := s.bindingsOf(name); len(bs) > 0 {
			return bs
		}
	}
	return nil
}

// isNameExpr reports whether e is the name id.
func isNameExpr(e syntax.Expr, id string) bool {
	n, ok := e.(*syntax.Name)
	return ok && n.ID == id
}

func (ev *evaluator) name(id string, sc *Scope) []Value { return ev.nameAt(id, sc, -1) }

// nameAt is the value of name id used at byte offset pos of sc's module
// (-1: anywhere in sc): the values of the bindings that may reach it.
func (ev *evaluator) nameAt(id string, sc *Scope, pos int) []Value {
	bs := lookup(id, sc)
	if stores := storesOf(bs, id); len(stores) > 0 {
		bs = ev.reachingStores(append(slices.Clip(bs), stores...), id, sc, pos) // attrstore.go
	} else {
		bs = ev.reaching(bs, id, sc, pos)
	}
	if len(bs) == 0 {
		return unknown()
	}
	if len(bs) == 1 {
		// The common case: hand out the cached set itself, capped so that an
		// append copies.
		if vs := ev.binding(bs[0]); len(vs) > 0 {
			return vs[:len(vs):len(vs)]
		}
		return unknown()
	}
	var out []Value
	for _, b := range bs {
		out = union(out, ev.binding(b))
	}
	if len(out) == 0 {
		return unknown()
	}
	return out
}

// union adds the values of vs to out, as add does. An empty out becomes vs
// itself, capped so that an append copies, when vs is a set: the sets the
// evaluator hands out are never written into, and the merge of a name's
// bindings, a module's or a receiver's, most often adds nothing to the
// first set (the same value assigned in two branches), which then costs no
// copy.
func union(out, vs []Value) []Value {
	if len(out) == 0 && isSet(vs) {
		return vs[:len(vs):len(vs)]
	}
	return add(out, vs...)
}

// isSet reports whether vs is non-empty and what add would make of it:
// at most maxValues values, none the same as another.
func isSet(vs []Value) bool {
	if len(vs) == 0 || len(vs) > maxValues {
		return false
	}
	for i := 1; i < len(vs); i++ {
		for j := range i {
			if sameValue(&vs[j], &vs[i]) {
				return false
			}
		}
	}
	return true
}

func (ev *evaluator) binding(b *Binding) []Value {
	if c := ev.ctx.owning(b.Scope); c != nil {
		return ev.bindingIn(c, b)
	}
	if vs, ok := ev.globalFromContexts(b); ok {
		return vs
	}
	if b.val == nil {
		b.val = new(valueCell)
	}
	if vs, ok := b.val.done(); ok {
		return vs
	}
	solver := b.Scope.Module.Prog.valueSolver()
	if b.val.state == factBusy {
		return solver.value(b.val, nil) // its component's values so far
	}
	if call, ok := callUnderWay(b, nil); ok {
		// Asked for while the call it unpacks is being evaluated (the
		// call's arguments lead back to it: `unet, loader, sched =
		// accelerator.prepare(unet, loader, sched)` where sched was built
		// from len(loader)). The cut value is not this binding's: leave it
		// uncached, to be computed once the call is done; what asked
		// joins the call's component.
		solver.reachedCell(call)
		return nil
	}
	if ev.nest >= maxNest {
		return unknown()
	}
	// A binding's value is cached for every later use: compute it with the
	// whole depth budget, not what is left of the expression that first
	// asked, or a name first met deep in an evaluation would stay unknown.
	// The program-wide cache holds values evaluated outside of any
	// context.
	return solver.value(b.val, func() []Value {
		return ev.freshIn(nil, func() []Value {
			vs := ev.bindingUncached(b)
			if b.Kind == BindAssign || b.Kind == BindWith {
				vs = ev.withAppends(b, vs)
			}
			return vs
		})
	})
}

func (ev *evaluator) bindingUncached(b *Binding) []Value {
	m := b.Scope.Module
	switch b.Kind {
	case BindAssign, BindWith:
		return unpack(ev.expr(b.Value, b.Scope), b.Index())
	case BindIter:
		elems := iterElems(ev.expr(b.Value, b.Scope))
		if len(elems) == 0 {
			return unknown()
		}
		return unpack(elems, b.Index())
	case BindImport:
		if local := m.importedModule(b.Import(), 0); local != nil {
			return []Value{{Kind: VModule, Mod: local}}
		}
		return []Value{{Kind: VPath, Path: catalog.Canonical(b.Import())}}
	case BindImportFrom:
		mod, level := splitRelative(b.Import(), b.Attr())
		if from := m.importedModule(mod, level); from != nil {
			if vs := ev.moduleAttr(from, b.Attr()); len(vs) > 0 {
				return vs
			}
		}
		if sub := m.importedModule(JoinDotted(mod, b.Attr()), level); sub != nil {
			return []Value{{Kind: VModule, Mod: sub}}
		}
		if b.star {
			// A name a local module exports but has no value for here:
			// one its __all__ lists but it never binds, or a cycle of
			// star imports cut. Not a library's attribute.
			return nil
		}
		if level > 0 {
			return unknown()
		}
		return []Value{{Kind: VPath, Path: catalog.Canonical(JoinDotted(mod, b.Attr()))}}
	case BindDef:
		return []Value{ev.closure(ev.funcValue(b.Func))}
	case BindClass:
		return []Value{{Kind: VClass, Class: b.Class}}
	case BindAttrStore:
		return ev.storeValues(b)
	case BindParam:
		f := b.Scope.Func
		if f != nil && f.Class != nil && isSelfParam(f, b.Name) && !isStatic(f) {
			return []Value{{Kind: VInstance, Class: f.Class, Self: f.Class}}
		}
		if b.Param != nil && b.Param.Default != nil {
			// The default is one possible value: def f(device="cuda").
			return add(unknown(), ev.expr(b.Param.Default, lookupParent(f.Scope.Parent))...)
		}
		return ev.annotatedParam(b, unknown())
	}
	return unknown()
}

// splitRelative turns the Import of a BindImportFrom ("..pkg.mod" + attr)
// into the module part and its relative level.
func splitRelative(imp, attr string) (string, int) {
	mod := strings.TrimSuffix(imp, attr)
	mod = strings.TrimSuffix(mod, ".")
	level := 0
	for level < len(mod) && mod[level] == '.' {
		level++
	}
	if level == len(mod) && strings.HasPrefix(imp, mod) && level > 0 {
		// "from . import x": Import is ".x" → mod "." → level 1, name "".
		return "", level
	}
	return mod[level:], level
}

func unpack(vs []Value, idx []int) []Value {
	for _, i := range idx {
		var next []Value
		for _, v := range vs {
			switch {
			case v.Kind == VList && i >= 0 && i < len(v.elems()):
				next = add(next, v.elems()[i])
			case v.Kind == VList && i >= 0 && len(v.elems()) > 0:
				// More names than the elements the model holds: a list
				// of a length it cannot tell (a comprehension's
				// representative element, appends), any of them, as
				// `a, b, c = (x.detach() for x in tensors)` unpacks it.
				next = add(next, v.elems()...)
			case v.Kind == VObject && v.Obj.Kind == ObjFork && i == 0:
				// pid, fd = os.forkpty()
				next = add(next, v)
			case held(v) != DevNone:
				next = add(next, Value{Kind: VUnknown, Dev: v.Dev})
			default:
				next = add(next, Value{Kind: VUnknown})
			}
		}
		vs = next
	}
	return vs
}

// isClassMethod reports whether f is decorated with @classmethod: its first
// parameter is the class however it is called.
func isClassMethod(f *Function) bool {
	for _, d := range f.Decorators {
		if n, ok := d.(*syntax.Name); ok && n.ID == "classmethod" {
			return true
		}
	}
	return false
}

func isStatic(f *Function) bool {
	for _, d := range f.Decorators {
		if n, ok := d.(*syntax.Name); ok && n.ID == "staticmethod" {
			return true
		}
	}
	return false
}

// funcValue is the value of a def: the local function, and when an external
// decorator (other than the ones that keep a plain function) wraps it, the
// decorator's result path too (a @cuda.jit kernel is "numba.cuda.jit()").
func (ev *evaluator) funcValue(f *Function) Value {
	v := Value{Kind: VFunc, Func: f}
	for _, d := range f.Decorators {
		callee := d
		if c, ok := d.(*syntax.Call); ok {
			callee = c.Func
		}
		for _, dv := range ev.expr(callee, f.Scope.Parent) {
			if dv.Kind == VPath && !passthroughDecorator(dv.Path) {
				v.Path = dv.Path + "()"
			}
		}
	}
	return v
}

// passthroughDecorator lists decorators whose result still runs the
// decorated function's own body when called.
func passthroughDecorator(path string) bool {
	switch path {
	case "functools.wraps", "functools.lru_cache", "functools.cache", "staticmethod", "classmethod",
		"torch.no_grad", "torch.inference_mode", "torch.enable_grad", "torch.compile",
		"contextlib.contextmanager", "typing.overload", "abc.abstractmethod", "property":
		return true
	}
	return false
}

// moduleAttr is the value of a local module's global name.
func (ev *evaluator) moduleAttr(m *Module, name string) []Value {
	var out []Value
	for _, b := range m.Scope.bindingsOf(name) {
		out = union(out, ev.binding(b))
	}
	if len(out) == 0 {
		out = ev.dynamicAttr(m, name)
	}
	return out
}

func (ev *evaluator) attr(vals []Value, name string) []Value {
	var out []Value
	for _, v := range vals {
		out = union(out, ev.attrOf(v, name))
	}
	if len(out) == 0 {
		return unknown()
	}
	return out
}

// moduleDunders are the attributes Python sets on every module: plain
// strings, lists and specs, never an API of the library.
var moduleDunders = map[string]bool{
	"__version__": true, "__file__": true, "__name__": true, "__doc__": true,
	"__path__": true, "__package__": true, "__spec__": true, "__all__": true,
}

func (ev *evaluator) attrOf(v Value, name string) []Value {
	switch v.Kind {
	case VConst:
		if v.Int == int(syntax.ConstNone) {
			// None has no attributes: the read raises, and gives no
			// value (x.detach() on the None of `x.detach() if
			// isinstance(x, torch.Tensor) else x`). A name that may be
			// None or a tensor reads the tensor's.
			return nil
		}
	case VPath:
		if v.Self != nil && strings.HasSuffix(v.Path, "()") {
			// super() of a local class with a library base (builtins.go):
			// the library's factories make an instance of the class; its
			// other attributes are not followed.
			if classFactories[name] {
				return []Value{{Kind: VPath, Path: v.Path + "." + name, Self: v.Self, Env: v.Env}}
			}
			return unknown()
		}
		if v.Dev != DevNone && (name == "device" || metadataAttrs[name]) {
			return []Value{attrResult(v, name)}
		}
		if moduleDunders[name] {
			// cupy.__version__ is a str of the installed package:
			// cupy.__version__.split(".") is no call under cupy's prefix row.
			return unknown()
		}
		path := catalog.Canonical(v.Path + "." + name)
		if s, ok := backendConstants[path]; ok {
			return []Value{{Kind: VStr, Str: s}} // dist.Backend.NCCL is "nccl"
		}
		return []Value{{Kind: VPath, Path: path, Method: v.Method, Dev: readDevice(v, name)}}
	case VModule:
		if vs := ev.moduleAttr(v.Mod, name); len(vs) > 0 {
			if v.Alt {
				return alternatives(vs)
			}
			return vs
		}
		if sub := v.Mod.importedModule(JoinDotted(v.Mod.Name, name), 0); sub != nil {
			return []Value{{Kind: VModule, Mod: sub, Alt: v.Alt}}
		}
		return unknown()
	case VClass, VInstance:
		if g, ctx, ok := ev.getterCall(v, name); ok {
			// A property: the read runs the getter (property.go).
			g.referenced = true
			return ev.propertyRead(g, ctx)
		}
		if vs, ok := storedAttr(v, name); ok {
			// Stored on the instance after it was made (attrstore.go):
			// as stored, a function not bound to it.
			return vs
		}
		vs := ev.classAttr(v, name)
		if v.Kind == VInstance {
			return boundTo(v, vs)
		}
		return vs
	case VContext:
		return []Value{{Kind: VPath, Path: v.spec().Family + "." + name, Method: v.Method}}
	case VObject:
		return []Value{{Kind: VObjMethod, Obj: v.Obj, Str: name}}
	case VDevice:
		return unknown()
	case VNamespace:
		return dictGet(v, name)
	}
	if v.Dev != DevNone {
		return []Value{attrResult(v, name)}
	}
	return unknown()
}

// receiverClass is the class of the instance v stands for: its own, or,
// for super(), the class of the self it was made from (v.Class is then
// the base the lookup starts at).
func receiverClass(v Value) *Class {
	if v.Self != nil {
		return v.Self
	}
	return v.Class
}

// classAttr looks a name up on a local class or instance: methods (bound for
// instances), self.x attributes, class-level bindings, then local base
// classes; for external bases it yields the base's path so that, say,
// self.cuda() on an nn.Module subclass is still seen as a method call.
func (ev *evaluator) classAttr(v Value, name string) []Value {
	return ev.classAttrIn(v, v.Class, name, 0)
}

// classAttrIn looks name up in class c, v's class or one of its bases.
// Instance attributes are evaluated for v itself: the calls on v that set
// them are those whose receiver is v, whichever class defines the method.
func (ev *evaluator) classAttrIn(v Value, c *Class, name string, depth int) []Value {
	if depth > 8 {
		return unknown()
	}
	if f := c.Methods[name]; f != nil {
		fv := ev.funcValue(f)
		if v.Kind == VInstance {
			fv.Self = c
		}
		return []Value{fv}
	}
	var out []Value
	if v.Kind == VInstance {
		for _, b := range c.SelfAttrs[name] {
			// Set in the constructor call that made v, or by another
			// method: as the calls of it on v set it.
			for _, ctx := range ev.storingContexts(v, b.Scope) {
				if ctx == nil {
					out = union(out, ev.binding(b))
				} else {
					out = union(out, ev.bindingIn(ctx, b))
				}
			}
		}
		out = ev.instanceAppends(v, c, name, out)
		out = ev.movedParts(v, out)
	}
	for _, b := range c.Scope.Bindings[name] {
		out = union(out, ev.binding(b))
	}
	if len(out) > 0 {
		return out
	}
	ev.eachBase(c, func(base []Value) bool {
		for _, bv := range base {
			switch bv.Kind {
			case VClass:
				in := bv
				if v.Kind == VInstance {
					in = v
				}
				if vs := ev.classAttrIn(in, bv.Class, name, depth+1); len(vs) > 0 && vs[0].Kind != VUnknown {
					out = union(out, vs)
				}
			case VPath:
				// An attribute or method the library base defines
				// (model.to, model.training): of the instance's device,
				// and, for one that returns the instance
				// (returnsReceiver), the instance's class and context.
				a := Value{Kind: VPath, Path: bv.Path + "()." + name, Dev: v.Dev}
				if v.Kind == VInstance && receiverMethods[name] || v.Kind == VClass && classFactories[name] {
					a.Self, a.Env = receiverClass(v), v.Env
				}
				out = add(out, a)
			}
		}
		return false
	})
	if len(out) == 0 {
		return unknown()
	}
	return out
}

// boundTo returns vs, the values of an attribute read on instance v, with
// its bound methods bound to v: self is the receiver. vs may be a binding's
// cached set, so a method is bound in a copy.
func boundTo(v Value, vs []Value) []Value {
	copied := false
	for i := range vs {
		if vs[i].Kind == VFunc && vs[i].Self != nil {
			if !copied {
				vs = append([]Value(nil), vs...)
				copied = true
			}
			vs[i].Self, vs[i].Env, vs[i].Dev = receiverClass(v), v.Env, v.Dev
		}
	}
	return vs
}

// basePaths returns the external base classes of a local class, following
// local bases.
func (ev *evaluator) basePaths(c *Class, depth int) []string {
	if depth > 8 {
		return nil
	}
	var out []string
	ev.eachBase(c, func(base []Value) bool {
		for _, bv := range base {
			switch bv.Kind {
			case VClass:
				out = append(out, ev.basePaths(bv.Class, depth+1)...)
			case VPath:
				out = append(out, bv.Path)
			}
		}
		return false
	})
	return out
}

// method finds a method on a class or its local bases.
func (ev *evaluator) method(c *Class, name string, depth int) *Function {
	if depth > 8 {
		return nil
	}
	if f := c.Methods[name]; f != nil {
		return f
	}
	var found *Function
	ev.eachBase(c, func(base []Value) bool {
		for _, bv := range base {
			if bv.Kind == VClass {
				if found = ev.method(bv.Class, name, depth+1); found != nil {
					return true
				}
			}
		}
		return false
	})
	return found
}

func parseInt(s string) (int, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int(r-'0')
	}
	return n, true
}
