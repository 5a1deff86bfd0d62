package model

import (
	"cmp"
	"hash/maphash"
	"slices"

	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Call contexts: what a function sees when it is called with particular
// arguments. The model is flow-insensitive and memoizes each binding once,
// with a parameter's value being "unknown, or its default"; that is right
// for a function read on its own, and too weak for the shapes where the
// arguments decide: a worker that allocates on the device its parent hands
// it (Process(target=work, args=("cuda:0",))), a helper called with a
// constant that decides a branch or a start method, a worker factory passed
// as an argument and called inside the callee, a Dataset whose __getitem__
// reads what its constructor stored.
//
// A callContext binds one function's parameters to the values one call
// passes. Expressions evaluated in it see those values for the parameters,
// and every binding of the function's body (and of the functions nested in
// it) is evaluated and cached per context; everything else keeps the
// program-wide cache. Summaries, facts and the child verdicts are memoized
// per context too. Contexts are interned by the values they bind, so every
// call with the same arguments shares one, and they stay affordable by
// being made only when an argument carries something (a constant, a
// function, an object, a device: not a value the model knows nothing
// about), at most maxContextsPerFunc per function for each module
// simulated as __main__ (valueState.newEntry) and nested at most
// maxContextDepth deep (a context whose values carry contexts).
//
// Values carry contexts too (Value.Env): an instance carries the context of
// the __init__ call that made it, so its attributes are read with the
// constructor's arguments; a function nested in another carries the
// enclosing call's context (its free variables); a bound method carries its
// receiver's.

const (
	maxContextsPerFunc = 16
	maxContextDepth    = 4
)

// argList is what a call passes: positional arguments (each a set of
// possible values) and keyword arguments. complete is false when a *args or
// **kwargs the model could not expand may pass more.
type argList struct {
	pos      [][]Value
	kw       []kwArg
	complete bool
	// spread holds the values of **mappings whose keys the model could not
	// all read (a dict filled as kwargs[name] = v): any keyword parameter
	// the call does not otherwise bind may get one of them. It is exact
	// when spreadOnly: those mappings are all the call did not expand.
	spread     []Value
	spreadOnly bool
	// backend is the process group's backend known where the call runs,
	// when it is not NCCL (processgroup.go).
	backend string
	// call is the functools.partial call that bound a process API
	// (partial(DataLoader, num_workers=8)), whose arguments the API's
	// table row reads as written; scope is where it was made.
	call  *syntax.Call
	scope *Scope
}

type kwArg struct {
	name   string
	values []Value
}

// unknownArgs is the argument list of a call the model cannot see (the
// batches a collator gets, the arguments of a joblib.delayed call): nothing
// is known about them.
func unknownArgs() argList { return argList{} }

// callContext binds a function's parameters to the values of one call.
type callContext struct {
	fn    *Function
	outer *callContext // the context of the function fn is nested in
	// params holds the parameters the call passes (or whose default it
	// leaves, when complete).
	params   map[*Binding][]Value
	complete bool
	depth    int
	// backend is the process group's backend the call runs under, when it
	// is known not to be NCCL (processgroup.go).
	backend string

	vals     map[*Binding]*valueCell
	summary  *funcSummary
	fx       facts
	maybe    hitCell
	returned valueCell // what the function returns in the context
}

// owning returns the innermost context of the chain from c whose function
// contains scope sc, or nil.
func (c *callContext) owning(sc *Scope) *callContext {
	for ; c != nil; c = c.outer {
		for s := sc; s != nil; s = s.Parent {
			if s == c.fn.Scope {
				return c
			}
		}
	}
	return nil
}

// bindingIn evaluates b in context c (memoized in c).
func (ev *evaluator) bindingIn(c *callContext, b *Binding) []Value {
	solver := b.Scope.Module.Prog.valueSolver()
	if cv := c.vals[b]; cv != nil {
		if vs, ok := cv.done(); ok {
			return vs
		}
		return solver.value(cv, nil) // its component's values so far
	}
	if call, ok := callUnderWay(b, c); ok {
		solver.reachedCell(call) // as in binding: left uncached until the call is done
		return nil
	}
	if ev.nest >= maxNest {
		return unknown()
	}
	cv := &valueCell{}
	c.vals[b] = cv
	return solver.value(cv, func() []Value {
		return ev.freshIn(c, func() []Value {
			if b.Kind == BindParam && b.Scope == c.fn.Scope {
				return ev.annotatedParam(b, ev.paramIn(c, b))
			}
			vs := ev.bindingUncached(b)
			if b.Kind == BindAssign || b.Kind == BindWith {
				vs = ev.withAppends(b, vs)
			}
			return vs
		})
	})
}

// paramIn is the value of one of c.fn's parameters in c.
func (ev *evaluator) paramIn(c *callContext, b *Binding) []Value {
	if vs, ok := c.params[b]; ok {
		return vs
	}
	f := c.fn
	if f.Class != nil && isSelfParam(f, b.Name) && !isStatic(f) {
		return []Value{{Kind: VInstance, Class: f.Class, Self: f.Class}}
	}
	if b.Param == nil {
		return unknown()
	}
	switch b.Param.Kind {
	case syntax.ParamVarArgs:
		if c.complete {
			return []Value{{Kind: VList}}
		}
		return unknown()
	case syntax.ParamKwArgs:
		if c.complete {
			return []Value{{Kind: VDict}}
		}
		return unknown()
	}
	if b.Param.Default == nil {
		return unknown()
	}
	d := ev.expr(b.Param.Default, lookupParent(f.Scope.Parent))
	if c.complete {
		return d
	}
	return add(unknown(), d...)
}

// closure gives a local function value the context its free variables are
// read in: the context, among the evaluator's, of the function it is
// nested in.
func (ev *evaluator) closure(v Value) Value {
	if v.Kind == VFunc && v.Self == nil && v.Env == nil && ev.ctx != nil {
		v.Env = ev.ctx.owning(v.Func.Scope.Parent)
	}
	return v
}

// callArgs evaluates the arguments of a call.
func (ev *evaluator) callArgs(c *syntax.Call, sc *Scope) argList {
	l := argList{complete: true, spreadOnly: true}
	positional := true
	for _, a := range c.Args {
		switch {
		case a.Star == 1:
			vs := ev.expr(a.Value, sc)
			if positional && len(vs) == 1 && vs[0].Kind == VList {
				for _, el := range vs[0].elems() {
					l.pos = append(l.pos, []Value{el})
				}
				continue
			}
			l.complete, positional, l.spreadOnly = false, false, false
		case a.Star == 2:
			vs := ev.expr(a.Value, sc)
			if len(vs) == 1 && vs[0].Kind == VDict && !slicesContain(vs[0].keys(), "") {
				for i, k := range vs[0].keys() {
					l.kw = append(l.kw, kwArg{k, []Value{vs[0].elems()[i]}})
				}
				continue
			}
			l.complete = false
			if len(vs) == 1 && vs[0].Kind == VDict {
				l.spread = add(l.spread, vs[0].elems()...)
			} else {
				l.spreadOnly = false
			}
		case a.Keyword != "":
			l.kw = append(l.kw, kwArg{a.Keyword, ev.expr(a.Value, sc)})
		case positional:
			l.pos = append(l.pos, ev.expr(a.Value, sc))
		}
	}
	return l
}

func slicesContain(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// contextFor returns the context of calling the function value v with
// args, or nil when the call binds nothing worth a context of its own (the
// function is then evaluated as it is everywhere else).
func (ev *evaluator) contextFor(v Value, args argList) *callContext {
	f := v.Func
	if f == nil || (f.Def == nil && f.Lambda == nil) {
		return nil
	}
	if v.Partial != nil {
		args = argList{
			pos:      append(append([][]Value(nil), v.Partial.pos...), args.pos...),
			kw:       append(append([]kwArg(nil), v.Partial.kw...), args.kw...),
			complete: args.complete && v.Partial.complete,
		}
	}
	vs := f.Module.Prog.values()
	// c is a probe: most calls find their context made already, or bind
	// nothing worth one, so it lives on the stack with a borrowed map and
	// is copied to the heap only when interned as new.
	c := &callContext{fn: f, params: vs.borrowParams(), complete: args.complete, backend: args.backend}
	worth := args.backend != ""
	ps := f.Params()
	i := 0
	if v.Self != nil && len(ps) > 0 && isSelfParam(f, ps[0].Name) && !isStatic(f) {
		// A bound method's device is its receiver's (a method of a model
		// the parent moved to the GPU): the body reads self's parts there.
		c.params[paramBinding(f, 0)] = []Value{{Kind: VInstance, Class: v.Self, Self: v.Self, Env: v.Env, Dev: v.Dev}}
		worth = worth || v.Env != nil || v.Dev != DevNone
		i = 1
	} else if f.Class != nil && len(ps) > 0 && ps[0].Kind == syntax.ParamNormal && isClassMethod(f) {
		// Klass.method(x) on a classmethod: cls is the class, not x
		// (fairseq's Binarizer.multiprocess_dataset hands its Pool
		// cls._binarize_chunk_and_finalize).
		c.params[paramBinding(f, 0)] = []Value{{Kind: VInstance, Class: f.Class, Self: f.Class}}
		c.outer = v.Env
		i = 1
	} else {
		c.outer = v.Env
		worth = worth || v.Env != nil
	}
	var rest []Value
	for _, a := range args.pos {
		switch {
		case i < len(ps) && ps[i].Kind == syntax.ParamNormal:
			c.params[paramBinding(f, i)] = a
			i++
		case i < len(ps) && ps[i].Kind == syntax.ParamVarArgs:
			rest = append(rest, merge(a))
		}
		worth = worth || anyInformative(a)
	}
	for i < len(ps) && ps[i].Kind == syntax.ParamNormal {
		i++
	}
	if i < len(ps) && ps[i].Kind == syntax.ParamVarArgs {
		c.params[paramBinding(f, i)] = []Value{listOf(rest...)}
	}
	var extra []kwArg
	for _, kw := range args.kw {
		worth = worth || anyInformative(kw.values)
		if j := paramIndex(ps, kw.name); j >= 0 {
			c.params[paramBinding(f, j)] = kw.values
		} else {
			extra = append(extra, kw)
		}
	}
	// A call whose only unexpanded arguments are **mappings of known
	// values binds each keyword parameter left over to one of those values
	// or its default: global_distributed_metric's metric(**kwargs), where
	// kwargs[name] = metric_kwargs[name][rank].
	spreadKnown := !args.complete && args.spreadOnly && len(args.spread) > 0
	for j := range ps {
		switch ps[j].Kind {
		case syntax.ParamKwArgs:
			var d elements
			for _, kw := range extra {
				d.Keys, d.Elems = append(d.Keys, kw.name), append(d.Elems, merge(kw.values))
			}
			switch {
			case spreadKnown:
				for _, v := range args.spread {
					d.Keys, d.Elems = append(d.Keys, ""), append(d.Elems, v)
				}
			case !args.complete:
				// Keywords the model did not see (**opts) may be in it.
				d.Keys, d.Elems = append(d.Keys, ""), append(d.Elems, Value{Kind: VUnknown})
			}
			c.params[paramBinding(f, j)] = []Value{Value{Kind: VDict}.withSeq(d.Elems, d.Keys)}
		case syntax.ParamNormal, syntax.ParamKwOnly:
			b := paramBinding(f, j)
			if _, bound := c.params[b]; bound || !spreadKnown { // self and cls are bound above
				continue
			}
			vs := args.spread
			if ps[j].Default != nil {
				vs = add(append([]Value(nil), vs...), ev.expr(ps[j].Default, lookupParent(f.Scope.Parent))...)
			}
			c.params[b] = vs
			worth = worth || anyInformative(vs)
		}
	}
	if worth {
		if got := vs.intern(c, vs.perFunc, maxContextsPerFunc); got != nil {
			return got
		}
	}
	// Not worth a context, or none left: the constants alone may still
	// decide its tests (constcontext.go).
	k := ev.constContext(c)
	vs.returnParams(c.params)
	if k != nil {
		return k
	}
	vs.plain[f] = true
	return nil
}

// borrowParams is an empty parameter map for a probe context (contextFor),
// taken from those returned; contextFor may run again while it fills one
// (a default evaluated calls another function), so there is a list.
func (vs *valueState) borrowParams() map[*Binding][]Value {
	if n := len(vs.spareParams); n > 0 {
		m := vs.spareParams[n-1]
		vs.spareParams = vs.spareParams[:n-1]
		return m
	}
	return map[*Binding][]Value{}
}

// returnParams takes back a probe's map that no context kept.
func (vs *valueState) returnParams(m map[*Binding][]Value) {
	clear(m)
	vs.spareParams = append(vs.spareParams, m)
}

// globalFromContexts evaluates a module-level name that a function assigns
// (`global MODEL; MODEL = Net().to(device)` in a pool's initializer) as the
// function's calls left it: in each of its contexts, when every call the
// model has seen of it had one. Read elsewhere, the assignment would
// otherwise be evaluated with the function's parameters unknown.
func (ev *evaluator) globalFromContexts(b *Binding) ([]Value, bool) {
	f := b.Scope.Func
	if f == nil || b.Scope != f.Scope || b.Kind != BindAssign || !f.Scope.Globals[b.Name] || ev.ctx.owning(b.Scope) != nil {
		return nil, false
	}
	vs := f.Module.Prog.values()
	cs := vs.byFunc[f]
	if len(cs) == 0 || vs.plain[f] || !f.referenced {
		return nil, false
	}
	var out []Value
	for _, c := range cs {
		out = add(out, ev.bindingIn(c, b)...)
	}
	return out, true
}

// paramIndex finds the parameter a keyword argument names.
func paramIndex(ps []syntax.Param, name string) int {
	for j, p := range ps {
		if p.Name == name && (p.Kind == syntax.ParamNormal || p.Kind == syntax.ParamKwOnly) {
			return j
		}
	}
	return -1
}

// paramBinding is the binding of f's i-th parameter.
func paramBinding(f *Function, i int) *Binding {
	p := &f.Params()[i]
	for _, b := range f.Scope.bindingsOf(p.Name) {
		if b.Kind == BindParam && b.Param == p {
			return b
		}
	}
	// A parameter rebound by `global`: bind a stand-in no lookup reaches.
	return &Binding{Kind: BindParam, Name: p.Name, Param: p, Scope: f.Scope}
}

// anyInformative reports whether some value tells more than "unknown": a
// constant, a local function, class or instance, a process object, a
// device, a value on a device, or a container of such.
func anyInformative(vs []Value) bool {
	for _, v := range vs {
		if informative(v, 0) {
			return true
		}
	}
	return false
}

func informative(v Value, depth int) bool {
	switch v.Kind {
	case VUnknown, VPath, VModule:
		return v.Dev != DevNone
	case VList, VDict:
		if depth > 2 {
			return false
		}
		for _, el := range v.elems() {
			if informative(el, depth+1) {
				return true
			}
		}
		return false
	}
	return true
}

// intern returns the context equal to probe c made before, or records a
// copy of c (which then keeps c's parameter map); nil when c's function
// has all the contexts it may have (limit, counted in budget), or c nests
// too deep.
func (vs *valueState) intern(c *callContext, budget map[*Function]int, limit int) *callContext {
	vs.budgetReads++
	depth := 0
	if c.outer != nil {
		depth = c.outer.depth
	}
	h := maphash.Hash{}
	h.SetSeed(vs.seed)
	var buf [8]*Binding
	keys := buf[:0]
	for k := range c.params {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b *Binding) int { return cmp.Compare(a.Span.Start, b.Span.Start) })
	for _, k := range keys {
		maphash.WriteComparable(&h, k)
		for _, v := range c.params[k] {
			depth = max(depth, hashValue(&h, v, 0))
		}
	}
	key := ctxKey{c.fn, c.outer, c.complete, c.backend, h.Sum64()}
	for _, old := range vs.contexts[key] {
		if sameParams(old, c) {
			vs.returnParams(c.params)
			if vs.given[old] {
				return old
			}
			if budget[old.fn] >= limit {
				return nil
			}
			budget[old.fn]++
			vs.given[old] = true
			return old
		}
	}
	if depth >= maxContextDepth || budget[c.fn] >= limit {
		return nil
	}
	made := &callContext{fn: c.fn, outer: c.outer, params: c.params, complete: c.complete, backend: c.backend}
	budget[made.fn]++
	vs.given[made] = true
	vs.byFunc[made.fn] = append(vs.byFunc[made.fn], made)
	made.depth = depth + 1
	made.vals = map[*Binding]*valueCell{}
	vs.contexts[key] = append(vs.contexts[key], made)
	return made
}

// ctxKey buckets contexts: their function and closure, and a hash of the
// values they bind.
type ctxKey struct {
	fn       *Function
	outer    *callContext
	complete bool
	backend  string
	hash     uint64
}

// hashValue hashes what sameValue compares, and list elements; it returns
// the depth of the contexts the value carries.
func hashValue(h *maphash.Hash, v Value, depth int) int {
	maphash.WriteComparable(h, struct {
		kind        ValueKind
		path, str   string
		mod         *Module
		fn          *Function
		class, self *Class
		obj         *Object
		interp      bool
		alt         bool
		n           int
		dev         Device
		env         *callContext
		partial     *argList
		method      MethodSpec
		elems       int
	}{v.Kind, v.Path, v.Str, v.Mod, v.Func, v.Class, v.Self, v.Obj, v.Interp, v.Alt, v.Int, v.Dev, v.Env, v.Partial, v.spec(), len(v.elems())})
	d := 0
	if v.Env != nil {
		d = v.Env.depth
	}
	if depth < 3 {
		for i, el := range v.elems() {
			if i < len(v.keys()) {
				h.WriteString(v.keys()[i])
			}
			d = max(d, hashValue(h, el, depth+1))
		}
	}
	return d
}

// sameParams reports whether two contexts of one function bind the same
// values: a, interned, and b, not yet. The constructor context a binds self
// to the instance it makes, whose Env is a itself (instantiate does that
// once a is interned); b, made for a call with the same arguments, binds
// it without one yet, and is the same context: the same call evaluated
// twice (for its effects, for its value) makes one instance.
func sameParams(a, b *callContext) bool {
	if len(a.params) != len(b.params) {
		return false
	}
	for k, av := range a.params {
		bv, ok := b.params[k]
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			x := av[i]
			if x.Kind == VInstance && x.Env == a {
				x.Env = nil
			}
			if !deepSame(&x, &bv[i], 0) {
				return false
			}
		}
	}
	return true
}

// deepSame is sameValue with list and dict elements compared too.
func deepSame(a, b *Value, depth int) bool {
	if len(a.elems()) != len(b.elems()) || len(a.keys()) != len(b.keys()) {
		return false
	}
	x, y := *a, *b
	x.seq, y.seq = nil, nil
	if !sameValue(&x, &y) {
		return false
	}
	if depth >= 3 {
		return true
	}
	for i := range a.keys() {
		if a.keys()[i] != b.keys()[i] {
			return false
		}
	}
	for i := range a.elems() {
		if !deepSame(&a.elems()[i], &b.elems()[i], depth+1) {
			return false
		}
	}
	return true
}

// returnsIn is what f returns in context c (memoized in c); with c nil, as
// everywhere.
func (ev *evaluator) returnsIn(f *Function, c *callContext) []Value {
	if c == nil {
		return ev.returns(f)
	}
	if vs, ok := c.returned.done(); ok {
		return vs
	}
	solver := f.Module.Prog.valueSolver()
	if c.returned.state == factBusy {
		return solver.value(&c.returned, nil) // its component's values so far
	}
	if ev.nest >= maxNest {
		return nil
	}
	return solver.value(&c.returned, func() []Value {
		return ev.freshIn(c, func() []Value { return ev.returnValues(f) })
	})
}

// summaryIn is the summary of f run in context c.
func summaryIn(f *Function, c *callContext) []event {
	if c == nil {
		return f.summaryOf()
	}
	if c.summary != nil {
		return c.summary.events
	}
	c.summary = &funcSummary{building: true}
	b := &builder{m: f.Module, sc: f.Scope}
	b.ev.ctx = c
	if f.Lambda != nil {
		b.expr(f.Lambda.Body)
	} else {
		b.stmts(f.Def.Body())
	}
	c.summary.events, c.summary.building = b.out, false
	return c.summary.events
}

// factsIn are the facts of running f in context c.
func factsIn(f *Function, c *callContext) facts {
	if c == nil {
		return f.facts()
	}
	return memoFacts(f.Module.Prog, &c.fx, func() []event { return summaryIn(f, c) }, false)
}

// knownCallee reports whether a called expression evaluates to code the
// model knows (local functions and classes, library APIs) or no code at all
// (None, a number or a string: calling one raises, on a path the program
// guards against), as a parameter bound in a context does: such a call is
// not opaque.
func (ev *evaluator) knownCallee(e syntax.Expr, sc *Scope) bool {
	if ev.ctx == nil {
		return false
	}
	vs := ev.expr(e, sc)
	for _, v := range vs {
		switch v.Kind {
		case VFunc, VClass, VPath, VObjMethod, VConst, VInt, VStr:
		case VInstance:
			if _, ok := ev.callTarget(v); !ok {
				return false
			}
		default:
			return false
		}
	}
	return len(vs) > 0
}

// partial handles functools.partial(f, *args, **kwargs): the result calls f
// with these arguments first. The bound arguments are made once per call
// site and context, so that the values they are part of compare equal.
func (ev *evaluator) partial(r *callResult, c *syntax.Call, sc *Scope, site Site) {
	if len(c.Args) == 0 || c.Args[0].Keyword != "" || c.Args[0].Star != 0 {
		return
	}
	l := ev.callArgs(c, sc)
	var bound *argList
	if len(l.pos) > 1 || len(l.kw) > 0 || !l.complete {
		vs := site.Mod.Prog.values()
		k := ctxSite{site.Span, site.Mod, ev.ctx}
		if bound = vs.partials[k]; bound == nil {
			bound = &argList{pos: l.pos[1:], kw: l.kw, complete: l.complete}
			vs.partials[k] = bound
		}
	}
	for _, fv := range l.pos[0] {
		if fv.Kind == VFunc && fv.Path == "" && fv.Partial == nil {
			fv.Partial = bound
		}
		if fv.Kind == VPath && fv.Partial == nil && len(c.Args) > 1 {
			if _, _, ok := procapi.Lookup(fv.Path); ok {
				fv.Partial = ev.partialCall(c, sc)
			}
		}
		r.value(fv)
	}
}

// partialCall is the binding of a process API by functools.partial at call
// c, made once per call and scope.
func (ev *evaluator) partialCall(c *syntax.Call, sc *Scope) *argList {
	vs := sc.Module.Prog.values()
	k := ctxSite{c.Span, sc.Module, nil}
	if b := vs.partialAPIs[k]; b != nil {
		return b
	}
	b := &argList{call: c, scope: sc}
	vs.partialAPIs[k] = b
	return b
}

// throughPartial is call c of a process API that functools.partial bound
// (CustomDataLoader = partial(DataLoader, num_workers=8); CustomDataLoader(ds)),
// written as one call: the bound positional arguments first, then c's, and
// c's keywords before the bound ones, which they override. It is nil when
// the names in the bound arguments may not mean the same where c is (the
// partial was made in a scope c does not see).
func (ev *evaluator) throughPartial(b *argList, c *syntax.Call, sc *Scope) *syntax.Call {
	seen := false
	for s := sc; s != nil; s = s.Parent {
		seen = seen || s == b.scope
	}
	if !seen {
		return nil
	}
	vs := sc.Module.Prog.values()
	k := [2]*syntax.Call{b.call, c}
	if m := vs.partialCalls[k]; m != nil {
		return m
	}
	bound := b.call.Args[1:]
	var args []syntax.Arg
	for _, group := range [][]syntax.Arg{bound, c.Args} {
		for _, a := range group {
			if a.Keyword == "" && a.Star != 2 {
				args = append(args, a)
			}
		}
	}
	for _, group := range [][]syntax.Arg{c.Args, bound} {
		for _, a := range group {
			if a.Keyword != "" || a.Star == 2 {
				args = append(args, a)
			}
		}
	}
	m := &syntax.Call{Span: c.Span, Func: b.call.Args[0].Value, Args: args}
	vs.partialCalls[k] = m
	return m
}
