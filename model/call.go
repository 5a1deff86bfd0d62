package model

import (
	"fmt"
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// effectKind classifies what one call does, before it is placed in a summary.
type effectKind uint8

const (
	effInit          effectKind = iota // a catalogued initializer (or extra-initializer)
	effUse                             // touches CUDA without initializing it
	effCall                            // runs a local function
	effStart                           // starts processes
	effPendingStart                    // a DataLoader made: forks where iterated (effIterate), here (unseen) only if kept in a container the model does not follow
	effIterate                         // iterates loaders (src): their workers start (iteration.go)
	effSetMethod                       // set_start_method
	effDefaultDevice                   // torch.set_default_device
	effPreload                         // set_forkserver_preload
	effImport                          // imports (and so runs) a local module
	effNVMLCheck                       // os.environ["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"
	effNVMLRestore                     // the end of a with block that set it
	effOpaqueCall                      // calls code the model cannot see (a callable parameter)
	effMaybeUse                        // touches a value whose device could not be evaluated: api names it
)

// effect is one thing a call does. Summaries hold one per call: the
// one-byte fields are kept together at the end, where they share a word.
type effect struct {
	site  Site
	api   string         // the qualified name, for messages
	entry *catalog.Entry // effInit, effUse: the catalog row (nil for extra-initializers and CUDA values)
	fn    *Function      // effCall
	ctx   *callContext   // effCall: the context fn runs in (nil: none of its own)
	obj   *Object        // effStart, effPendingStart
	mod   *Module        // effImport
	// more holds what only the rarer effects carry (nil for the others):
	// an effect is in every summary's events, and most are calls.
	more *effectMore

	kind effectKind
	cond initCondition // effInit, effUse: when it applies
	once bool          // effStart: only the first start of obj forks (executors, persistent loaders)
	cuda bool          // effDefaultDevice
	// block: effDefaultDevice enters a `with torch.device(d):` block (cuda
	// says d), or, with restore, leaves it.
	block, restore bool
	// ifUnset: effSetMethod only sets the method when none was chosen yet
	// (a library that sets it at import unless the program did first).
	ifUnset bool
	// unsure: what the effect raises may not end its function or module
	// (raisesAtBootstrap): the effect is in the body of a try (or of a
	// `with suppress(...)`), whose handlers may catch it, or it is one
	// callee's of a call whose callee has several values, which may not
	// run.
	unsure bool
}

// effectMore is what the rarer effects carry.
type effectMore struct {
	method MethodSpec // effSetMethod; effPreload: its Family
	mods   []string   // effPreload
	src    loaderSrc  // effIterate: what is iterated
	// unseen: effIterate's iteration is assumed, not seen (a library call
	// that may iterate the loaders handed to it): its starts are unseen.
	unseen bool
	binds  []paramLoaders // effCall: the loaders handed to the callee's parameters
}

// with is e carrying more.
func (e effect) with(more effectMore) effect {
	e.more = &more
	return e
}

// noMore is what an effect without more carries: nothing. Read only.
var noMore effectMore

// rare is what e carries beyond the common fields: e.more, or noMore.
func (e *effect) rare() *effectMore {
	if e.more == nil {
		return &noMore
	}
	return e.more
}

// method is the start method an effSetMethod sets (an effPreload's
// family).
func (e *effect) method() MethodSpec { return e.rare().method }

// mods are the modules an effPreload names.
func (e *effect) mods() []string { return e.rare().mods }

// src is what an effIterate iterates.
func (e *effect) src() loaderSrc { return e.rare().src }

// iterationUnseen says an effIterate's iteration is assumed, not seen.
func (e *effect) iterationUnseen() bool { return e.rare().unseen }

// binds are the loaders an effCall hands to the callee's parameters.
func (e *effect) binds() []paramLoaders { return e.rare().binds }

// initCondition says when an effInit applies.
type initCondition uint8

const (
	condAlways        initCondition = iota
	condDefaultDevice               // a factory without device=: only after set_default_device("cuda")
	condNoNVMLCheck                 // torch.cuda.is_available: not with PYTORCH_NVML_BASED_CUDA_CHECK=1
)

// callResult is a resolved call: its possible values and its effects.
type callResult struct {
	values  []Value
	effects []effect
}

func (r *callResult) value(v Value) { r.values = add(r.values, v) }
func (r *callResult) effect(e effect) {
	r.effects = append(r.effects, e)
}

// call is the value of a call, memoized per call and context: a call's
// arguments are evaluated by several of its handlers (what it iterates, the
// parameters it binds, the devices it passes), and calls nest.
func (ev *evaluator) call(c *syntax.Call, sc *Scope) []Value {
	vs := sc.Module.Prog.values()
	k := callKey{c, ev.ctx.owning(sc)}
	if m, ok := vs.calls[k]; ok {
		return m
	}
	solver := sc.Module.Prog.valueSolver()
	if cell := vs.openCalls[k]; cell != nil {
		return solver.value(cell, nil) // its component's values so far
	}
	if ev.nest >= maxNest {
		return unknown()
	}
	// Settled calls are kept as their values alone (a program evaluates
	// hundreds of thousands); a cell exists while the call's component is
	// open.
	cell := &valueCell{}
	vs.openCalls[k] = cell
	ctx := ev.ctx
	out := solver.value(cell, func() []Value {
		return ev.freshIn(ctx, func() []Value {
			if r := ev.resolveCall(c, sc); len(r.values) > 0 {
				return r.values
			}
			return unknown()
		})
	})
	if cell.state == factDone {
		vs.calls[k] = out
		delete(vs.openCalls, k)
	}
	return out
}

// callKey is a call in the context its scope is evaluated in.
type callKey struct {
	call *syntax.Call
	ctx  *callContext
}

// resolveCall works out what a call does. It is pure apart from creating the
// call site's Object once and adding targets to Objects (both idempotent), so
// evaluation and summarization can both call it.
func (ev *evaluator) resolveCall(c *syntax.Call, sc *Scope) callResult {
	var r callResult
	m := sc.Module
	site := Site{m, c.Span}
	if t, ok := ev.strPrefixTest(c, sc); ok {
		r.values = []Value{boolValue(t)} // sys.platform.startswith("win") (platform.go)
		return r
	}
	if n, ok := c.Func.(*syntax.Name); ok && len(lookup(n.ID, sc)) == 0 && ev.builtinCall(&r, n.ID, c, sc) {
		ev.argumentEffects(&r, c, sc, site)
		return r
	}
	callees := ev.expr(c.Func, sc)
	attrName := ""
	if a, ok := c.Func.(*syntax.Attribute); ok {
		attrName = a.Attr
		for _, recv := range ev.expr(a.X, sc) {
			if recv.Kind == VList || recv.Kind == VDict {
				ev.containerMethod(&r, recv, attrName, c)
			}
		}
	}
	for _, v := range callees {
		switch v.Kind {
		case VFunc:
			if v.Path != "" {
				if e, ok := catalog.Lookup(catalog.Call, v.Path); ok {
					ev.catalogEffect(&r, e, v.Path, DevNone, c, sc, site)
					continue
				}
			}
			ev.callLocal(&r, v, c, sc, site)
		case VClass:
			ev.instantiate(&r, v.Class, c, sc, site)
		case VInstance:
			// A callable object (metric(x)): its __call__ runs on the
			// instance. The instance's own device still counts below.
			if fv, ok := ev.callTarget(v); ok {
				ev.callLocal(&r, fv, c, sc, site)
			}
			ev.deviceCall(&r, v.Dev, attrName, c, sc, site)
		case VPath:
			if s, ok := platformCall(v, c, sc); ok {
				r.values = add(r.values, s)
				continue
			}
			if v.Partial != nil && v.Partial.call != nil {
				if m := ev.throughPartial(v.Partial, c, sc); m != nil {
					v.Partial = nil
					ev.pathCall(&r, v, attrName, m, sc, site)
					continue
				}
			}
			n := len(r.values)
			ev.pathCall(&r, v, attrName, c, sc, site)
			ev.returnsReceiver(&r, n, v, attrName)
		case VObjMethod:
			ev.objectMethod(&r, v.Obj, v.Str, c, sc, site)
		case VObject:
			ev.callObject(&r, v.Obj, c, sc, site) // launchers.go
		case VContext, VModule, VStr, VInt, VConst, VList, VDict, VNamespace, VDevice:
			// Not callable in a way that matters here.
		default:
			if attrName != "" {
				if e, ok := catalog.Lookup(catalog.Method, "."+attrName); ok {
					ev.catalogEffect(&r, e, "."+attrName+"()", v.Dev, c, sc, site)
					continue
				}
			}
			ev.deviceCall(&r, v.Dev, attrName, c, sc, site)
		}
	}
	if len(callees) > 1 {
		for i := range r.effects {
			r.effects[i].unsure = true
		}
	}
	ev.mapAny(&r, callees, c, sc, site) // launchers.go
	ev.argumentEffects(&r, c, sc, site)
	return r
}

// callLocal is the call of a local function value: its events in the
// call's context, and what it returns.
func (ev *evaluator) callLocal(r *callResult, v Value, c *syntax.Call, sc *Scope, site Site) {
	if ev.cannotBind(v, c, sc) {
		// TypeError before the body runs (arity.go). The function is
		// still referenced: it is no entry of its own.
		v.Func.referenced = true
		return
	}
	args := ev.callArgs(c, sc)
	args.backend = ev.backendAt(c, sc)
	ctx := ev.contextFor(v, args)
	if !v.Alt {
		r.effect(effect{kind: effCall, fn: v.Func, site: site, ctx: ctx})
	}
	v.Func.referenced = true
	r.values = add(r.values, ev.returnsIn(v.Func, ctx)...)
	if sc.Module.Prog.extra[qualifiedName(v.Func)] {
		r.effect(effect{kind: effInit, api: qualifiedName(v.Func), site: site})
	}
}

// callTarget is the function value that calling v runs: v itself for a
// local function, the bound __call__ for an instance of a class that
// defines one (a callable object).
func (ev *evaluator) callTarget(v Value) (Value, bool) {
	switch v.Kind {
	case VFunc:
		return v, true
	case VInstance:
		if f := ev.method(v.Class, "__call__", 0); f != nil {
			return Value{Kind: VFunc, Func: f, Self: v.Class, Env: v.Env, Dev: v.Dev}, true
		}
	}
	return Value{}, false
}

// argumentEffects covers what a call does with its arguments: passing a
// CUDA object to a call uses CUDA; a call handed a DataLoader may return it,
// wrapped, to be iterated later (loaderResult, iteration.go). Iterating it is
// the summary's business (builder.iterations).
func (ev *evaluator) argumentEffects(r *callResult, c *syntax.Call, sc *Scope, site Site) {
	passed, what := DevNone, syntax.Expr(nil)
	var loaders [][]Value // per argument, the loaders it may be
	args := make([][]Value, len(c.Args))
	for i, a := range c.Args {
		args[i] = ev.expr(a.Value, sc)
		for _, v := range args[i] {
			if v.Kind == VObject && v.Obj.Kind == ObjLoader {
				if loaders == nil {
					loaders = make([][]Value, len(c.Args))
				}
				loaders[i] = append(loaders[i], v)
			}
			if d := held(v); d > passed {
				passed, what = d, a.Value
			}
		}
	}
	if e, ok := deviceUse(passed, useName(passed, "a CUDA object passed to a call", sc.Module, what), site); ok {
		r.effect(e)
	}
	if loaders != nil || mayReturnArgs(c) {
		ev.loaderResult(r, c, sc, loaders, args)
	}
}

// receiver is the object a method is called on (x in x.float()), or the
// called expression itself.
func receiver(c *syntax.Call) syntax.Expr {
	if a, ok := c.Func.(*syntax.Attribute); ok {
		return a.X
	}
	return c.Func
}

// useName names the use of a value on device d for messages: cudaName for
// a value on the GPU; for one whose device is unknown, the clause the
// child's verdict completes ("could not tell whether `x` is on the GPU").
func useName(d Device, cudaName string, m *Module, value syntax.Expr) string {
	if d != DevUnknown || value == nil {
		return cudaName
	}
	return fmt.Sprintf("`%s` is on the GPU", sourceText(m, value))
}

// sourceText is the source of an expression, shortened for messages.
func sourceText(m *Module, e syntax.Expr) string {
	span := e.Pos()
	txt := strings.Join(strings.Fields(string(m.Src[span.Start:span.End])), " ")
	if len(txt) > 40 {
		txt = txt[:37] + "..."
	}
	return txt
}

// returns evaluates what a local function returns outside any call
// context (memoized): the memo is the program's, so it is computed with no
// context whoever asks. Computed in the asker's, it held what the first
// asker's context made (the loaders a hook returns were that context's
// objects) for every later one.
func (ev *evaluator) returns(f *Function) []Value {
	cell := &f.memos().returned
	if vs, ok := cell.done(); ok {
		return vs
	}
	solver := f.Module.Prog.valueSolver()
	if cell.state == factBusy {
		return solver.value(cell, nil) // its component's values so far
	}
	if ev.nest >= maxNest {
		return nil
	}
	return solver.value(cell, func() []Value {
		return ev.freshIn(nil, func() []Value { return ev.returnValues(f) })
	})
}

// returnValues evaluates what f returns (a lambda's body, the values of
// its return statements) in the evaluator's current context, unmemoized.
func (ev *evaluator) returnValues(f *Function) []Value {
	if f.Lambda != nil {
		return ev.expr(f.Lambda.Body, f.Scope)
	}
	var out []Value
	ev.forEachLiveReturn(f.Def.Body(), f.Scope, func(e syntax.Expr) {
		out = add(out, ev.expr(e, f.Scope)...)
	})
	return out
}

// forEachLiveReturn is forEachReturn for the returns the evaluation's
// context lets run: an if arm its test, decided there, does not take is
// skipped, and so is what follows an if whose running arms all end in a
// return or a raise. build_data_loader(cfg, is_train=False), whose
// `if is_train: return data_loaders[0]` is not taken, returns the list
// alone, not the loader too: iterating that list starts no workers.
func (ev *evaluator) forEachLiveReturn(body []syntax.Stmt, sc *Scope, fn func(syntax.Expr)) {
	for _, s := range body {
		ifs, ok := s.(*syntax.If)
		if !ok {
			forEachReturn([]syntax.Stmt{s}, fn)
			continue
		}
		arms := ev.armTest(ifs, sc)
		ends := true
		if arms&armBody != 0 {
			ev.forEachLiveReturn(ifs.Body, sc, fn)
			ends = endsInReturn(ifs.Body)
		}
		if arms&armAlt != 0 {
			ev.forEachLiveReturn(ifs.Else, sc, fn)
			ends = ends && endsInReturn(ifs.Else)
		}
		if ends {
			// Also while the test is first being decided (armNone, in a
			// cycle of questions): the returns grow from nothing as the
			// arms it lets run do, never shrink.
			return
		}
	}
}

// endsInReturn reports whether a statement list's last statement returns
// or raises, so that nothing after the list runs once it has.
func endsInReturn(list []syntax.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *syntax.Return:
		return true
	case *syntax.OtherStmt:
		return s.Kind == "raise_statement"
	}
	return false
}

// forEachReturn calls fn for the value of every return statement in body,
// not descending into nested functions or classes.
func forEachReturn(body []syntax.Stmt, fn func(syntax.Expr)) {
	for _, s := range body {
		switch s := s.(type) {
		case *syntax.Return:
			if s.Value != nil {
				fn(s.Value)
			}
		case *syntax.If:
			forEachReturn(s.Body, fn)
			forEachReturn(s.Else, fn)
		case *syntax.For:
			forEachReturn(s.Body, fn)
			forEachReturn(s.Else, fn)
		case *syntax.While:
			forEachReturn(s.Body, fn)
			forEachReturn(s.Else, fn)
		case *syntax.With:
			forEachReturn(s.Body, fn)
		case *syntax.Try:
			forEachReturn(s.Body, fn)
			for _, h := range s.Handlers {
				forEachReturn(h.Body, fn)
			}
			forEachReturn(s.Else, fn)
			forEachReturn(s.Finally, fn)
		case *syntax.Match:
			for _, cs := range s.Cases {
				forEachReturn(cs.Body, fn)
			}
		}
	}
}

// instantiate handles calling a local class: its __init__ runs, and a
// subclass of multiprocessing.Process becomes a process object whose child
// runs the class's run method.
func (ev *evaluator) instantiate(r *callResult, c *Class, call *syntax.Call, sc *Scope, site Site) {
	inst := ev.construct(r, c, func() argList { return ev.callArgs(call, sc) }, site)
	for _, base := range ev.basePaths(c, 0) {
		if ev.subclassStart(r, c, base, ev.withUnpackedKwargs(call, sc), sc, site) { // launchers.go
			return
		}
		if api, fam, ok := procapi.Lookup(base); ok && api.Kind == procapi.Process {
			obj := ev.object(site, func() *Object {
				o := newObject(&Object{Kind: ObjProcess, Site: site, Method: MethodSpec{Family: fam}})
				if run := ev.method(c, "run", 0); run != nil {
					run.referenced = true
					ctx := ev.contextFor(Value{Kind: VFunc, Func: run, Self: c, Env: inst.Env}, argList{complete: true})
					o.Targets = append(o.Targets, Target{Func: run, Site: Site{run.Module, run.NameSpan()}, Desc: c.Name + ".run", Ctx: ctx})
				} else {
					o.Targets = append(o.Targets, Target{Site: site, Desc: c.Name + ".run"})
				}
				return o
			})
			r.value(Value{Kind: VObject, Obj: obj})
			return
		}
	}
	r.value(inst)
}

// construct runs a local class's __init__, if it has one, with the
// arguments args gives, and returns the instance it makes, which carries
// the constructor's context.
func (ev *evaluator) construct(r *callResult, c *Class, args func() argList, site Site) Value {
	inst := Value{Kind: VInstance, Class: c}
	if init := ev.method(c, "__init__", 0); init != nil {
		ctx := ev.contextFor(Value{Kind: VFunc, Func: init, Self: c}, args())
		if ctx != nil && len(init.Params()) > 0 && !isStatic(init) {
			// The instance carries its constructor call, whose self it is.
			inst.Env = ctx
			ctx.params[paramBinding(init, 0)] = []Value{{Kind: VInstance, Class: c, Self: c, Env: ctx}}
		}
		r.effect(effect{kind: effCall, fn: init, site: site, ctx: ctx})
		init.referenced = true
	}
	return inst
}

// pathCall handles a call of a library API.
func (ev *evaluator) pathCall(r *callResult, v Value, attrName string, c *syntax.Call, sc *Scope, site Site) {
	path := v.Path
	v.Dev = calledDevice(v)
	if ev.procCall(r, v, c, sc, site) {
		return
	}
	if ev.namespaceCall(r, path, c, sc) {
		return
	}
	switch path {
	case "functools.partial":
		// partial(f, ...) calls f with the arguments bound here first.
		ev.partial(r, c, sc, site)
		return
	case "importlib.import_module":
		// A local module, a library named by a constant, or a module the
		// model cannot name: unknown, not a path of importlib's.
		if mods := ev.importModuleValues(c, sc); len(mods) > 0 {
			r.values = add(r.values, mods...)
		} else if lib, ok := libraryImport(c); ok {
			r.value(Value{Kind: VPath, Path: catalog.Canonical(lib)})
		} else {
			r.values = add(r.values, unknown()...)
		}
		return
	case "os.environ.setdefault", "os.putenv":
		if nvmlAssignment(c) {
			r.effect(effect{kind: effNVMLCheck, site: site})
		}
	}
	if backendQueryPaths[path] {
		if b := ev.backendIn(sc); b != "" {
			r.value(Value{Kind: VStr, Str: b})
			return
		}
	}
	if sc.Module.Prog.extra[path] {
		r.effect(effect{kind: effInit, api: path, site: site})
		r.value(Value{Kind: VPath, Path: path + "()", Dev: DevCUDA})
		return
	}
	if e, ok := catalog.Lookup(catalog.Call, path); ok && !(e.Shape == catalog.PrefixCall && v.Dev == DevCPU && isObjectPath(path)) {
		// (A method of host data, cupy.asnumpy(x).sum(), is no cupy call;
		// a row for the method itself, a CPU model's
		// start_multi_process_pool(), still applies.)
		n := len(r.values)
		ev.catalogEffect(r, e, path, v.Dev, c, sc, site)
		if hostMethods[attrName] && isObjectPath(path) && len(r.values) > n {
			// cupy's x.get(): a use (by the prefix row), with a host result.
			r.values[n].Dev = DevCPU
		}
		return
	}
	// A method on an object (a call result), looked up by method name:
	// torch.nn.Linear(2, 2).to("cuda"), model.cuda().
	if attrName != "" {
		if e, ok := catalog.Lookup(catalog.Method, "."+attrName); ok && (isObjectPath(path) || e.AnyReceiver) {
			ev.catalogEffect(r, e, "."+attrName+"()", v.Dev, c, sc, site)
			return
		}
	}
	if v.Dev == DevNone && strings.HasPrefix(path, "torch.") {
		// torch.stack(xs), TensorDataset(x, y), F.relu(x): the result lives
		// where the tensors it is made of do.
		r.value(Value{Kind: VPath, Path: path + "()", Dev: ev.argsDevice(c, sc)})
		return
	}
	if e, ok := deviceUse(v.Dev, useName(v.Dev, path, sc.Module, receiver(c)), site); ok && !metadataMethods[attrName] {
		r.effect(e)
	}
	r.value(Value{Kind: VPath, Path: path + "()", Dev: methodResult(v.Dev, attrName)})
}

// deviceCall handles calling a value the model knows only by its device
// (a tensor or a module), or a method of one (x.float(), model(x)).
func (ev *evaluator) deviceCall(r *callResult, d Device, attrName string, c *syntax.Call, sc *Scope, site Site) {
	if d == DevNone {
		return
	}
	if !metadataMethods[attrName] {
		if e, ok := deviceUse(d, useName(d, "a CUDA object", sc.Module, receiver(c)), site); ok {
			r.effect(e)
		}
	}
	r.value(Value{Kind: VUnknown, Dev: methodResult(d, attrName)})
}

// argsDevice joins the devices the arguments of a call hold.
func (ev *evaluator) argsDevice(c *syntax.Call, sc *Scope) Device {
	d := DevNone
	for _, a := range c.Args {
		d = d.join(heldDeep(ev.expr(a.Value, sc), 0))
	}
	return d
}

// isObjectPath reports whether a path names an object (the result of a call
// or subscript) rather than a module attribute.
func isObjectPath(path string) bool {
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return false
	}
	recv := path[:i]
	return strings.Contains(recv, "()") || strings.Contains(recv, "[]")
}

// catalogEffect applies a catalog row to a call; recv is the device of the
// receiver of a method (x in x.to(...)), DevNone for a function.
func (ev *evaluator) catalogEffect(r *callResult, e *catalog.Entry, api string, recv Device, c *syntax.Call, sc *Scope, site Site) {
	if ev.shadowed(e, sc) { // initializers.go
		r.value(Value{Kind: VPath, Path: strings.TrimPrefix(api, ".") + "()"})
		return
	}
	switch e.Role {
	case catalog.RoleDevice:
		r.value(Value{Kind: VDevice, Dev: ev.deviceArg(e.Device, c, sc, DevCUDA)})
		return
	case catalog.RoleSetDefaultDevice:
		r.effect(effect{kind: effDefaultDevice, cuda: ev.deviceArg(e.Device, c, sc, DevNone) == DevCUDA, site: site, api: api})
		return
	case catalog.RoleHostResult:
		// Host data (a NumPy dtype, a finfo object): its methods are not
		// the library's, so a prefix row (jax.numpy.*) does not reach
		// jnp.finfo(t).max.astype() (see the host-data case of call).
		r.value(Value{Kind: VPath, Path: strings.TrimPrefix(api, ".") + "()", Dev: DevCPU})
		return
	}
	cond := condAlways
	dev := DevCUDA // where the row puts the result when it applies
	switch e.When {
	case catalog.DeviceArg:
		if e.Device.LikeInput && argExpr(c, e.Device.Pos, e.Device.Keyword) == nil {
			ev.likeInput(r, api, c, sc, site)
			return
		}
		missing := DevNone
		if e.Device.DefaultCUDA {
			missing = DevCUDA
		}
		dev = ev.deviceArg(e.Device, c, sc, missing)
	case catalog.DeviceArgOrDefault:
		dev = ev.deviceArg(e.Device, c, sc, DevDefault)
		if dev == DevDefault {
			// Under `with torch.device(d):` the default is d (device.go);
			// elsewhere it is what the simulation knows of
			// set_default_device.
			if b := ev.blockDevice(c, sc); b != DevNone {
				dev = b
			} else {
				cond = condDefaultDevice
			}
		}
	case catalog.UnlessNVMLCheck:
		cond = condNoNVMLCheck
	case catalog.DeviceMapArg:
		if !ev.conditionHolds(e, c, sc) { // initializers.go
			dev = DevNone
		}
	}
	name := strings.TrimPrefix(api, ".") + "()"
	applies := dev == DevCUDA || cond == condDefaultDevice
	if applies && e.Effect != catalog.NoEffect {
		// A switch argument turns it off (enabled=False); one the model
		// cannot evaluate proves no initialization, so none is recorded,
		// but a child that makes the call may use CUDA there.
		switch state, arg := ev.switched(e, c, sc); state { // initializers.go
		case switchUnseen:
			r.effect(effect{kind: effMaybeUse, api: fmt.Sprintf("`%s`, whose `%s` could not be evaluated", displayAPI(api, e), arg), site: site})
			fallthrough
		case switchOff:
			dev, cond, applies = DevNone, condAlways, false
		}
	}
	if !applies || e.Effect == catalog.NoEffect {
		// A method that names no device (x.to(torch.float16)) keeps the
		// receiver's; one that names the CPU or a device the model cannot
		// evaluate moves it there.
		if e.Shape == catalog.Method && dev == DevNone {
			dev = recv
		}
		if u, ok := deviceUse(recv, useName(recv, api, sc.Module, receiver(c)), site); ok && e.Shape == catalog.Method {
			r.effect(u)
		} else if dev == DevUnknown && e.Effect != catalog.NoEffect {
			// In a child, allocating on a device the model cannot evaluate
			// may be the CUDA use that fails.
			what := fmt.Sprintf("the `with torch.device(...)` block around `%s` names a GPU", name)
			if arg := argExpr(c, e.Device.Pos, e.Device.Keyword); arg != nil {
				what = fmt.Sprintf("`%s` names a GPU", sourceText(sc.Module, arg))
			}
			// No device argument: the device is a `with torch.device(d):`
			// block's whose d the model cannot evaluate.
			r.effect(effect{kind: effMaybeUse, api: what, site: site})
		}
		if e.Effect == catalog.NoEffect && e.Shape != catalog.Method {
			dev = DevNone
		}
		r.value(Value{Kind: VPath, Path: name, Dev: dev})
		return
	}
	if e.Effect == catalog.InitDriver && e.Shape != catalog.Method {
		// Driver queries (is_available, get_device_name) answer with host
		// data; the driver state they change is the simulation's business.
		dev = DevNone
	}
	r.effect(effect{kind: effectKindOf(e), entry: e, api: displayAPI(api, e), cond: cond, site: site})
	r.value(Value{Kind: VPath, Path: name, Dev: dev})
}

// likeInput handles a factory given no device that allocates where its
// input lives (torch.ones_like(x)): it touches x's device, as a method of x
// would, and its result lives there. A CUDA input's own initialization was
// seen where it was made.
func (ev *evaluator) likeInput(r *callResult, api string, c *syntax.Call, sc *Scope, site Site) {
	d := DevNone
	in := argExpr(c, 0, "input")
	if in != nil {
		d = heldDeep(ev.expr(in, sc), 0)
	}
	if u, ok := deviceUse(d, useName(d, api, sc.Module, in), site); ok {
		r.effect(u)
	}
	r.value(Value{Kind: VPath, Path: api + "()", Dev: d})
}

func displayAPI(api string, e *catalog.Entry) string {
	if e.Shape == catalog.Method {
		return e.Name + "()"
	}
	return api + "()"
}

// deviceArg is the device the argument a row names evaluates to; missing
// when the call does not pass it.
func (ev *evaluator) deviceArg(ref catalog.ArgRef, c *syntax.Call, sc *Scope, missing Device) Device {
	arg := argExpr(c, ref.Pos, ref.Keyword)
	if arg == nil {
		return missing
	}
	return ev.deviceNamed(arg, sc)
}

// argExpr finds an argument by keyword, or by position when pos >= 0.
func argExpr(c *syntax.Call, pos int, kw string) syntax.Expr {
	if kw != "" {
		for _, a := range c.Args {
			if a.Keyword == kw {
				return a.Value
			}
		}
	}
	if pos < 0 {
		return nil
	}
	i := 0
	for _, a := range c.Args {
		if a.Keyword != "" || a.Star != 0 {
			if a.Star != 0 {
				return nil // *args: positions unknown from here on
			}
			continue
		}
		if i == pos {
			return a.Value
		}
		i++
	}
	return nil
}

func nvmlAssignment(c *syntax.Call) bool {
	if len(c.Args) < 2 {
		return false
	}
	k, ok1 := c.Args[0].Value.(*syntax.String)
	v, ok2 := c.Args[1].Value.(*syntax.String)
	return ok1 && ok2 && k.Value == "PYTORCH_NVML_BASED_CUDA_CHECK" && v.Value == "1"
}

// object returns the Object created at site (in the evaluator's context),
// making it with mk the first time: a call evaluated in several contexts
// makes an object in each, with what that context hands its children.
func (ev *evaluator) object(site Site, mk func() *Object) *Object {
	if ev.ctx == nil {
		return site.Mod.object(site, mk)
	}
	vs := site.Mod.Prog.values()
	k := ctxSite{site.Span, site.Mod, ev.ctx}
	if o, ok := vs.ctxObjects[k]; ok {
		return o
	}
	o := mk()
	vs.ctxObjects[k] = o
	return o
}

// siteObject is the Object made at a site outside of any call context,
// and, when making it asked the budget of call contexts (its targets'
// contexts), the module simulated as __main__ it was made for.
type siteObject struct {
	obj      *Object
	perEntry bool
	entry    uint32
}

// object returns the Object created at site outside of any call context,
// making it with mk the first time, and again for each module simulated
// as __main__ when making it asked for call contexts: which contexts its
// targets get depends on the contexts that module already used, so an
// object made while another module ran would give this one that module's
// children (a train.py checked with inference.py got the DataLoader made
// while inference.py's import was analyzed, and its transforms;
// TestObjectsMadePerEntry).
func (m *Module) object(site Site, mk func() *Object) *Object {
	vs := m.Prog.values()
	if o, ok := vs.objects[site]; ok && (!o.perEntry || o.entry == vs.entry) {
		return o.obj
	}
	reads := vs.budgetReads
	o := mk()
	vs.objects[site] = siteObject{obj: o, perEntry: vs.budgetReads != reads, entry: vs.entry}
	return o
}

// qualifiedName is a local function's dotted name: module name plus
// qualified name ("mylab.gpu.setup", "train.Trainer.fit").
func qualifiedName(f *Function) string {
	return JoinDotted(f.Module.Name, strings.ReplaceAll(f.QualName, ".<locals>", ""))
}

// effectKindOf is the effect a catalog row that touches CUDA has on the
// calling process: an initialization, or a use of an initialized driver.
func effectKindOf(e *catalog.Entry) effectKind {
	if e.Effect.Initializes() {
		return effInit
	}
	return effUse
}
