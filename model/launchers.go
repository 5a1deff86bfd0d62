package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// This file is the model's side of the launchers above multiprocessing in
// package procapi: a launcher that forks N children running a function
// (accelerate's notebook_launcher), an object whose run methods start
// processes with the start method a strategy or backend name picks
// (Lightning's Trainer(strategy="ddp_fork"), joblib's
// Parallel(backend="multiprocessing")), a method that maps a function over a
// pool of processes on a receiver of any type (datasets' map(num_proc=4)),
// and local subclasses of a data loader (class MyLoader(DataLoader)).
// The hooks: procCall (procapi.go) hands Launcher and Trainer rows here;
// resolveCall (call.go) asks mapAny about every method call and callObject
// about a call of a process object; instantiate (call.go) asks
// subclassStart about every base of a local class.

// launcherCall handles a call of a Launcher or Trainer row. It reports
// whether it made the call's value: a Trainer whose strategy starts no
// processes the model follows is left to the catalog.
func (ev *evaluator) launcherCall(r *callResult, api *procapi.API, family string, v Value, c *syntax.Call, sc *Scope, site Site) bool {
	switch api.Kind {
	case procapi.Launcher:
		if !ev.startsWorkers(api, c, sc) {
			r.value(Value{Kind: VPath, Path: v.Path + "()"})
			return true
		}
		obj := sc.Module.object(site, func() *Object {
			o := ev.newObject(api, family, v.spec(), c, sc, site)
			o.Kind = ObjSpawn
			return o
		})
		r.effect(effect{kind: effStart, obj: obj, site: site})
		return true
	case procapi.Trainer:
		spec, ok := ev.namedMethod(api, family, c, sc)
		if !ok || api.Workers.IsSet() && !ev.startsWorkers(api, c, sc) {
			// joblib's Parallel(backend="multiprocessing") with one job
			// runs them in the calling process.
			return false
		}
		onCPU := ev.namesCPU(argOf(c, api.Device), sc)
		if onCPU && spec.Kind == MethodExplicit && spec.Method == pytarget.Fork {
			// Forked children that train on the CPU: a benign fork the
			// model cannot show benign (the module's code is the
			// trainer's business), so no start rather than a guess.
			return false
		}
		obj := sc.Module.object(site, func() *Object {
			o := newObject(&Object{Kind: ObjTrainer, Site: site, Method: spec})
			if api.Device.IsSet() && !onCPU {
				at := site
				if d := argOf(c, api.Device); d != nil {
					at = Site{sc.Module, d.Pos()}
				}
				o.Targets = append(o.Targets, Target{Site: at, Desc: v.Path + "()", API: v.Path + "()"})
			}
			return o
		})
		r.value(Value{Kind: VObject, Obj: obj})
		return true
	}
	return false
}

// startsWorkers reports whether a call of a row with a Workers count starts
// processes: the count is present and not a literal from 0 to below
// MinWorkers, or None. A negative count starts them (joblib counts it back
// from the CPUs; elsewhere it is an error), and so does a count the model
// cannot read.
func (ev *evaluator) startsWorkers(api *procapi.API, c *syntax.Call, sc *Scope) bool {
	w := argOf(c, api.Workers)
	if w == nil {
		return false
	}
	least := max(api.MinWorkers, 1)
	vals := ev.expr(w, sc)
	for _, v := range vals {
		switch {
		case v.Kind == VInt && v.Int >= 0 && v.Int < least:
		case v.Kind == VConst && v.Int == int(syntax.ConstNone):
		default:
			return true
		}
	}
	return len(vals) == 0
}

// namedMethod reads a Trainer's Method argument through the row's
// MethodNames: the start method a strategy or backend name picks. It
// reports false for an absent argument, a name that starts no processes the
// model follows, or a value it cannot read.
func (ev *evaluator) namedMethod(api *procapi.API, family string, c *syntax.Call, sc *Scope) (MethodSpec, bool) {
	e := argOf(c, api.Method)
	if e == nil {
		return MethodSpec{}, false
	}
	found, spec := false, MethodSpec{Family: family}
	for _, v := range ev.expr(e, sc) {
		if v.Kind != VStr || v.Interp {
			continue
		}
		name, ok := api.MethodNames[v.Str]
		if !ok {
			continue
		}
		s := MethodSpec{Family: family}
		if m, ok := pytarget.ParseStartMethod(name); ok {
			s = MethodSpec{Family: family, Kind: MethodExplicit, Method: m}
		}
		// Several possible names: keep fork if one of them forks.
		if !found || s.Kind == MethodExplicit && s.Method == pytarget.Fork {
			found, spec = true, s
		}
	}
	return spec, found
}

// namesCPU reports whether a device or accelerator argument names the CPU.
func (ev *evaluator) namesCPU(e syntax.Expr, sc *Scope) bool {
	if e == nil {
		return false
	}
	vals := ev.expr(e, sc)
	for _, v := range vals {
		if v.Kind != VStr || strings.ToLower(v.Str) != "cpu" {
			return false
		}
	}
	return len(vals) > 0
}

// mapAny handles a method call that a MapAny row names, on a receiver of
// any type the model does not know better (a library object or an unknown
// value, not a local function or a process object): with its Workers
// keyword and enough workers, it starts a pool now whose children run the
// row's Targets.
func (ev *evaluator) mapAny(r *callResult, callees []Value, c *syntax.Call, sc *Scope, site Site) {
	a, ok := c.Func.(*syntax.Attribute)
	if !ok {
		return
	}
	api, ok := procapi.LookupAny(a.Attr)
	if !ok || argExpr(c, -1, api.Workers.Keyword) == nil {
		return
	}
	for _, v := range callees {
		switch v.Kind {
		case VFunc, VObjMethod, VClass:
			return // a local method, or a process object's own map
		}
	}
	if !ev.startsWorkers(api, c, sc) {
		return
	}
	obj := sc.Module.object(site, func() *Object {
		o := ev.newObject(api, api.Family, MethodSpec{}, c, sc, site)
		o.Kind = ObjPool
		return o
	})
	r.effect(effect{kind: effStart, obj: obj, site: site})
}

// callObject handles calling a process object (joblib's
// Parallel(...)(delayed(f)(x) for x in xs)): the object's "__call__" row,
// and the functions the call's iterable wraps in joblib.delayed as what the
// children run.
func (ev *evaluator) callObject(r *callResult, o *Object, c *syntax.Call, sc *Scope, site Site) {
	if _, ok := procapi.LookupMethod(o.Kind.api(), "__call__"); !ok {
		return
	}
	for _, a := range c.Args {
		for _, f := range ev.delayedFuncs(a.Value, sc) {
			ev.addTarget(o, f, sc, unknownArgs)
		}
	}
	ev.objectMethod(r, o, "__call__", c, sc, site)
}

// delayedFuncs finds the f of each joblib.delayed(f)(...) in an iterable
// written as a comprehension or a list or tuple display.
func (ev *evaluator) delayedFuncs(e syntax.Expr, sc *Scope) []syntax.Expr {
	var elts []syntax.Expr
	switch e := e.(type) {
	case *syntax.Comprehension:
		elts = []syntax.Expr{e.Elt}
	case *syntax.Sequence:
		elts = e.Elts
	}
	var out []syntax.Expr
	for _, el := range elts {
		outer, ok := el.(*syntax.Call)
		if !ok {
			continue
		}
		inner, ok := outer.Func.(*syntax.Call)
		if !ok || len(inner.Args) == 0 {
			continue
		}
		for _, v := range ev.expr(inner.Func, sc) {
			if v.Kind == VPath && (v.Path == "joblib.delayed" || v.Path == "joblib.parallel.delayed") {
				out = append(out, inner.Args[0].Value)
				break
			}
		}
	}
	return out
}

// subclassStart handles instantiating a local class one of whose bases
// (base, a qualified name) is a Loader row: a class MyLoader(DataLoader)
// whose instances fork workers when iterated. It reports whether it made the
// call's value.
func (ev *evaluator) subclassStart(r *callResult, c *Class, base string, call *syntax.Call, sc *Scope, site Site) bool {
	api, family, ok := procapi.Lookup(base)
	if !ok || api.Kind != procapi.Loader {
		return false
	}
	view := *api
	init := ev.method(c, "__init__", 0)
	if init != nil {
		// The subclass has a signature of its own: read the loader's
		// arguments by keyword, and the dataset first, as subclasses
		// nearly always take it.
		view = keywordsOnly(api)
	}
	if !ev.startsWorkers(&view, call, sc) && !(argOf(call, view.Workers) == nil && defaultWorkers(init, view.Workers.Keyword)) {
		return false
	}
	obj := site.Mod.object(site, func() *Object {
		o := ev.newObject(&view, family, MethodSpec{}, call, sc, site)
		o.Kind = ObjLoader
		return o
	})
	r.effect(effect{kind: effPendingStart, obj: obj, site: site})
	r.value(Value{Kind: VObject, Obj: obj})
	return true
}

// keywordsOnly is a copy of a loader row that reads every argument by
// keyword only, but the dataset, which stays first.
func keywordsOnly(api *procapi.API) procapi.API {
	kw := func(a procapi.Arg) procapi.Arg {
		if a.IsSet() && !a.Rest {
			a.Pos = -1
		}
		return a
	}
	v := *api
	v.Method, v.Workers, v.Persistent, v.PinMemory = kw(v.Method), kw(v.Workers), kw(v.Persistent), kw(v.PinMemory)
	v.Targets = nil
	for _, t := range api.Targets {
		v.Targets = append(v.Targets, kw(t))
	}
	v.Args = nil
	for _, a := range api.Args {
		v.Args = append(v.Args, kw(a))
	}
	if v.Dataset.IsSet() {
		v.Dataset = procapi.Arg{Pos: 0, Keyword: v.Dataset.Keyword}
	}
	return v
}

// defaultWorkers reports whether a subclass's __init__ starts workers when
// the caller passes no count: its own parameter of that name defaults to a
// positive literal, or it hands a positive literal to super().__init__.
func defaultWorkers(init *Function, keyword string) bool {
	if init == nil || init.Def == nil {
		return false
	}
	for _, p := range init.Def.Params {
		if p.Name == keyword {
			return positiveLiteral(p.Default)
		}
	}
	found := false
	for _, st := range init.Def.Body() {
		syntax.Inspect(st, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.Call); ok && !found {
				if a, ok := c.Func.(*syntax.Attribute); ok && a.Attr == "__init__" {
					e := argExpr(c, -1, keyword)
					found = e != nil && positiveLiteral(e)
				}
			}
			return !found
		})
	}
	return found
}

func positiveLiteral(e syntax.Expr) bool {
	n, ok := e.(*syntax.Number)
	if !ok {
		return false
	}
	i, ok := parseInt(n.Text)
	return ok && i > 0
}
