package model

import (
	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/target"
)

// This file is the model's side of package procapi, the table of process
// APIs: a call of a module-level row makes the call site's Object (a
// process, a pool, an executor, a loader, the pid of os.fork...), records
// when it starts, and follows the code and values handed to its children; a
// call of a method row on such an object does what the row says. Each
// procapi.Kind has its handler here; the rows give the arguments.

// objectKinds pairs each kind of process object with the Kind of the API
// that makes it.
var objectKinds = [...]procapi.Kind{
	ObjProcess:  procapi.Process,
	ObjPool:     procapi.Pool,
	ObjExecutor: procapi.Executor,
	ObjLoader:   procapi.Loader,
	ObjFork:     procapi.Fork,
	ObjManager:  procapi.Manager,
	ObjSpawn:    procapi.Launch,
	ObjChannel:  procapi.Channel,
}

// api is the Kind of the API that makes objects of kind k.
func (k ObjectKind) api() procapi.Kind { return objectKinds[k] }

// objectKindOf is the kind of object an API of kind k makes.
func objectKindOf(k procapi.Kind) (ObjectKind, bool) {
	for o, a := range objectKinds {
		if a == k {
			return ObjectKind(o), true
		}
	}
	return 0, false
}

// procCall handles a call of a module-level process API; it reports
// whether v's path names one.
func (ev *evaluator) procCall(r *callResult, v Value, c *syntax.Call, sc *Scope, site Site) bool {
	api, family, ok := procapi.Lookup(v.Path)
	if !ok {
		return false
	}
	switch api.Kind {
	case procapi.Context:
		r.value(Value{Kind: VContext, Method: ev.methodSpec(argOf(c, api.Method), sc, family)})
	case procapi.SetMethod:
		r.effect(effect{kind: effSetMethod, method: ev.methodSpec(argOf(c, api.Method), sc, family), site: site})
	case procapi.Preload:
		r.effect(effect{kind: effPreload, mods: ev.moduleNames(argOf(c, api.Modules), sc), method: MethodSpec{Family: family}, site: site})
	case procapi.Channel:
		obj := sc.Module.object(site, func() *Object { return &Object{Kind: ObjChannel, Site: site} })
		end := Value{Kind: VObject, Obj: obj}
		if api.Pair {
			r.value(Value{Kind: VList, Elems: []Value{end, end}})
		} else {
			r.value(end)
		}
	default:
		ev.startCall(r, api, family, v, c, sc, site)
	}
	return true
}

// startCall handles a call of an API that starts processes, now or through
// the object it makes.
func (ev *evaluator) startCall(r *callResult, api *procapi.API, family string, v Value, c *syntax.Call, sc *Scope, site Site) {
	if api.Workers.IsSet() {
		if w := argOf(c, api.Workers); w == nil || isZero(ev.expr(w, sc)) {
			r.value(Value{Kind: VPath, Path: v.Path + "()"})
			return
		}
	}
	obj := sc.Module.object(site, func() *Object { return ev.newObject(api, family, v.Method, c, sc, site) })
	switch api.Kind {
	case procapi.Fork, procapi.Pool, procapi.Launch, procapi.Manager:
		r.effect(effect{kind: effStart, obj: obj, site: site})
	case procapi.Loader:
		r.effect(effect{kind: effPendingStart, obj: obj, site: site})
	}
	switch api.Kind {
	case procapi.Launch, procapi.Manager:
		// Returns nothing the model follows.
	default:
		r.value(Value{Kind: VObject, Obj: obj})
	}
}

// newObject builds the Object of a call of api: its start method, and what
// its children run and are handed, from the arguments the row names.
// ctx is the start method of the context the API was reached through
// (ctx.Pool), if any.
func (ev *evaluator) newObject(api *procapi.API, family string, ctx MethodSpec, c *syntax.Call, sc *Scope, site Site) *Object {
	kind, _ := objectKindOf(api.Kind)
	o := &Object{Kind: kind, Site: site, Method: ev.startSpec(api, family, ctx, c, sc)}
	if api.Persistent.IsSet() {
		o.Persistent = isTrue(ev.expr(argOf(c, api.Persistent), sc))
	}
	if api.PinMemory.IsSet() {
		o.PinMemory = isTrue(ev.expr(argOf(c, api.PinMemory), sc))
	}
	if api.Dataset.IsSet() {
		ev.addDataset(o, argOf(c, api.Dataset), sc)
	}
	for _, t := range api.Targets {
		ev.addTarget(o, argOf(c, t), sc)
	}
	for _, a := range api.Args {
		for _, e := range argsOf(c, a) {
			ev.argsCUDA(o, e, sc)
		}
	}
	return o
}

// objectMethod handles a method call on a process object.
func (ev *evaluator) objectMethod(r *callResult, o *Object, name string, c *syntax.Call, sc *Scope, site Site) {
	api, ok := procapi.LookupMethod(o.Kind.api(), name)
	if !ok {
		return
	}
	for _, t := range api.Targets {
		ev.addTarget(o, argOf(c, t), sc)
	}
	for _, a := range api.Args {
		for _, e := range argsOf(c, a) {
			if api.Kind == procapi.Send {
				ev.sendCUDA(o, e, sc)
			} else {
				ev.argsCUDA(o, e, sc)
			}
		}
	}
	switch api.Kind {
	case procapi.Start:
		r.effect(effect{kind: effStart, obj: o, site: site})
	case procapi.StartOnce:
		r.effect(effect{kind: effStart, obj: o, once: true, site: site})
	}
}

// argOf finds the argument a names in a call.
func argOf(c *syntax.Call, a procapi.Arg) syntax.Expr {
	if a.Keyword == "" {
		return nil
	}
	return argExpr(c, a.Pos, a.Keyword)
}

// argsOf finds the arguments a names in a call: one, or with Rest every
// argument from its position on.
func argsOf(c *syntax.Call, a procapi.Arg) []syntax.Expr {
	if a.Rest {
		var out []syntax.Expr
		for _, x := range c.Args[min(a.Pos, len(c.Args)):] {
			out = append(out, x.Value)
		}
		return out
	}
	if e := argOf(c, a); e != nil {
		return []syntax.Expr{e}
	}
	return nil
}

// moduleNames evaluates set_forkserver_preload's list of module names.
func (ev *evaluator) moduleNames(e syntax.Expr, sc *Scope) []string {
	var mods []string
	if e == nil {
		return nil
	}
	for _, lv := range ev.expr(e, sc) {
		if lv.Kind == VList {
			for _, el := range lv.Elems {
				if el.Kind == VStr {
					mods = append(mods, el.Str)
				}
			}
		}
	}
	return mods
}

// sendCUDA marks a channel through which the parent sends CUDA objects.
func (ev *evaluator) sendCUDA(o *Object, e syntax.Expr, sc *Scope) {
	for _, v := range ev.expr(e, sc) {
		if v.CUDA && v.Kind != VStr && v.Kind != VDevice {
			o.CarriesCUDA = true
		}
	}
}

// startSpec is an object's start method: the one its API always uses
// (os.fork, torch's spawn) or the family's current one, as seen through the
// context the API was reached by (ctx.Pool); an argument naming a method or
// a context (Pool's context=, mp_context=) overrides both.
func (ev *evaluator) startSpec(api *procapi.API, family string, ctx MethodSpec, c *syntax.Call, sc *Scope) MethodSpec {
	spec := MethodSpec{Family: family}
	if ctx.Family != "" {
		spec = ctx
	}
	if m, ok := target.ParseStartMethod(api.StartMethod); ok {
		spec = MethodSpec{Family: family, Kind: MethodExplicit, Method: m}
	}
	if e := argOf(c, api.Method); e != nil {
		spec = ev.methodSpec(e, sc, family)
	}
	return spec
}

// addDataset adds the methods of a dataset the loader's workers run
// (__getitem__, __getitems__, __iter__); a dataset the model cannot
// resolve is assumed to stay on the CPU.
func (ev *evaluator) addDataset(o *Object, ds syntax.Expr, sc *Scope) {
	found := false
	if ds != nil {
		for _, v := range ev.expr(ds, sc) {
			if v.Kind != VInstance {
				continue
			}
			for _, name := range []string{"__getitem__", "__getitems__", "__iter__"} {
				if f := ev.method(v.Class, name, 0); f != nil {
					f.referenced = true
					o.Targets = append(o.Targets, Target{Func: f, Site: Site{f.Module, f.NameSpan()}, Desc: v.Class.Name + "." + name})
					found = true
				}
			}
		}
	}
	if !found {
		o.AssumedCPU = true
	}
}

// addTarget resolves a callable handed to a child (target=, pool.map(f),
// executor.submit(f), initializer=) and records it once.
func (ev *evaluator) addTarget(o *Object, e syntax.Expr, sc *Scope) {
	if e == nil {
		return
	}
	site := Site{sc.Module, e.Pos()}
	for _, t := range o.Targets {
		if t.Site == site {
			return
		}
	}
	desc := string(sc.Module.Src[e.Pos().Start:e.Pos().End])
	if len(desc) > 60 {
		desc = desc[:57] + "..."
	}
	added := false
	for _, v := range ev.expr(e, sc) {
		var f *Function
		switch v.Kind {
		case VFunc:
			f = v.Func
		case VInstance:
			f = ev.method(v.Class, "__call__", 0)
		case VConst:
			continue // target=None
		}
		if f != nil {
			f.referenced = true
			o.Targets = append(o.Targets, Target{Func: f, Site: site, Desc: desc})
			added = true
		}
		if v.Kind == VPath {
			if ent, ok := catalog.Lookup(catalog.Call, v.Path); ok && ent.Effect.TouchesCUDA() {
				o.Targets = append(o.Targets, Target{Site: site, Desc: desc, API: v.Path + "()"})
				added = true
			}
		}
	}
	if !added {
		o.Targets = append(o.Targets, Target{Site: site, Desc: desc})
	}
}

// argsCUDA marks o when e (an args tuple, an iterable) carries CUDA objects.
func (ev *evaluator) argsCUDA(o *Object, e syntax.Expr, sc *Scope) {
	if e == nil {
		return
	}
	var walk func(vs []Value, depth int) bool
	walk = func(vs []Value, depth int) bool {
		for _, v := range vs {
			if v.CUDA && v.Kind != VStr && v.Kind != VDevice {
				return true
			}
			if v.Kind == VObject && v.Obj.Kind == ObjChannel && !containsObj(o.Channels, v.Obj) {
				o.Channels = append(o.Channels, v.Obj)
			}
			if v.Kind == VList && depth < 3 && walk(v.Elems, depth+1) {
				return true
			}
		}
		return false
	}
	if walk(ev.expr(e, sc), 0) {
		o.ArgsCUDA = true
	}
}

func isZero(vs []Value) bool {
	for _, v := range vs {
		if !(v.Kind == VInt && v.Int == 0) {
			return false
		}
	}
	return len(vs) > 0
}

func isTrue(vs []Value) bool {
	for _, v := range vs {
		if v.Kind == VConst && v.Int == int(syntax.ConstTrue) {
			return true
		}
	}
	return false
}

func containsObj(list []*Object, o *Object) bool {
	for _, x := range list {
		if x == o {
			return true
		}
	}
	return false
}
