package model

import (
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
	effPendingStart                    // a DataLoader created: forks when iterated
	effSetMethod                       // set_start_method
	effDefaultDevice                   // torch.set_default_device
	effPreload                         // set_forkserver_preload
	effImport                          // imports (and so runs) a local module
	effNVMLCheck                       // os.environ["PYTORCH_NVML_BASED_CUDA_CHECK"] = "1"
	effNVMLRestore                     // the end of a with block that set it
	effOpaqueCall                      // calls code the model cannot see (a callable parameter)
)

// effect is one thing a call does.
type effect struct {
	kind   effectKind
	site   Site
	api    string         // the qualified name, for messages
	entry  *catalog.Entry // effInit, effUse: the catalog row (nil for extra-initializers and CUDA values)
	cond   initCondition  // effInit: when it applies
	fn     *Function      // effCall
	obj    *Object        // effStart, effPendingStart
	once   bool           // effStart: only the first start of obj forks (executors, persistent loaders)
	method MethodSpec     // effSetMethod
	cuda   bool           // effDefaultDevice
	mods   []string       // effPreload
	mod    *Module        // effImport
}

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

func (ev *evaluator) call(c *syntax.Call, sc *Scope) []Value {
	r := ev.resolveCall(c, sc)
	if len(r.values) == 0 {
		return unknown()
	}
	return r.values
}

// resolveCall works out what a call does. It is pure apart from creating the
// call site's Object once and adding targets to Objects (both idempotent), so
// evaluation and summarization can both call it.
func (ev *evaluator) resolveCall(c *syntax.Call, sc *Scope) callResult {
	var r callResult
	m := sc.Module
	site := Site{m, c.Span}
	callees := ev.expr(c.Func, sc)
	attrName := ""
	if a, ok := c.Func.(*syntax.Attribute); ok {
		attrName = a.Attr
	}
	for _, v := range callees {
		switch v.Kind {
		case VFunc:
			if v.Path != "" {
				if e, ok := catalog.Lookup(catalog.Call, v.Path); ok {
					ev.catalogEffect(&r, e, v.Path, c, sc, site)
					continue
				}
			}
			r.effect(effect{kind: effCall, fn: v.Func, site: site})
			v.Func.referenced = true
			r.values = add(r.values, ev.returns(v.Func)...)
			if m.Prog.extra[qualifiedName(v.Func)] {
				r.effect(effect{kind: effInit, api: qualifiedName(v.Func), site: site})
			}
		case VClass:
			ev.instantiate(&r, v.Class, c, sc, site)
		case VPath:
			ev.pathCall(&r, v, attrName, c, sc, site)
		case VObjMethod:
			ev.objectMethod(&r, v.Obj, v.Str, c, sc, site)
		case VContext, VModule, VObject, VStr, VInt, VConst, VList, VDevice:
			// Not callable in a way that matters here.
		default:
			if attrName != "" {
				if e, ok := catalog.Lookup(catalog.Method, "."+attrName); ok {
					ev.catalogEffect(&r, e, "."+attrName+"()", c, sc, site)
					continue
				}
			}
			if v.CUDA {
				r.effect(effect{kind: effUse, api: "a CUDA object", site: site})
				r.value(Value{Kind: VUnknown, CUDA: true})
			}
		}
	}
	ev.argumentEffects(&r, c, sc, site)
	return r
}

// argumentEffects covers what a call does with its arguments: iterating a
// DataLoader passed to it (iter(loader), enumerate(loader), trainer.fit(..., loader))
// starts the loader's workers; passing a CUDA object to a call uses CUDA.
func (ev *evaluator) argumentEffects(r *callResult, c *syntax.Call, sc *Scope, site Site) {
	usesCUDA := false
	iterates := !nonIterating(c.Func, sc)
	for _, a := range c.Args {
		for _, v := range ev.expr(a.Value, sc) {
			if iterates && v.Kind == VObject && v.Obj.Kind == ObjLoader && !isLoaderConstruction(r) {
				v.Obj.Iterated = true
				r.effect(effect{kind: effStart, obj: v.Obj, once: v.Obj.Persistent, site: site})
			}
			if v.CUDA && v.Kind != VDevice && v.Kind != VStr {
				usesCUDA = true
			}
		}
	}
	if usesCUDA {
		r.effect(effect{kind: effUse, api: "a CUDA object passed to a call", site: site})
	}
}

func isLoaderConstruction(r *callResult) bool {
	for _, e := range r.effects {
		if e.kind == effPendingStart {
			return true
		}
	}
	return false
}

// returns evaluates what a local function returns (memoized).
func (ev *evaluator) returns(f *Function) []Value {
	if f.returnsDone {
		return f.returnValues
	}
	if f.returnsBusy {
		return nil
	}
	f.returnsBusy = true
	var out []Value
	if f.Lambda != nil {
		out = ev.expr(f.Lambda.Body, f.Scope)
	} else {
		forEachReturn(f.Def.Body, func(e syntax.Expr) {
			out = add(out, ev.expr(e, f.Scope)...)
		})
	}
	f.returnsBusy = false
	f.returnValues, f.returnsDone = out, true
	return out
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
	if init := ev.method(c, "__init__", 0); init != nil {
		r.effect(effect{kind: effCall, fn: init, site: site})
		init.referenced = true
	}
	for _, base := range ev.basePaths(c, 0) {
		if api, fam, ok := procapi.Lookup(base); ok && api.Kind == procapi.Process {
			obj := site.Mod.object(site, func() *Object {
				o := &Object{Kind: ObjProcess, Site: site, Method: MethodSpec{Family: fam}}
				if run := ev.method(c, "run", 0); run != nil {
					run.referenced = true
					o.Targets = append(o.Targets, Target{Func: run, Site: Site{run.Module, run.NameSpan()}, Desc: c.Name + ".run"})
				} else {
					o.Targets = append(o.Targets, Target{Site: site, Desc: c.Name + ".run"})
				}
				return o
			})
			r.value(Value{Kind: VObject, Obj: obj})
			return
		}
	}
	r.value(Value{Kind: VInstance, Class: c})
}

// pathCall handles a call of a library API.
func (ev *evaluator) pathCall(r *callResult, v Value, attrName string, c *syntax.Call, sc *Scope, site Site) {
	path := v.Path
	if ev.procCall(r, v, c, sc, site) {
		return
	}
	switch path {
	case "functools.partial":
		// partial(f, ...) calls f: keep f's values so it can be a target.
		if len(c.Args) > 0 {
			r.values = add(r.values, ev.expr(c.Args[0].Value, sc)...)
		}
		return
	case "os.environ.setdefault", "os.putenv":
		if nvmlAssignment(c) {
			r.effect(effect{kind: effNVMLCheck, site: site})
		}
	}
	if sc.Module.Prog.extra[path] {
		r.effect(effect{kind: effInit, api: path, site: site})
		r.value(Value{Kind: VPath, Path: path + "()", CUDA: true})
		return
	}
	if e, ok := catalog.Lookup(catalog.Call, path); ok {
		ev.catalogEffect(r, e, path, c, sc, site)
		return
	}
	// A method on an object (a call result), looked up by method name:
	// torch.nn.Linear(2, 2).to("cuda"), model.cuda().
	if attrName != "" && isObjectPath(path) {
		if e, ok := catalog.Lookup(catalog.Method, "."+attrName); ok {
			ev.catalogEffect(r, e, "."+attrName+"()", c, sc, site)
			return
		}
	}
	if v.CUDA {
		r.effect(effect{kind: effUse, api: path, site: site})
	}
	r.value(Value{Kind: VPath, Path: path + "()", CUDA: v.CUDA})
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

// catalogEffect applies a catalog row to a call.
func (ev *evaluator) catalogEffect(r *callResult, e *catalog.Entry, api string, c *syntax.Call, sc *Scope, site Site) {
	switch e.Role {
	case catalog.RoleDevice:
		r.value(Value{Kind: VDevice, CUDA: ev.deviceArgIsCUDA(e.Device, c, sc, true)})
		return
	case catalog.RoleSetDefaultDevice:
		r.effect(effect{kind: effDefaultDevice, cuda: ev.deviceArgIsCUDA(e.Device, c, sc, false), site: site, api: api})
		return
	}
	cond := condAlways
	applies := true
	switch e.When {
	case catalog.DeviceArg:
		applies = ev.deviceArgIsCUDA(e.Device, c, sc, e.Device.DefaultCUDA)
	case catalog.DeviceArgOrDefault:
		if arg := argExpr(c, e.Device.Pos, e.Device.Keyword); arg != nil {
			applies = ev.deviceArgIsCUDA(e.Device, c, sc, false)
		} else {
			cond = condDefaultDevice
		}
	case catalog.UnlessNVMLCheck:
		cond = condNoNVMLCheck
	}
	if !applies || e.Effect == catalog.NoEffect {
		r.value(Value{Kind: VPath, Path: strings.TrimPrefix(api, ".") + "()"})
		return
	}
	kind := effectKindOf(e)
	r.effect(effect{kind: kind, entry: e, api: displayAPI(api, e), cond: cond, site: site})
	r.value(Value{Kind: VPath, Path: strings.TrimPrefix(api, ".") + "()", CUDA: true})
}

func displayAPI(api string, e *catalog.Entry) string {
	if e.Shape == catalog.Method {
		return e.Name + "()"
	}
	return api + "()"
}

// deviceArgIsCUDA reports whether the device argument a row names is a CUDA
// device; missing arguments count as CUDA only when missingIsCUDA.
func (ev *evaluator) deviceArgIsCUDA(ref catalog.ArgRef, c *syntax.Call, sc *Scope, missingIsCUDA bool) bool {
	arg := argExpr(c, ref.Pos, ref.Keyword)
	if arg == nil {
		return missingIsCUDA
	}
	return ev.isCUDADevice(arg, sc)
}

// isCUDADevice reports whether e may evaluate to a CUDA device: "cuda",
// "cuda:1", f"cuda:{rank}", torch.device("cuda"), a device index, a CUDA
// tensor's .device, or a name bound to any of these.
func (ev *evaluator) isCUDADevice(e syntax.Expr, sc *Scope) bool {
	for _, v := range ev.expr(e, sc) {
		switch {
		case v.Kind == VStr:
			if v.Str == "cuda" || strings.HasPrefix(v.Str, "cuda:") || (v.Interp && strings.HasPrefix(v.Str, "cuda")) {
				return true
			}
		case v.Kind == VDevice && v.CUDA:
			return true
		case v.Kind == VInt:
			return true
		case v.CUDA && v.Kind != VStr:
			return true
		}
	}
	return false
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

// object returns the Object created at site, making it with mk the first time.
func (m *Module) object(site Site, mk func() *Object) *Object {
	if o, ok := m.objects[site.Span]; ok {
		return o
	}
	o := mk()
	m.objects[site.Span] = o
	return o
}

// qualifiedName is a local function's dotted name: module name plus
// qualified name ("mylab.gpu.setup", "train.Trainer.fit").
func qualifiedName(f *Function) string {
	return JoinDotted(f.Module.Name, strings.ReplaceAll(f.QualName, ".<locals>", ""))
}

// nonIterating recognises builtins that take an iterable without iterating
// it: len(loader), print(loader), isinstance(loader, ...).
func nonIterating(fn syntax.Expr, sc *Scope) bool {
	n, ok := fn.(*syntax.Name)
	if !ok || len(lookup(n.ID, sc)) > 0 {
		return false
	}
	switch n.ID {
	case "len", "print", "repr", "str", "isinstance", "issubclass", "type", "id", "hash", "bool",
		"getattr", "setattr", "hasattr", "delattr", "vars", "dir", "callable", "format":
		return true
	}
	return false
}

// effectKindOf is the effect a catalog row that touches CUDA has on the
// calling process: an initialization, or a use of an initialized driver.
func effectKindOf(e *catalog.Entry) effectKind {
	if e.Effect.Initializes() {
		return effInit
	}
	return effUse
}
