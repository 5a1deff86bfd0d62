package model

import (
	"maps"
	"slices"
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// A DataLoader's workers start when the loader is iterated, not when it is
// made or wrapped (procapi's Loader rows), and again at each iteration unless
// it keeps them (persistent_workers=True). This file says what iterates a
// loader:
//
//   - a for loop or a comprehension over it, `yield from` it;
//   - a builtin or itertools function that calls iter() on its arguments at
//     once: iter(), enumerate(), zip(), list(), sorted()... (iterators);
//   - a library call known to iterate the loaders it is handed, a Lightning
//     Trainer's fit (loaderCalls), or one that may and whose result the
//     program drops;
//   - a library method known to iterate the loaders its object was made
//     with: composer's trainer.fit() after Trainer(train_dataloader=loader)
//     (loaderCalls' kept);
//   - a local function it is passed to that iterates the parameter: the
//     summary of a function records the iteration of its parameters, and each
//     call records which loaders it hands to which parameter (effCall's
//     binds), which the simulation resolves;
//
// and what hands a loader on to be iterated later: a wrapper whose
// iteration iterates it (tqdm(loader), a local class built from it, a
// library call the model does not know), accelerate's prepare and Fabric's
// setup_dataloaders, which return their arguments, and a local function that
// returns its parameter.
//
// A start follows the loader's value: only an iterated value that is a
// loader starts workers. Walking a list or dict of loaders hands them out
// and starts nothing (each starts where it is iterated in turn), nor does
// reading loader.dataset, and a loader that flows nowhere iterated starts
// nothing. Where the model cannot follow the loader, a library call that
// may iterate it or a container the model does not keep (escape), the
// start is assumed and marked unseen (StartRecord.IterationUnseen): the
// policy makes it a warning at most, never an error.

// loaderSrc is what an iteration iterates: loaders known where the summary
// is built, and parameters of the summarized function (bound by each call).
type loaderSrc struct {
	objs   []*Object
	params []string
	// sure: every value the iterated expression may have is one of objs
	// (not a parameter's, nor something else), so that the iteration
	// certainly iterates one of them.
	sure bool
}

func (s *loaderSrc) empty() bool { return len(s.objs) == 0 && len(s.params) == 0 }

func (s *loaderSrc) addObj(o *Object) {
	if !containsObj(s.objs, o) {
		s.objs = append(s.objs, o)
	}
}

func (s *loaderSrc) addParam(p string) {
	for _, q := range s.params {
		if q == p {
			return
		}
	}
	s.params = append(s.params, p)
}

// paramLoaders is one parameter of a called function and the loaders a call
// hands to it.
type paramLoaders struct {
	param string
	src   loaderSrc
}

// loaderUse is what a call does with the DataLoaders handed to it.
type loaderUse uint8

const (
	useIgnores  loaderUse = iota // len(loader), print(loader), DataLoader-unrelated APIs
	useIterates                  // iterates them now: iter(), enumerate(), trainer.fit()
	useReturns                   // returns them, in argument order: accelerator.prepare()
	useWraps                     // returns something that iterates them when iterated: tqdm(), a wrapper class, an unknown library call
	useLocal                     // a local function: what it does is in its summary
)

// iterators are the builtins and itertools functions that call iter() on
// their arguments when they are called (CPython: each constructor takes
// iter(arg) at once), so that the loaders among them start there; their
// result is an iterator over those, not a loader to iterate again. `next` is
// not one: a DataLoader is not an iterator.
var iterators = map[string]bool{
	"iter": true, "enumerate": true, "zip": true, "map": true, "filter": true, "list": true,
	"tuple": true, "sorted": true, "set": true, "frozenset": true, "dict": true, "sum": true,
	"min": true, "max": true, "any": true, "all": true,
	"itertools.islice": true, "itertools.cycle": true, "itertools.zip_longest": true,
	"itertools.tee": true, "itertools.starmap": true, "itertools.product": true,
	"itertools.accumulate": true, "itertools.groupby": true, "itertools.dropwhile": true,
	"itertools.takewhile": true, "itertools.compress": true, "itertools.pairwise": true,
	"itertools.batched": true,
}

// builtins are Python's other builtin functions: none of them iterates a
// loader or returns one to iterate (len(loader), print(loader)).
var builtins = map[string]bool{
	"abs": true, "aiter": true, "anext": true, "ascii": true, "bin": true, "bool": true,
	"breakpoint": true, "bytearray": true, "bytes": true, "callable": true, "chr": true,
	"classmethod": true, "compile": true, "complex": true, "delattr": true, "dir": true,
	"divmod": true, "eval": true, "exec": true, "float": true, "format": true, "getattr": true,
	"globals": true, "hasattr": true, "hash": true, "help": true, "hex": true, "id": true,
	"input": true, "int": true, "isinstance": true, "issubclass": true, "len": true,
	"locals": true, "memoryview": true, "next": true, "object": true, "oct": true, "open": true,
	"ord": true, "pow": true, "print": true, "property": true, "range": true, "repr": true,
	"reversed": true, "round": true, "setattr": true, "slice": true, "staticmethod": true,
	"str": true, "super": true, "type": true, "vars": true, "__import__": true,
}

// loaderCall is a library call known to take DataLoaders.
type loaderCall struct {
	use loaderUse
	// Names are qualified function names; Methods are method names,
	// matched on any receiver that is not local code (the receiver of
	// trainer.fit is rarely resolvable: self.trainer, a factory's result).
	// Matching by method name alone is safe because only the loaders among
	// the arguments are affected.
	names, methods []string
	// hooks are methods of a local object passed to the call (a Lightning
	// module or data module) whose returned loaders the call iterates.
	hooks []loaderHook
	// kept are the arguments of the receiver's constructor whose loaders a
	// method iterates (composer's trainer.fit() iterates the
	// train_dataloader and eval_dataloader of Trainer(...)). The
	// constructor is the part of each of names before "().": the
	// receiver is followed to a call of it through the names it is
	// assigned to (callOf).
	kept     []keptLoader
	evidence string
}

// loaderHook is a method whose returned loaders a call iterates, unless
// the call is handed loaders of that kind itself (the argument at Pos or
// Keyword).
type loaderHook struct {
	method  string
	pos     int
	keyword string
}

// keptLoader is an argument of a constructor whose loaders a method of the
// object it makes iterates, unless the method is handed loaders of that
// kind itself (its argument at pos or keyword).
type keptLoader struct {
	ctorKeyword string
	pos         int
	keyword     string
}

// loaderCalls is the table of library calls that iterate DataLoaders or
// return them to be iterated: the one place to add a trainer or a launcher
// that takes loaders. (HF transformers' Trainer builds its own DataLoader
// from its dataset and TrainingArguments.dataloader_num_workers: that is a
// loader the model does not make yet.)
var loaderCalls = []loaderCall{
	{use: useReturns, methods: []string{"prepare"}, names: []string{"accelerate.data_loader.prepare_data_loader"},
		evidence: "https://huggingface.co/docs/accelerate/package_reference/accelerator#accelerate.Accelerator.prepare " +
			"(returns the prepared objects in the order they were passed; a DataLoader becomes a DataLoaderShard that iterates it)"},
	{use: useReturns, methods: []string{"setup_dataloaders"},
		evidence: "https://lightning.ai/docs/fabric/stable/api/fabric_methods.html#setup-dataloaders " +
			"(returns the wrapped dataloaders, one per argument; the workers start when they are iterated)"},
	{use: useReturns, names: []string{"lightning.Fabric().setup", "lightning.Fabric().setup_module"},
		evidence: "https://lightning.ai/docs/fabric/stable/api/fabric_methods.html#setup " +
			"(returns the module, and the optimizers, wrapped in order; the wrapper forwards attribute access to the module)"},
	{use: useIterates, methods: []string{"fit"},
		hooks: []loaderHook{{"train_dataloader", 1, "train_dataloaders"}, {"val_dataloader", 2, "val_dataloaders"}},
		evidence: "https://lightning.ai/docs/pytorch/stable/common/trainer.html#fit: fit(model, train_dataloaders, val_dataloaders, datamodule) " +
			"iterates the loaders it is handed, else the datamodule's or the model's train_dataloader() and val_dataloader()"},
	{use: useIterates, methods: []string{"validate"}, hooks: []loaderHook{{"val_dataloader", 1, "dataloaders"}},
		evidence: "https://lightning.ai/docs/pytorch/stable/common/trainer.html#validate: validate(model, dataloaders, ckpt_path, verbose, datamodule)"},
	{use: useIterates, methods: []string{"test"}, hooks: []loaderHook{{"test_dataloader", 1, "dataloaders"}},
		evidence: "https://lightning.ai/docs/pytorch/stable/common/trainer.html#test: test(model, dataloaders, ckpt_path, verbose, datamodule)"},
	{use: useIterates, methods: []string{"predict"}, hooks: []loaderHook{{"predict_dataloader", 1, "dataloaders"}},
		evidence: "https://lightning.ai/docs/pytorch/stable/common/trainer.html#predict: predict(model, dataloaders, datamodule, return_predictions, ckpt_path)"},
	// MosaicML Composer's Trainer is handed its loaders when it is made
	// (keywords only) and iterates them in fit() and eval(), unless those
	// are handed loaders of their own. Matched by name, ahead of the
	// Lightning rows' method names.
	{use: useIterates, names: []string{"composer.Trainer().fit", "composer.trainer.Trainer().fit", "composer.trainer.trainer.Trainer().fit"},
		kept: []keptLoader{{"train_dataloader", -1, "train_dataloader"}, {"eval_dataloader", -1, "eval_dataloader"}},
		evidence: "https://docs.mosaicml.com/projects/composer/en/stable/api_reference/generated/composer.Trainer.html: " +
			"Trainer(*, model, train_dataloader=None, ..., eval_dataloader=None, ...) and fit(*, train_dataloader=None, ..., eval_dataloader=None, ...), " +
			"whose arguments \"override the values specified when constructing the Trainer\"; composer/trainer/trainer.py (6405188) " +
			"_train_loop iterates State.dataloader, the train_dataloader's DataSpec.dataloader, in _iter_dataloader: iter(self.state.dataloader), " +
			"and _run_evaluators the evaluators' loaders (eval_interval, default 1: every epoch)"},
	{use: useIterates, names: []string{"composer.Trainer().eval", "composer.trainer.Trainer().eval", "composer.trainer.trainer.Trainer().eval"},
		kept: []keptLoader{{"eval_dataloader", 0, "eval_dataloader"}},
		evidence: "https://docs.mosaicml.com/projects/composer/en/stable/api_reference/generated/composer.Trainer.html#composer.Trainer.eval: " +
			"eval(eval_dataloader=None, subset_num_batches=-1); \"If not provided, defaults to using the eval_dataloader provided to the trainer init()\""},
	{use: useIterates, names: []string{"composer.Trainer().predict", "composer.trainer.Trainer().predict", "composer.trainer.trainer.Trainer().predict"},
		evidence: "https://docs.mosaicml.com/projects/composer/en/stable/api_reference/generated/composer.Trainer.html#composer.Trainer.predict: " +
			"predict(dataloader, subset_num_batches=-1, *, return_outputs=True) iterates the loader it is handed"},
}

// The table's indexes: by qualified name and by method name.
var loaderCallsByName, loaderCallsByMethod = func() (map[string]*loaderCall, map[string]*loaderCall) {
	byName, byMethod := map[string]*loaderCall{}, map[string]*loaderCall{}
	for i := range loaderCalls {
		lc := &loaderCalls[i]
		for _, n := range lc.names {
			byName[n] = lc
		}
		for _, m := range lc.methods {
			byMethod[m] = lc
		}
	}
	return byName, byMethod
}()

// hookCallIdents are the method names of the calls that iterate the
// loaders their arguments' hooks make: a function calling one may start
// processes though it names no process API (trainer.fit(model)). The rows
// that iterate their receiver's loaders add none: composer's fit is one of
// these names already, and `eval` would name every evaluation loop
// (model.eval()).
func hookCallIdents() []string {
	var out []string
	for _, lc := range loaderCalls {
		if len(lc.hooks) > 0 {
			out = append(out, lc.methods...)
		}
	}
	return out
}

// loaderUse says what call c does with the loaders handed to it, and the
// table row it comes from, if any.
func (ev *evaluator) loaderUse(c *syntax.Call, sc *Scope) (loaderUse, *loaderCall) {
	method := ""
	switch f := c.Func.(type) {
	case *syntax.Name:
		if len(lookup(f.ID, sc)) == 0 {
			switch {
			case iterators[f.ID]:
				return useIterates, nil
			case builtins[f.ID]:
				return useIgnores, nil
			}
			return useWraps, nil // a name from a star import
		}
	case *syntax.Attribute:
		method = f.Attr
	}
	use := useIgnores
	for _, v := range ev.expr(c.Func, sc) {
		switch v.Kind {
		case VFunc:
			return useLocal, nil
		case VClass, VInstance, VUnknown, VObjMethod:
			// A library object's method (trainer.fit, made by a procapi
			// row, is one) is matched against the table below.
			use = useWraps
		case VPath:
			if lc, ok := loaderCallsByName[v.Path]; ok {
				return lc.use, lc
			}
			if iterators[v.Path] {
				return useIterates, nil
			}
			if _, _, ok := procapi.Lookup(v.Path); ok {
				continue
			}
			if _, ok := catalog.Lookup(catalog.Call, v.Path); ok {
				continue
			}
			use = useWraps
		}
	}
	if lc, ok := loaderCallsByMethod[method]; ok && use == useWraps {
		return lc.use, lc
	}
	return use, nil
}

// loaderResult adds to a call's values what it returns of its arguments:
// for a call that returns them (accelerator.prepare, fabric.setup), the
// arguments in order (a tuple when there are several), the loaders among
// them first, so that `model, loader = accelerator.prepare(model, loader)`
// keeps both; for a wrapper, the loaders it wraps. loaders holds, per
// argument, the loaders it may be (nil: none), args all its values.
func (ev *evaluator) loaderResult(r *callResult, c *syntax.Call, sc *Scope, loaders, args [][]Value) {
	use, _ := ev.loaderUse(c, sc)
	if use != useReturns && use != useWraps {
		return
	}
	if use == useWraps && loaders == nil {
		return
	}
	if len(r.values) == 0 {
		r.value(Value{Kind: VUnknown})
	}
	returned := func(i int) []Value {
		if loaders != nil && len(loaders[i]) > 0 {
			return loaders[i]
		}
		if use == useReturns {
			return args[i]
		}
		return nil
	}
	var positional []int
	for i, a := range c.Args {
		if a.Keyword == "" && a.Star == 0 {
			positional = append(positional, i)
		}
	}
	if use == useReturns && len(positional) > 1 {
		var tuple []Value
		for _, i := range positional {
			tuple = append(tuple, merge(returned(i)))
		}
		r.value(listOf(tuple...))
		return
	}
	for i := range c.Args {
		r.values = add(r.values, returned(i)...)
	}
}

// mayReturnArgs reports whether c may be one of the loaderCalls that return
// their arguments, by its method name: only those are worth resolving for
// arguments that are no loaders.
func mayReturnArgs(c *syntax.Call) bool {
	a, ok := c.Func.(*syntax.Attribute)
	return ok && returningMethods[a.Attr]
}

// returningMethods are the last names of the loaderCalls that return
// their arguments.
var returningMethods = func() map[string]bool {
	out := map[string]bool{}
	for _, lc := range loaderCalls {
		if lc.use != useReturns {
			continue
		}
		for _, m := range lc.methods {
			out[m] = true
		}
		for _, n := range lc.names {
			out[n[strings.LastIndexByte(n, '.')+1:]] = true
		}
	}
	return out
}()

// hookLoaders are the loaders that the hooks of lc return for the local
// objects passed to c (trainer.fit(model) iterates model.train_dataloader()).
func (ev *evaluator) hookLoaders(lc *loaderCall, c *syntax.Call, sc *Scope) []*Object {
	var out []*Object
	for _, a := range c.Args {
		for _, v := range ev.expr(a.Value, sc) {
			if v.Kind != VInstance {
				continue
			}
			for _, h := range lc.hooks {
				if argExpr(c, h.pos, h.keyword) != nil {
					continue // the call is handed its own loaders of this kind
				}
				f := ev.method(v.Class, h.method, 0)
				if f == nil {
					continue
				}
				for _, r := range ev.returns(f) {
					if r.Kind == VObject && r.Obj.Kind == ObjLoader && !containsObj(out, r.Obj) {
						out = append(out, r.Obj)
					}
				}
			}
		}
	}
	return out
}

// loaderSources is what iterating e iterates: the loaders it may evaluate
// to, and the parameters of the function being summarized that it may come
// from, directly or through assignments, wrappers and local functions that
// return their argument.
func (b *builder) loaderSources(e syntax.Expr) loaderSrc { return b.loaderSourcesIn(e, b.sc) }

// loaderSourcesIn is loaderSources for an expression of scope sc: only the
// names it reads that are bound in the summarized function lead to its
// parameters.
func (b *builder) loaderSourcesIn(e syntax.Expr, sc *Scope) loaderSrc {
	var src loaderSrc
	vals := b.ev.expr(e, sc)
	for _, v := range vals {
		if v.Kind == VObject && v.Obj.Kind == ObjLoader {
			src.addObj(v.Obj)
		}
	}
	if b.sc.Kind == FunctionScope && b.sc.Func != nil {
		w := paramWalk{ev: &b.ev, fn: b.sc.Func, src: &src, seen: map[*Binding]bool{}}
		w.expr(e, sc, 0)
	}
	src.sure = len(src.params) == 0 && len(src.objs) == len(vals)
	return src
}

// paramWalk finds the parameters of fn an expression's value may come
// from, following the names assigned in fn, the arguments of wrappers and
// the parameters local functions return.
type paramWalk struct {
	ev   *evaluator
	fn   *Function
	src  *loaderSrc
	seen map[*Binding]bool
}

const maxParamWalk = 8

func (w *paramWalk) expr(e syntax.Expr, sc *Scope, depth int) {
	if e == nil || depth > maxParamWalk {
		return
	}
	switch e := e.(type) {
	case *syntax.Name:
		for _, bd := range w.ev.reaching(lookup(e.ID, sc), e.ID, sc, int(e.Start)) {
			if bd.Scope != w.fn.Scope || w.seen[bd] {
				continue
			}
			w.seen[bd] = true
			switch bd.Kind {
			case BindParam:
				w.src.addParam(bd.Name)
			case BindAssign, BindWith:
				switch {
				case len(bd.Index()) == 0:
					w.expr(bd.Value, bd.Scope, depth+1)
				case len(bd.Index()) == 1:
					// a, loader = accelerator.prepare(model, loader)
					if c, ok := bd.Value.(*syntax.Call); ok {
						if use, _ := w.ev.loaderUse(c, bd.Scope); use == useReturns {
							w.expr(positionalArg(c, bd.Index()[0]), bd.Scope, depth+1)
						}
					}
				}
			}
		}
	case *syntax.Call:
		switch use, _ := w.ev.loaderUse(e, sc); use {
		case useWraps, useReturns:
			for _, a := range e.Args {
				w.expr(a.Value, sc, depth+1)
			}
		case useLocal:
			for _, v := range w.ev.expr(e.Func, sc) {
				if v.Kind != VFunc {
					continue
				}
				for _, p := range v.Func.returnedParams() {
					w.expr(argForParam(e, v.Func, implicitSelf(v), p), sc, depth+1)
				}
			}
		}
	case *syntax.IfExp:
		w.expr(e.Body, sc, depth+1)
		w.expr(e.Else, sc, depth+1)
	case *syntax.BoolOp:
		w.expr(e.X, sc, depth+1)
		w.expr(e.Y, sc, depth+1)
	case *syntax.NamedExpr:
		w.expr(e.Value, sc, depth+1)
	case *syntax.Starred:
		w.expr(e.X, sc, depth+1)
	case *syntax.Await:
		w.expr(e.X, sc, depth+1)
	}
}

// returnedParams are the parameters whose value f may return, as it is or
// wrapped (def progress(it): return tqdm(it) if verbose else it), settled
// per strongly connected component of the functions whose returns call
// each other (retParamsSolver).
func (f *Function) returnedParams() []string {
	return f.Module.Prog.retParamsSolver().params(f)
}

// retParamsSolver settles returnedParams the way factSolver settles facts:
// a function asked again while its component is open answers its
// parameters so far, and a closed cyclic component is walked again until
// no member's set grows. Cutting the cycle and caching what was found
// under the cut, as before, gave progress() no parameters when its
// partner every_nth() was asked first (every_nth's walk reached progress,
// whose walk reached every_nth again, cut), and so lost the loader a
// caller handed to progress wherever its result was iterated.
type retParamsSolver struct {
	openComponents[*Function]
	at map[*Function]int // each open function's place in open
}

func (p *Program) retParamsSolver() *retParamsSolver {
	if p.retSolver == nil {
		p.retSolver = &retParamsSolver{at: map[*Function]int{}}
	}
	return p.retSolver
}

func (s *retParamsSolver) params(f *Function) []string {
	m := f.memos()
	switch m.retParamsState {
	case factDone:
		return m.retParams
	case factBusy:
		s.reached(s.at[f])
		return m.retParams // its component's parameters so far
	}
	at := s.enter(f)
	s.at[f] = at
	m.retParamsState = factBusy
	m.retParams = walkReturnedParams(f)
	s.finish(at, s)
	return m.retParams
}

// settle walks every member of the component opened at place at again,
// with the members' parameters so far, until none finds more. A walk only
// adds to what the walks it reads found, so a set that kept its size
// kept its members.
func (s *retParamsSolver) settle(at int) {
	s.iterate(at, untilSettled, func(g *Function) bool {
		got := walkReturnedParams(g)
		if len(got) == len(g.memo.retParams) {
			return false
		}
		g.memo.retParams = got
		return true
	})
}

func (s *retParamsSolver) done(g *Function) {
	g.memo.retParamsState = factDone
	delete(s.at, g)
}

// walkReturnedParams walks f's returns once, reading the parameters its
// callees return from their memos.
func walkReturnedParams(f *Function) []string {
	var src loaderSrc
	var ev evaluator
	w := paramWalk{ev: &ev, fn: f, src: &src, seen: map[*Binding]bool{}}
	if f.Lambda != nil {
		w.expr(f.Lambda.Body, f.Scope, 0)
	} else {
		forEachReturn(f.Def.Body(), func(e syntax.Expr) { w.expr(e, f.Scope, 0) })
	}
	return src.params
}

// implicitSelf reports whether calling v passes its first parameter
// implicitly: a method called on an instance, or a class (its __init__).
func implicitSelf(v Value) bool {
	switch v.Kind {
	case VClass:
		return true
	case VFunc:
		return v.Self != nil && !isStatic(v.Func)
	}
	return false
}

// argForParam is the argument of call c bound to parameter p of f.
func argForParam(c *syntax.Call, f *Function, implicit bool, p string) syntax.Expr {
	params := f.Params()
	if implicit && len(params) > 0 {
		params = params[1:]
	}
	i := 0
	for _, a := range c.Args {
		switch {
		case a.Star != 0:
			return nil // positions unknown from here on
		case a.Keyword != "":
			if a.Keyword == p {
				return a.Value
			}
		default:
			if i < len(params) && params[i].Kind == syntax.ParamNormal && params[i].Name == p {
				return a.Value
			}
			i++
		}
	}
	return nil
}

// positionalArg is the i-th positional argument of c, or nil.
func positionalArg(c *syntax.Call, i int) syntax.Expr {
	n := 0
	for _, a := range c.Args {
		if a.Star != 0 {
			return nil
		}
		if a.Keyword != "" {
			continue
		}
		if n == i {
			return a.Value
		}
		n++
	}
	return nil
}

// bindLoaders lists the loaders call c hands to each parameter of f.
func (b *builder) bindLoaders(c *syntax.Call, f *Function, implicit bool) []paramLoaders {
	var out []paramLoaders
	for _, p := range f.Params() {
		if p.Kind == syntax.ParamVarArgs || p.Kind == syntax.ParamKwArgs {
			continue
		}
		arg := argForParam(c, f, implicit, p.Name)
		if arg == nil {
			continue
		}
		if src := b.loaderSources(arg); !src.empty() {
			out = append(out, paramLoaders{param: p.Name, src: src})
		}
	}
	return out
}

// iterate records that e is iterated at site: the loaders it may be start
// their workers there.
func (b *builder) iterate(e syntax.Expr, site Site) { b.iterateIn(e, b.sc, site) }

// iterateIn is iterate for an expression of scope sc, the summarized one
// or one it sees (a constructor call at the top level of its module).
func (b *builder) iterateIn(e syntax.Expr, sc *Scope, site Site) {
	if e == nil {
		return
	}
	if n, ok := e.(*syntax.Name); ok && sc == b.sc && slices.Contains(b.notLoaders, n.ID) {
		return // under `if isinstance(x, Sequence):`, x is not a loader
	}
	if src := b.loaderSourcesIn(e, sc); !src.empty() {
		b.effect(effect{kind: effIterate, site: site}.with(effectMore{src: src}))
	}
}

// iterateUnseen records that e may be iterated at site, by code the model
// cannot see: the loaders it may be start their workers there, unseen
// (handedUnseen).
func (b *builder) iterateUnseen(e syntax.Expr, site Site) {
	if src := b.loaderSourcesIn(e, b.sc); !src.empty() {
		b.effect(effect{kind: effIterate, site: site}.with(effectMore{src: src, unseen: true}))
	}
}

// iterateContained records that the loaders kept in the lists and dicts e
// may be, handed to a library call at site, may be iterated there: the
// call's code, which would take them out, cannot be seen (unseen). A
// container iterated itself hands its loaders out and starts nothing.
func (b *builder) iterateContained(e syntax.Expr, site Site) {
	var src loaderSrc
	for _, v := range b.ev.expr(e, b.sc) {
		if v.Kind != VList && v.Kind != VDict {
			continue
		}
		for _, el := range v.elems() {
			if el.Kind == VObject && el.Obj.Kind == ObjLoader {
				src.addObj(el.Obj)
			}
		}
	}
	if !src.empty() {
		b.effect(effect{kind: effIterate, site: site}.with(effectMore{src: src, unseen: true}))
	}
}

// loaderCall records what call c does with loaders: an iterating call
// iterates its arguments (and the loaders its hooks return), a wrapper
// whose result the program drops is assumed to iterate them, and a local
// function gets, on its effCall, the loaders bound to its parameters.
func (b *builder) loaderCall(c *syntax.Call, dropped bool) {
	site := Site{b.m, c.Span}
	if a, ok := c.Func.(*syntax.Attribute); ok && (a.Attr == "__iter__" || a.Attr == "_get_iterator") {
		// loader.__iter__(), and DataLoader's own _get_iterator(), which
		// __iter__ calls to start the workers.
		b.iterate(a.X, site)
		return
	}
	use, lc := b.ev.loaderUse(c, b.sc)
	switch use {
	case useIterates:
		for _, a := range c.Args {
			if a.Star == 0 {
				b.iterate(a.Value, site)
				if lc != nil {
					// A trainer may take the loaders out of a list;
					// zip() or enumerate() hands them out, iterating none.
					b.iterateContained(a.Value, site)
				}
			}
		}
		if lc != nil && len(lc.hooks) > 0 {
			if objs := b.ev.hookLoaders(lc, c, b.sc); len(objs) > 0 {
				b.effect(effect{kind: effIterate, site: site}.with(effectMore{src: loaderSrc{objs: objs}}))
			}
		}
		if lc != nil && len(lc.kept) > 0 {
			b.keptLoaders(lc, c, site)
		}
	case useWraps:
		b.hfTrainerLoader(c)
		if dropped && b.libraryCallee(c) {
			for _, a := range c.Args {
				b.iterateUnseen(a.Value, site)
				b.iterateContained(a.Value, site)
			}
		}
	}
}

// keptLoaders records the iteration, at site, of the loaders that the
// constructor of c's receiver was handed and that lc iterates (composer's
// trainer.fit() after trainer = Trainer(train_dataloader=loader)), but for
// the kinds c is handed loaders of itself. A kept argument written as a
// list or tuple (eval_dataloader=[Evaluator(...), ...]) is iterated element
// by element.
func (b *builder) keptLoaders(lc *loaderCall, c *syntax.Call, site Site) {
	a, ok := c.Func.(*syntax.Attribute)
	if !ok {
		return
	}
	ctor, sc := b.callOf(a.X, b.sc, lc.keptBy())
	if ctor == nil {
		return
	}
	for _, k := range lc.kept {
		if argExpr(c, k.pos, k.keyword) != nil {
			continue // handed loaders of its own of this kind
		}
		arg := argExpr(ctor, -1, k.ctorKeyword)
		if seq, ok := arg.(*syntax.Sequence); ok {
			for _, el := range seq.Elts {
				b.iterateIn(el, sc, site)
			}
			continue
		}
		b.iterateIn(arg, sc, site)
	}
}

// keptBy are the constructors of the objects whose method lc is: each of
// its names up to the last "().".
func (lc *loaderCall) keptBy() map[string]bool {
	out := map[string]bool{}
	for _, n := range lc.names {
		if i := strings.LastIndex(n, "()."); i >= 0 {
			out[n[:i]] = true
		}
	}
	return out
}

// libraryCallee reports whether c calls a library function or a library
// object's method the model resolved (engine.run, not super().__init__ or
// a method of an unknown receiver): only such a call whose result the
// program drops is taken to iterate the loaders it is handed.
func (b *builder) libraryCallee(c *syntax.Call) bool {
	for _, v := range b.ev.expr(c.Func, b.sc) {
		if v.Kind == VPath || v.Kind == VObjMethod {
			return true
		}
	}
	return false
}

// callBinds fills in, on the effCall effects of call c, the loaders c hands
// to the callee's parameters.
func (b *builder) callBinds(c *syntax.Call, effs []effect) {
	if len(c.Args) == 0 {
		return
	}
	var callees []Value
	for i := range effs {
		e := &effs[i]
		if e.kind != effCall || len(e.fn.Params()) == 0 {
			continue
		}
		if callees == nil {
			callees = b.ev.expr(c.Func, b.sc)
		}
		implicit := false
		for _, v := range callees {
			if (v.Kind == VFunc && v.Func == e.fn) || (v.Kind == VClass && e.fn.Name == "__init__") {
				implicit = implicitSelf(v)
				break
			}
		}
		if binds := b.bindLoaders(c, e.fn, implicit); len(binds) > 0 {
			*e = e.with(effectMore{binds: binds})
		}
	}
}

// escape records the loaders e may be as kept in a container the model
// does not follow: a store into one (out[split] = DataLoader(...)) whose
// container is not a list or dict the model keeps the elements of
// (followedContainer). Their iteration cannot be seen, so their workers
// are taken to start where they are made, as a loader would that is
// iterated right away, and the start is unseen (keptUnseen): a warning at
// most, never an error. A loader in a list or dict the model follows is
// found where the container's elements are iterated (`for loader in
// loaders.values()`, `loaders[phase]`), and a container that flows nowhere
// starts nothing.
func (b *builder) escape(target *syntax.Subscript, e syntax.Expr) {
	if e == nil || b.followedContainer(target.X) {
		return
	}
	for _, v := range b.ev.expr(e, b.sc) {
		if v.Kind == VObject && v.Obj.Kind == ObjLoader {
			m := v.Obj.Site.Mod
			if m.escaped == nil {
				m.escaped = map[*Object]bool{}
			}
			m.escaped[v.Obj] = true
		}
	}
}

// followedContainer reports whether x, the container of a store x[k] = v
// in the summarized scope, is a list or dict whose stores the model adds to
// its elements wherever it is read (containers.go): a name the scope binds
// itself, not a parameter (the caller's binding of the container does not
// see the callee's stores) nor a global; or self.attr in a method.
func (b *builder) followedContainer(x syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Name:
		bs := lookup(x.ID, b.sc)
		if len(bs) == 0 {
			return false
		}
		for _, bd := range bs {
			if bd.Scope != b.sc || bd.Kind == BindParam {
				return false
			}
		}
	case *syntax.Attribute:
		f := b.sc.Func
		self, ok := x.X.(*syntax.Name)
		if !ok || f == nil || f.Class == nil || b.sc != f.Scope || len(f.Params()) == 0 || isStatic(f) || self.ID != f.Params()[0].Name {
			return false
		}
	default:
		return false
	}
	return hasContainer(b.ev.expr(x, b.sc))
}

// escapedLoader reports whether o is a loader kept in a container the
// model does not follow.
func escapedLoader(o *Object) bool { return o.Site.Mod.escaped[o] }

// Why a loader's start is assumed rather than seen (StartRecord.IterationUnseen).
const (
	keptUnseen   = "it is kept in a container the analysis does not follow, where it may be iterated later"
	handedUnseen = "it is handed to a library call that may iterate it, which the analysis could not see"
)

// isYieldFrom reports whether e is `yield from x`.
func isYieldFrom(e *syntax.Opaque, src []byte) bool {
	if e.Kind != "yield" || len(e.Children) != 1 {
		return false
	}
	text := string(src[e.Start:min(e.End, e.Start+16)])
	return len(text) > len("yield from") && text[:5] == "yield" && containsWord(text[5:], "from")
}

func containsWord(s, w string) bool {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '\\') {
		s = s[1:]
	}
	return len(s) >= len(w) && s[:len(w)] == w
}

// hfTrainers are the trainers that make their own DataLoader from a
// dataset and a TrainingArguments (transformers' Trainer: get_train_dataloader
// builds DataLoader(train_dataset, num_workers=args.dataloader_num_workers,
// persistent_workers=args.dataloader_persistent_workers, collate_fn=
// data_collator) and iterates it in train(); evaluate() and predict() do the
// same with their datasets). The default is no workers.
var hfTrainers = map[string]bool{
	"transformers.Trainer": true, "transformers.Seq2SeqTrainer": true, "transformers.trainer.Trainer": true,
	"optimum.onnxruntime.ORTTrainer": true,
}

// A LoaderMaker is a library class whose methods make and iterate a
// DataLoader of their own (hfTrainers), as the prefilter sees it: a file
// that names one of Roots and one of Idents may start workers through it.
type LoaderMaker struct {
	Roots, Idents []string
}

// LoaderMakers lists them, for the prefilter.
func LoaderMakers() []LoaderMaker {
	var out []LoaderMaker
	for _, path := range slices.Sorted(maps.Keys(hfTrainers)) {
		root, _, _ := strings.Cut(path, ".")
		out = append(out, LoaderMaker{Roots: []string{root}, Idents: []string{path[strings.LastIndexByte(path, '.')+1:]}})
	}
	return out
}

// hfTrainingArgs are the TrainingArguments classes whose
// dataloader_num_workers and dataloader_persistent_workers a trainer reads.
var hfTrainingArgs = map[string]bool{
	"transformers.TrainingArguments": true, "transformers.Seq2SeqTrainingArguments": true,
	"optimum.onnxruntime.ORTTrainingArguments": true,
}

// hfTrainerLoader records the iteration of the loader a trainer makes when
// c is trainer.train(), .evaluate() or .predict(): the trainer's
// construction, found through the receiver's assignment, names the
// TrainingArguments, whose dataloader_num_workers decides whether there are
// workers, and the dataset they load. The loader is made (once) at c.
func (b *builder) hfTrainerLoader(c *syntax.Call) {
	a, ok := c.Func.(*syntax.Attribute)
	if !ok || (a.Attr != "train" && a.Attr != "evaluate" && a.Attr != "predict") {
		return
	}
	ctor, _ := b.callOf(a.X, b.sc, hfTrainers)
	if ctor == nil {
		return
	}
	ta, _ := b.callOf(argExpr(ctor, 1, "args"), b.sc, hfTrainingArgs)
	if ta == nil {
		return
	}
	workers := argExpr(ta, -1, "dataloader_num_workers")
	if workers == nil || isZero(b.ev.expr(workers, b.sc)) {
		return
	}
	var dataset syntax.Expr
	switch a.Attr {
	case "train":
		dataset = argExpr(ctor, 3, "train_dataset")
	case "evaluate":
		dataset = argExpr(c, 0, "eval_dataset")
		if dataset == nil {
			dataset = argExpr(ctor, 4, "eval_dataset")
		}
	case "predict":
		dataset = argExpr(c, 0, "test_dataset")
	}
	site := Site{b.m, c.Span}
	obj := b.m.object(site, func() *Object {
		o := newObject(&Object{Kind: ObjLoader, Site: site, Method: MethodSpec{Family: "multiprocessing"}})
		if p := argExpr(ta, -1, "dataloader_persistent_workers"); p != nil {
			o.Persistent = isTrue(b.ev.expr(p, b.sc))
		}
		b.ev.addDataset(o, dataset, b.sc)
		b.ev.addTarget(o, argExpr(ctor, 2, "data_collator"), b.sc, unknownArgs)
		return o
	})
	b.effect(effect{kind: effIterate, site: site}.with(effectMore{src: loaderSrc{objs: []*Object{obj}}}))
}

// callOf finds the call of one of the classes in paths that e is, directly
// or through the names it is assigned to in its scope, and the scope of
// that call.
func (b *builder) callOf(e syntax.Expr, sc *Scope, paths map[string]bool) (*syntax.Call, *Scope) {
	seen := map[*Binding]bool{}
	var find func(e syntax.Expr, sc *Scope, depth int) (*syntax.Call, *Scope)
	find = func(e syntax.Expr, sc *Scope, depth int) (*syntax.Call, *Scope) {
		if e == nil || depth > maxParamWalk {
			return nil, nil
		}
		switch e := e.(type) {
		case *syntax.Call:
			if b.ev.isPath(e.Func, sc, paths) {
				return e, sc
			}
		case *syntax.Name:
			for _, bd := range lookup(e.ID, sc) {
				if seen[bd] || (bd.Kind != BindAssign && bd.Kind != BindWith) || len(bd.Index()) != 0 {
					continue
				}
				seen[bd] = true
				if c, csc := find(bd.Value, bd.Scope, depth+1); c != nil {
					return c, csc
				}
			}
		}
		return nil, nil
	}
	return find(e, sc, 0)
}

// nonLoaderTypes are types no DataLoader is an instance of:
// torch.utils.data.DataLoader derives from Generic alone, defines __iter__
// and __len__ but no __getitem__, and registers with no abstract base class,
// so `isinstance(loader, Sequence)` is false (Iterable and Sized are true,
// and are not here). Builtin names are matched when the module does not
// rebind them.
var nonLoaderTypes = map[string]bool{
	"list": true, "tuple": true, "dict": true, "str": true, "bytes": true, "bytearray": true,
	"set": true, "frozenset": true, "int": true, "float": true, "bool": true, "complex": true,
	"collections.abc.Sequence": true, "collections.abc.MutableSequence": true,
	"collections.abc.Mapping": true, "collections.abc.MutableMapping": true,
	"collections.abc.Set": true, "collections.abc.MutableSet": true, "collections.abc.ByteString": true,
	"typing.Sequence": true, "typing.MutableSequence": true, "typing.List": true, "typing.Tuple": true,
	"typing.Mapping": true, "typing.Dict": true, "typing.Set": true,
	"collections.OrderedDict": true, "collections.defaultdict": true, "collections.deque": true,
	"numpy.ndarray": true, "torch.Tensor": true,
}

// notLoaderNames are the names a branch's test proves are not DataLoaders
// where it holds: `isinstance(x, (list, tuple))`, alone or in an `and`
// (composer's ensure_tuple calls tuple(x) only on a Sequence).
func (ev *evaluator) notLoaderNames(test syntax.Expr, sc *Scope) []string {
	switch t := test.(type) {
	case *syntax.BoolOp:
		if t.Op == "and" {
			return append(ev.notLoaderNames(t.X, sc), ev.notLoaderNames(t.Y, sc)...)
		}
	case *syntax.Call:
		f, ok := t.Func.(*syntax.Name)
		if !ok || f.ID != "isinstance" || len(lookup(f.ID, sc)) > 0 || len(t.Args) != 2 {
			return nil
		}
		x, ok := t.Args[0].Value.(*syntax.Name)
		if ok && ev.allNonLoaderTypes(t.Args[1].Value, sc) {
			return []string{x.ID}
		}
	}
	return nil
}

// allNonLoaderTypes reports whether every type the second argument of an
// isinstance names is one of nonLoaderTypes.
func (ev *evaluator) allNonLoaderTypes(e syntax.Expr, sc *Scope) bool {
	if seq, ok := e.(*syntax.Sequence); ok {
		for _, el := range seq.Elts {
			if !ev.allNonLoaderTypes(el, sc) {
				return false
			}
		}
		return len(seq.Elts) > 0
	}
	if n, ok := e.(*syntax.Name); ok && len(lookup(n.ID, sc)) == 0 {
		return nonLoaderTypes[n.ID]
	}
	vs := ev.expr(e, sc)
	for _, v := range vs {
		if v.Kind != VPath || !nonLoaderTypes[v.Path] {
			return false
		}
	}
	return len(vs) > 0
}
