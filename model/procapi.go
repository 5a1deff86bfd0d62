package model

import (
	"slices"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
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
	ObjTrainer:  procapi.Trainer,
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
	c = ev.withUnpackedKwargs(c, sc)
	switch api.Kind {
	case procapi.Context:
		spec := ev.methodSpec(argOf(c, api.Method), sc, family)
		r.value(Value{Kind: VContext, Method: &spec})
	case procapi.SetMethod:
		r.effect(effect{kind: effSetMethod, site: site, ifUnset: !ev.forced(argOf(c, api.Force), sc)}.with(effectMore{method: ev.methodSpec(argOf(c, api.Method), sc, family)}))
	case procapi.Preload:
		r.effect(effect{kind: effPreload, site: site}.with(effectMore{mods: ev.moduleNames(argOf(c, api.Modules), sc), method: MethodSpec{Family: family}}))
	case procapi.Launcher, procapi.Trainer:
		return ev.launcherCall(r, api, family, v, c, sc, site) // launchers.go
	case procapi.Channel:
		obj := ev.object(site, func() *Object { return newObject(&Object{Kind: ObjChannel, Site: site}) })
		end := Value{Kind: VObject, Obj: obj}
		if api.Pair {
			r.value(listOf(end, end))
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
	workersFlag, workersSeen := "", false
	if api.Workers.IsSet() {
		w := argOf(c, api.Workers)
		if w == nil {
			r.value(Value{Kind: VPath, Path: v.Path + "()"})
			return
		}
		n := ev.expr(w, sc)
		if isZero(n) {
			r.value(Value{Kind: VPath, Path: v.Path + "()"})
			return
		}
		workersFlag, _ = optionFlag(n, 0)
		least := max(api.MinWorkers, 1)
		workersSeen = len(n) > 0 && !slices.ContainsFunc(n, func(v Value) bool { return v.Kind != VInt || v.Int < least })
	}
	obj := ev.object(site, func() *Object {
		o := ev.newObject(api, family, v.spec(), c, sc, site)
		o.WorkersFlag = workersFlag
		o.WorkersSeen = workersSeen && workersFlag == ""
		return o
	})
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
	o := newObject(&Object{Kind: kind, Site: site, Method: ev.startSpec(api, family, ctx, c, sc)})
	if api.Workers.IsSet() {
		o.NoWorkersWithCUDA = ev.noWorkersWithCUDA(api, c, sc)
	}
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
		args := func() argList { return ev.handed(api.Args, c, sc) }
		if api.Kind == procapi.Loader && t.Keyword == "collate_fn" {
			args = func() argList { return loaderBatch(o) }
		}
		ev.addTarget(o, argOf(c, t), sc, args)
	}
	for _, a := range api.Args {
		for _, e := range argsOf(c, a) {
			ev.handedValues(o, e, sc)
		}
	}
	return o
}

// loaderBatch is what a loader's collate_fn is handed: a list of the
// samples its dataset gives, which live where the dataset's data do. A
// dataset on the CPU, or one the model could not see (assumed CPU-only, as
// the message says), gives CPU samples; CUDA code in the dataset's own
// methods is found in them, not here. For a dataset that may hold CUDA
// data, the samples stay unknown.
func loaderBatch(o *Object) argList {
	if o.ArgsDev > DevCPU {
		return argList{}
	}
	sample := Value{Kind: VUnknown, Dev: DevCPU}
	return argList{pos: [][]Value{{listOf(sample)}}, complete: true}
}

// objectMethod handles a method call on a process object.
func (ev *evaluator) objectMethod(r *callResult, o *Object, name string, c *syntax.Call, sc *Scope, site Site) {
	api, ok := procapi.LookupMethod(o.Kind.api(), name)
	if !ok {
		return
	}
	for _, t := range api.Targets {
		ev.addTarget(o, argOf(c, t), sc, func() argList { return ev.handed(api.Args, c, sc) })
	}
	for _, a := range api.Args {
		for _, e := range argsOf(c, a) {
			if api.Kind == procapi.Send {
				ev.sendCUDA(o, e, sc)
			} else {
				ev.handedValues(o, e, sc)
			}
		}
	}
	switch api.Kind {
	case procapi.Start:
		r.effect(effect{kind: effStart, obj: o, site: site})
	case procapi.StartOnce:
		r.effect(effect{kind: effStart, obj: o, once: true, site: site})
	case procapi.Chain:
		// A pipeline over the same loader: iterating it starts the
		// loader's workers (and a persistent loader's only once).
		r.value(Value{Kind: VObject, Obj: o})
	}
}

// forced reports whether a set_start_method call may replace a method
// chosen before: its force argument is true, or could not be evaluated.
// Without force, a second call raises RuntimeError and the first method
// stays: a library's `try: mp.set_start_method("spawn") except
// RuntimeError: ...` at import keeps the "fork" the script chose before
// importing it.
func (ev *evaluator) forced(e syntax.Expr, sc *Scope) bool {
	if e == nil {
		return false
	}
	v, known := ev.truth(e, sc)
	return v || !known
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
			for _, el := range lv.elems() {
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
		if held(v) == DevCUDA {
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
	if m, ok := pytarget.ParseStartMethod(api.StartMethod); ok {
		spec = MethodSpec{Family: family, Kind: MethodExplicit, Method: m}
	}
	if e := argOf(c, api.Method); e != nil {
		spec = ev.methodSpec(e, sc, family)
	}
	return spec
}

// addDataset adds the methods of a dataset the loader's workers run
// (__getitem__, __getitems__, __iter__), with self bound to the dataset the
// parent made (its attributes are what its constructor stored). A dataset
// that is itself CUDA data (a TensorDataset of CUDA tensors, a list of them)
// is handed to the workers, which index it. A dataset the model cannot
// resolve is assumed to stay on the CPU.
func (ev *evaluator) addDataset(o *Object, ds syntax.Expr, sc *Scope) {
	found := false
	if ds != nil {
		vals := ev.expr(ds, sc)
		if d := heldDeep(vals, 0); d > o.ArgsDev {
			o.ArgsDev, o.ArgsSite = d, Site{sc.Module, ds.Pos()}
			found = found || d != DevNone
		}
		for _, v := range vals {
			if v.Kind != VInstance {
				continue
			}
			for _, name := range []string{"__getitem__", "__getitems__", "__iter__"} {
				if f := ev.method(v.Class, name, 0); f != nil {
					f.referenced = true
					ctx := ev.contextFor(Value{Kind: VFunc, Func: f, Self: v.Class, Env: v.Env}, argList{})
					o.Targets = append(o.Targets, Target{Func: f, Site: Site{f.Module, f.NameSpan()}, Desc: v.Class.Name + "." + name, Ctx: ctx})
					found = true
				}
			}
		}
	}
	if !found {
		o.AssumedCPU = true
	}
}

// handed is what a call hands its targets' code, as the Binds of the row's
// Args say; incomplete when the row says nothing about it.
func (ev *evaluator) handed(args []procapi.Arg, c *syntax.Call, sc *Scope) argList {
	l := argList{complete: true}
	known := false
	for _, a := range args {
		if a.Binds == procapi.BindsAfterIndex {
			l.pos = append(l.pos, []Value{{Kind: VUnknown}}) // the process index
		}
	}
	for _, a := range args {
		if a.Binds == procapi.BindsNothing {
			continue
		}
		known = true
		if a.Rest {
			rest := &syntax.Call{Func: c.Func, Args: c.Args[min(a.Pos, len(c.Args)):]}
			switch a.Binds {
			case procapi.BindsRest:
				r := ev.callArgs(rest, sc)
				l.pos, l.kw, l.complete = append(l.pos, r.pos...), append(l.kw, r.kw...), l.complete && r.complete
			case procapi.BindsZip:
				for _, x := range rest.Args {
					if x.Keyword != "" || x.Star != 0 {
						l.complete = false
						break
					}
					l.pos = append(l.pos, elemsOrUnknown(iterElems(ev.expr(x.Value, sc))))
				}
			}
			continue
		}
		e := argOf(c, a)
		if e == nil {
			continue
		}
		vals := ev.expr(e, sc)
		switch a.Binds {
		case procapi.BindsArgs, procapi.BindsAfterIndex:
			cols, ok := columns(vals)
			l.pos = append(l.pos, cols...)
			l.complete = l.complete && ok
		case procapi.BindsKwargs:
			if len(vals) == 1 && vals[0].Kind == VDict && !slicesContain(vals[0].keys(), "") {
				for i, k := range vals[0].keys() {
					l.kw = append(l.kw, kwArg{k, []Value{vals[0].elems()[i]}})
				}
			} else {
				l.complete = false
			}
		case procapi.BindsEach:
			l.pos = append(l.pos, elemsOrUnknown(iterElems(vals)))
		case procapi.BindsEachArgs:
			cols, ok := columns(iterElems(vals))
			l.pos = append(l.pos, cols...)
			l.complete = l.complete && ok && len(cols) > 0
		}
	}
	l.complete = l.complete && known
	return l
}

// columns is what each position of an argument tuple can hold, given the
// tuples (lists) it may be: one branch's `args = [f, q]`, another's
// `args = [g, q]`, or the rows of a starmap's iterable. It is complete when
// every value is a tuple and all have one length; otherwise a position may
// hold what the model did not see.
func columns(tuples []Value) (cols [][]Value, complete bool) {
	complete = len(tuples) > 0
	for _, t := range tuples {
		if t.Kind != VList {
			complete = false
			continue
		}
		if len(cols) > 0 && len(t.elems()) != len(cols) {
			complete = false
		}
		for i, x := range t.elems() {
			if i == len(cols) {
				cols = append(cols, nil)
			}
			cols[i] = add(cols[i], x)
		}
	}
	return cols, complete
}

func elemsOrUnknown(vs []Value) []Value {
	if len(vs) == 0 {
		return unknown()
	}
	return vs
}

// hostBuiltins are the builtin functions a child may run that run none of
// the program's code and touch no GPU unless handed GPU objects: not eval,
// exec, compile, __import__, getattr and the like, which may run any.
var hostBuiltins = map[string]bool{
	"abs": true, "all": true, "any": true, "ascii": true, "bin": true, "bool": true,
	"bytes": true, "callable": true, "chr": true, "dict": true, "divmod": true, "enumerate": true,
	"float": true, "format": true, "frozenset": true, "hash": true, "hex": true, "id": true,
	"int": true, "isinstance": true, "len": true, "list": true, "max": true, "min": true,
	"oct": true, "ord": true, "pow": true, "print": true, "range": true, "repr": true,
	"reversed": true, "round": true, "set": true, "sorted": true, "str": true, "sum": true,
	"tuple": true, "type": true, "zip": true,
}

// addTarget resolves a callable handed to a child (target=, pool.map(f),
// executor.submit(f), initializer=) and records it once, in the context of
// what the child is handed (args, made on demand).
func (ev *evaluator) addTarget(o *Object, e syntax.Expr, sc *Scope, args func() argList) {
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
	if n, ok := e.(*syntax.Name); ok && hostBuiltins[n.ID] && len(lookup(n.ID, sc)) == 0 {
		o.Targets = append(o.Targets, Target{Site: site, Desc: desc, Builtin: true})
		return
	}
	added := false
	var handed *argList
	for _, v := range ev.expr(e, sc) {
		if v.Kind == VConst {
			continue // target=None
		}
		if fv, ok := ev.callTarget(v); ok {
			f := fv.Func
			f.referenced = true
			if handed == nil {
				l := args()
				handed = &l
			}
			var ctx *callContext
			if fv.Path == "" {
				ctx = ev.contextFor(fv, *handed)
			}
			o.Targets = append(o.Targets, Target{Func: f, Site: site, Desc: desc, Ctx: ctx})
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

// handedValues records where the objects e (an args tuple, an iterable) hands
// to o's children live, and the channels among them.
func (ev *evaluator) handedValues(o *Object, e syntax.Expr, sc *Scope) {
	if e == nil {
		return
	}
	var walk func(vs []Value, depth int)
	walk = func(vs []Value, depth int) {
		for _, v := range vs {
			if d := held(v); d > o.ArgsDev {
				o.ArgsDev, o.ArgsSite = d, Site{sc.Module, e.Pos()}
			}
			if v.Kind == VObject && v.Obj.Kind == ObjChannel && !containsObj(o.Channels, v.Obj) {
				o.Channels = append(o.Channels, v.Obj)
			}
			if (v.Kind == VList || v.Kind == VDict) && depth < 3 {
				walk(v.elems(), depth+1)
			}
		}
	}
	walk(ev.expr(e, sc), 0)
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
