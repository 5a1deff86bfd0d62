package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/target"
)

// This file is the model's one table of process-starting APIs:
// multiprocessing (and torch.multiprocessing, which re-exports it and shares
// its global context), the dill-based `multiprocess` package (its own global
// context), concurrent.futures.ProcessPoolExecutor, os.fork and friends,
// torch.multiprocessing.spawn/start_processes, and torch's DataLoader.
// Thread pools (multiprocessing.pool.ThreadPool, multiprocessing.dummy,
// ThreadPoolExecutor) and exec-based starts (subprocess, os.posix_spawn) are
// deliberately absent: they never fork a Python process that keeps running.

// mpFamily splits a multiprocessing path into its family and the rest:
// "torch.multiprocessing.Pool" → ("multiprocessing", "Pool").
func mpFamily(path string) (family, rest string, ok bool) {
	for _, p := range []struct{ prefix, family string }{
		{"torch.multiprocessing.", "multiprocessing"},
		{"multiprocessing.", "multiprocessing"},
		{"multiprocess.", "multiprocess"},
	} {
		if strings.HasPrefix(path, p.prefix) {
			return p.family, path[len(p.prefix):], true
		}
	}
	return "", "", false
}

// mpCall handles calls of process APIs; it reports whether path was one.
func (ev *evaluator) mpCall(r *callResult, v Value, c *syntax.Call, sc *Scope, site Site) bool {
	path := v.Path
	m := sc.Module
	switch path {
	case "os.fork", "os.forkpty", "pty.fork":
		obj := m.object(site, func() *Object {
			return &Object{Kind: ObjFork, Site: site, Method: MethodSpec{Kind: MethodExplicit, Method: target.Fork}}
		})
		r.effect(effect{kind: effStart, obj: obj, site: site})
		r.value(Value{Kind: VObject, Obj: obj})
		return true
	case "concurrent.futures.ProcessPoolExecutor", "concurrent.futures.process.ProcessPoolExecutor":
		obj := m.object(site, func() *Object {
			o := &Object{Kind: ObjExecutor, Site: site,
				Method: ev.methodSpec(argExpr(c, 1, "mp_context"), sc, "multiprocessing")}
			ev.addTarget(o, argExpr(c, 2, "initializer"), sc)
			return o
		})
		r.value(Value{Kind: VObject, Obj: obj})
		return true
	case "torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader", "torch_geometric.loader.DataLoader":
		workers := argExpr(c, 5, "num_workers")
		if path == "torch_geometric.loader.DataLoader" {
			workers = argExpr(c, -1, "num_workers")
		}
		if workers == nil || isZero(ev.expr(workers, sc)) {
			r.value(Value{Kind: VPath, Path: path + "()"})
			return true
		}
		obj := m.object(site, func() *Object { return ev.newLoader(c, sc, site) })
		r.effect(effect{kind: effPendingStart, obj: obj, site: site})
		r.value(Value{Kind: VObject, Obj: obj})
		return true
	case "torch.multiprocessing.spawn", "torch.multiprocessing.start_processes":
		obj := m.object(site, func() *Object {
			o := &Object{Kind: ObjSpawn, Site: site, Method: MethodSpec{Family: "multiprocessing", Kind: MethodExplicit, Method: target.Spawn}}
			if e := argExpr(c, 5, "start_method"); e != nil {
				o.Method = ev.methodSpec(e, sc, "multiprocessing")
			}
			ev.addTarget(o, argExpr(c, 0, "fn"), sc)
			ev.argsCUDA(o, argExpr(c, 1, "args"), sc)
			return o
		})
		r.effect(effect{kind: effStart, obj: obj, site: site})
		return true
	}
	family, rest, ok := mpFamily(path)
	if !ok {
		return false
	}
	spec := v.Method
	if spec.Family == "" {
		spec = MethodSpec{Family: family}
	}
	switch rest {
	case "get_context":
		r.value(Value{Kind: VContext, Method: ev.methodSpec(argExpr(c, 0, "method"), sc, family)})
	case "set_start_method":
		r.effect(effect{kind: effSetMethod, method: ev.methodSpec(argExpr(c, 0, "method"), sc, family), site: site})
	case "set_forkserver_preload", "forkserver.set_forkserver_preload":
		var mods []string
		if e := argExpr(c, 0, "module_names"); e != nil {
			for _, lv := range ev.expr(e, sc) {
				if lv.Kind == VList {
					for _, el := range lv.Elems {
						if el.Kind == VStr {
							mods = append(mods, el.Str)
						}
					}
				}
			}
		}
		r.effect(effect{kind: effPreload, mods: mods, method: MethodSpec{Family: family}, site: site})
	case "Process", "context.Process":
		obj := m.object(site, func() *Object {
			o := &Object{Kind: ObjProcess, Site: site, Method: spec}
			ev.addTarget(o, argExpr(c, 1, "target"), sc)
			ev.argsCUDA(o, argExpr(c, 3, "args"), sc)
			ev.argsCUDA(o, argExpr(c, 4, "kwargs"), sc)
			return o
		})
		r.value(Value{Kind: VObject, Obj: obj})
	case "Pool", "pool.Pool":
		obj := m.object(site, func() *Object {
			o := &Object{Kind: ObjPool, Site: site, Method: spec}
			if ctx := argExpr(c, 4, "context"); ctx != nil {
				o.Method = ev.methodSpec(ctx, sc, family)
			}
			ev.addTarget(o, argExpr(c, 1, "initializer"), sc)
			ev.argsCUDA(o, argExpr(c, 2, "initargs"), sc)
			return o
		})
		r.effect(effect{kind: effStart, obj: obj, site: site})
		r.value(Value{Kind: VObject, Obj: obj})
	case "Queue", "SimpleQueue", "JoinableQueue", "queues.Queue", "queues.SimpleQueue", "queues.JoinableQueue":
		obj := m.object(site, func() *Object { return &Object{Kind: ObjChannel, Site: site} })
		r.value(Value{Kind: VObject, Obj: obj})
	case "Pipe":
		obj := m.object(site, func() *Object { return &Object{Kind: ObjChannel, Site: site} })
		end := Value{Kind: VObject, Obj: obj}
		r.value(Value{Kind: VList, Elems: []Value{end, end}})
	case "Manager", "managers.SyncManager().start":
		obj := m.object(site, func() *Object { return &Object{Kind: ObjManager, Site: site, Method: spec} })
		r.effect(effect{kind: effStart, obj: obj, site: site})
	default:
		return false
	}
	return true
}

// objectMethod handles a method call on a process object.
func (ev *evaluator) objectMethod(r *callResult, o *Object, name string, c *syntax.Call, sc *Scope, site Site) {
	switch o.Kind {
	case ObjProcess:
		if name == "start" {
			r.effect(effect{kind: effStart, obj: o, site: site})
		}
	case ObjPool:
		switch name {
		case "map", "imap", "imap_unordered", "starmap", "apply", "apply_async", "map_async", "starmap_async":
			ev.addTarget(o, argExpr(c, 0, "func"), sc)
			ev.argsCUDA(o, argExpr(c, 1, "iterable"), sc)
			ev.argsCUDA(o, argExpr(c, 1, "args"), sc)
		}
	case ObjChannel:
		switch name {
		case "put", "put_nowait", "send":
			if e := argExpr(c, 0, "obj"); e != nil {
				for _, v := range ev.expr(e, sc) {
					if v.CUDA && v.Kind != VStr && v.Kind != VDevice {
						o.CarriesCUDA = true
					}
				}
			}
		}
	case ObjExecutor:
		switch name {
		case "submit", "map":
			ev.addTarget(o, argExpr(c, 0, "fn"), sc)
			for _, a := range c.Args[min(1, len(c.Args)):] {
				ev.argsCUDA(o, a.Value, sc)
			}
			r.effect(effect{kind: effStart, obj: o, once: true, site: site})
		}
	}
}

// newLoader builds the Object for a DataLoader with workers.
func (ev *evaluator) newLoader(c *syntax.Call, sc *Scope, site Site) *Object {
	o := &Object{Kind: ObjLoader, Site: site,
		Method: ev.methodSpec(argExpr(c, 11, "multiprocessing_context"), sc, "multiprocessing")}
	o.Persistent = isTrue(ev.expr(argExpr(c, -1, "persistent_workers"), sc))
	o.PinMemory = isTrue(ev.expr(argExpr(c, 7, "pin_memory"), sc))
	found := false
	if ds := argExpr(c, 0, "dataset"); ds != nil {
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
	for _, fn := range []struct {
		pos int
		kw  string
	}{{6, "collate_fn"}, {10, "worker_init_fn"}} {
		if e := argExpr(c, fn.pos, fn.kw); e != nil {
			ev.addTarget(o, e, sc)
		}
	}
	return o
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

// methodSpec evaluates a start-method argument: a string, a context, None.
func (ev *evaluator) methodSpec(e syntax.Expr, sc *Scope, family string) MethodSpec {
	spec := MethodSpec{Family: family}
	if e == nil {
		return spec
	}
	vals := ev.expr(e, sc)
	found := false
	for _, v := range vals {
		var s MethodSpec
		switch v.Kind {
		case VStr:
			meth, ok := target.ParseStartMethod(v.Str)
			if !ok || v.Interp {
				continue
			}
			s = MethodSpec{Family: family, Kind: MethodExplicit, Method: meth}
			if lit, ok := e.(*syntax.String); ok {
				s.Lit = Site{sc.Module, lit.Span}
			}
		case VContext:
			s = v.Method
		case VConst:
			continue
		default:
			continue
		}
		// Several possible methods: keep fork if it is one of them, since that
		// is the one that can break.
		if !found || (s.Kind == MethodExplicit && s.Method == target.Fork) {
			spec, found = s, true
		}
	}
	if !found {
		for _, v := range vals {
			if v.Kind != VConst {
				spec.Kind = MethodUnknown
			}
		}
	}
	return spec
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
