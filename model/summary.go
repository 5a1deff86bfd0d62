package model

import (
	"iter"
	"slices"
	"strings"

	"github.com/cudaforklint/cudaforklint/catalog"
	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/pytarget"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// A summary is what running a function (or a module body) does, as a tree of
// events in execution order: CUDA initializations, process starts,
// start-method settings, imports of local modules, calls of other local
// functions (expanded when simulated), with if/else kept as Branch and loops
// as Loop. Summaries do not depend on the Python version: start methods stay
// symbolic (MethodSpec) until the simulation resolves them per target.

type eventKind uint8

const (
	evEffect   eventKind = iota // a call's effect (eff)
	evBranch                    // exclusive alternatives (arms)
	evLoop                      // zero or more runs of body
	evGuard                     // a main guard: body runs only as __main__ (guard), alt only outside it
	evLazy                      // arms[0] where imports can be lazy (3.15+), arms[1] elsewhere (lazy.go)
	evReturn                    // the function returns (return, raise): what follows on this path does not run
	evLoopJump                  // break or continue: the rest of the loop body does not run on this path
)

type event struct {
	eff effect
	// arms are the event lists nested in the event, in execution order:
	// a branch's arms (evBranch, evLazy), a loop's body (evLoop: body), a
	// guard's body and what runs outside the main module, the main process
	// for a ProcessGuard (evGuard: body, alt). One slice for every kind:
	// most events are effects, which nest nothing.
	arms [][]event
	// site is an evGuard's if statement's test, and guard its kind of
	// guard; an evBranch's site is its if statement's test when the test
	// is stable (exclusive.go); other events leave both zero (an effect
	// has its own site).
	site  Site
	kind  eventKind
	guard GuardKind
	// plat says which arms of an evBranch run on each platform, when its
	// test is on the platform and the program's targets span platforms
	// (platform.go); zero for any other event.
	plat platArms
}

// loopEvent is a loop running body zero or more times.
func loopEvent(body []event) event { return event{kind: evLoop, arms: [][]event{body}} }

// body is an evLoop's or evGuard's body.
func (e *event) body() []event { return e.arms[0] }

// alt is what an evGuard runs outside its guard.
func (e *event) alt() []event { return e.arms[1] }

// eachNested calls fn on each event list nested in e, in execution order
// (a branch's arms, a loop's or a guard's body), until fn returns false; it
// reports whether fn never did. It is the one place that knows how events
// nest.
func (e *event) eachNested(fn func([]event) bool) bool {
	for _, a := range e.arms {
		if !fn(a) {
			return false
		}
	}
	return true
}

// effects yields the effects of events in execution order, every arm of a
// branch one after the other, into loop and guard bodies, whatever the
// simulation would take; stopping the loop stops the walk.
func effects(events []event) iter.Seq[*effect] {
	return func(yield func(*effect) bool) { walkEffects(events, yield) }
}

func walkEffects(events []event, yield func(*effect) bool) bool {
	for i := range events {
		e := &events[i]
		if e.kind == evEffect {
			if !yield(&e.eff) {
				return false
			}
			continue
		}
		if !e.eachNested(func(list []event) bool { return walkEffects(list, yield) }) {
			return false
		}
	}
	return true
}

type funcSummary struct {
	events   []event
	building bool
	// perEntry: building the summary asked the budget of contexts of the
	// module simulated then (valueState.entry), so its calls are bound as
	// that module's budget allowed.
	perEntry bool
	entry    uint32
}

// summaryOf returns the events of running f, built once, or once per
// module simulated as __main__ when building them asked for call
// contexts: which calls get one depends on the contexts that module
// already used, and a summary built while another module ran would give
// this one what that module's budget allowed (a test module checked with
// the library module it tests, whose functions ran first as entries,
// reported a hazard it does not get alone; TestEntryAloneOrTogether).
func (f *Function) summaryOf() []event {
	vs := f.Module.Prog.values()
	if s := f.summary; s != nil && (s.building || !s.perEntry || s.entry == vs.entry) {
		return s.events
	}
	s := &funcSummary{building: true, entry: vs.entry}
	f.summary = s
	reads := vs.budgetReads
	b := &builder{m: f.Module, sc: f.Scope}
	if f.Lambda != nil {
		b.expr(f.Lambda.Body)
	} else {
		b.stmts(f.Def.Body())
	}
	s.events, s.building = exactEvents(b.out), false
	s.perEntry = vs.budgetReads != reads
	return s.events
}

// topSummary returns the events of running the module body, guard included
// (as an evGuard event).
func (m *Module) topSummary() []event {
	if m.top != nil {
		return m.top.events
	}
	m.top = &funcSummary{building: true}
	b := &builder{m: m, sc: m.Scope, top: true}
	b.topStmts(m.File.Body)
	m.top.events, m.top.building = m.onlyWithLazySyntax(exactEvents(b.out)), false
	return m.top.events
}

// importSummary returns the events of importing the module: topSummary
// with each name guard's body left out, as an import never runs it (the
// simulation takes the guard's other side, as importFacts does). A child's
// search for CUDA through the import of a module whose own
// `if __name__ == "__main__": print(get_gpu_info())` probes the GPU must not
// find the probe: no importer runs it.
func (m *Module) importSummary() []event {
	if m.importTop != nil {
		return *m.importTop
	}
	events := m.topSummary()
	if m.top.building {
		return events // a module that imports itself: what is built so far
	}
	out, _ := withoutNameGuards(events)
	m.importTop = &out
	return out
}

// withoutNameGuards replaces each name guard in events, nested ones
// included, by what runs outside it, copying only the lists that change;
// it reports whether any did.
func withoutNameGuards(events []event) ([]event, bool) {
	var out []event
	for i := range events {
		e := &events[i]
		repl, changed := *e, false
		switch {
		case e.kind == evGuard && e.guard == NameGuard:
			alt, _ := withoutNameGuards(e.alt())
			repl, changed = event{kind: evBranch, arms: [][]event{alt}}, true
		case len(e.arms) > 0:
			var arms [][]event
			for j, a := range e.arms {
				na, ch := withoutNameGuards(a)
				if ch && arms == nil {
					arms = append(make([][]event, 0, len(e.arms)), e.arms[:j]...)
				}
				if arms != nil {
					arms = append(arms, na)
				}
			}
			if arms != nil {
				repl.arms, changed = arms, true
			}
		}
		if changed && out == nil {
			out = append(make([]event, 0, len(events)), events[:i]...)
		}
		if out != nil {
			out = append(out, repl)
		}
	}
	if out == nil {
		return events, false
	}
	return out, true
}

type builder struct {
	m   *Module
	sc  *Scope
	top bool // building the module body: recognise the main guard
	out []event
	ev  evaluator
	// dropped is the call of the expression statement being built: its
	// result is dropped.
	dropped *syntax.Call
	// notLoaders are the names that the isinstance tests around the code
	// being built say are not DataLoaders (iteration.go).
	notLoaders []string
	// loops counts the loop bodies being built, tries the try statements:
	// break and continue are jumps only in a loop body, and none is
	// emitted under a try, whose handlers and finally run however the
	// body is left.
	loops, tries int
	// loopFrom is where the outermost loop being built starts
	// (stableTest).
	loopFrom int32
}

func (b *builder) emit(e event) {
	if e.kind == evEffect && b.tries > 0 {
		e.eff.unsure = true
	}
	b.out = append(b.out, e)
}

func (b *builder) effect(e effect) { b.emit(event{kind: evEffect, eff: e}) }

// sub builds a nested list of events (a branch arm or a loop body).
func (b *builder) sub(fn func()) []event {
	saved := b.out
	b.out = nil
	fn()
	got := exactEvents(b.out)
	b.out = saved
	return got
}

// exactEvents returns events in an array of its own length: summaries are
// kept for the whole run, and the doubling of append leaves up to half of
// each list's array unused (events are 136 bytes, sizeof_test.go).
func exactEvents(events []event) []event {
	if cap(events) == len(events) {
		return events
	}
	out := make([]event, len(events))
	copy(out, events)
	return out
}

// topStmts builds a module's top-level statements: a main guard whose arm
// ends the import on one side (an early exit) leaves the rest of the module
// to the other side.
func (b *builder) topStmts(list []syntax.Stmt) {
	for i, s := range list {
		if ifs, ok := s.(*syntax.If); ok {
			if t, ok := classifyGuard(ifs.Test); ok {
				if b.guard(ifs, t, list[i+1:]) {
					return
				}
				continue
			}
		}
		b.stmt(s)
	}
}

// guard emits a main guard's event: the arm its test takes as main, and the
// one it takes outside the main module (a ProcessGuard: in the main process,
// and outside it). When one side's arm ends the import, rest runs on the
// other side only, and guard reports it has used rest.
func (b *builder) guard(s *syntax.If, t guardTest, rest []syntax.Stmt) bool {
	asMain, notMain := armOf(s, t.asMain), armOf(s, t.notMain)
	mainExits, otherExits := asMain.exits(), notMain.exits()
	used := rest != nil && mainExits != otherExits
	build := func(a arm, exits bool) []event {
		return b.sub(func() {
			if a.maybe {
				b.branch([][]event{b.sub(func() { b.stmts(a.stmts) }), b.sub(func() { b.stmts(a.alt) })})
			} else {
				b.stmts(a.stmts)
			}
			if used && !exits {
				b.topStmts(rest)
			}
		})
	}
	b.expr(s.Test)
	b.emit(event{kind: evGuard, guard: t.kind, site: Site{b.m, s.Test.Pos()},
		arms: [][]event{build(asMain, mainExits), build(notMain, otherExits)}})
	return used
}

// stmts builds a statement list up to the statement that leaves it on
// every path (a return, a raise, a break or continue, an if whose arms
// all do): what follows it never runs. It reports whether one did.
func (b *builder) stmts(list []syntax.Stmt) (left bool) {
	for _, s := range list {
		if b.stmt(s) {
			return true
		}
	}
	return false
}

// Jumps. Control leaves a function at a return or an uncaught raise (a
// call whose arguments certainly cannot bind its callee raises TypeError,
// arity.go) and a loop body's pass at a break or continue; the events after the jump on
// its path do not run. The builder emits evReturn and evLoopJump there
// (not under a try: its handlers and finally run however the body is
// left; not at module level, where a raise ends the import and the guard
// machinery handles the exits), and the simulation ends the path: what an
// arm that returns did no longer flows into the code after the if (an
// initialization in `if not isinstance(x, dict): return function(x)`
// is not followed by the fork further down the function).

// jump is the jump statement s makes, if any, as an event kind.
func (b *builder) jump(s syntax.Stmt) (eventKind, bool) {
	if b.tries > 0 || b.sc.Func == nil || b.sc != b.sc.Func.Scope {
		return 0, false
	}
	switch s := s.(type) {
	case *syntax.Return:
		return evReturn, true
	case *syntax.ExprStmt:
		if c, ok := s.X.(*syntax.Call); ok && b.ev.callRaises(c, b.sc) {
			return evReturn, true // TypeError: the call cannot bind (arity.go)
		}
	case *syntax.Assign:
		if c, ok := s.Value.(*syntax.Call); ok && b.ev.callRaises(c, b.sc) {
			return evReturn, true
		}
	case *syntax.OtherStmt:
		switch s.Kind {
		case "raise_statement":
			return evReturn, true
		case "break_statement", "continue_statement":
			return evLoopJump, b.loops > 0
		}
	}
	return 0, false
}

// stmt builds one statement and reports whether it leaves its statement
// list on every path, as the events built for it say: a jump, or an if
// whose taken arm (its test decided) or every arm does.
func (b *builder) stmt(s syntax.Stmt) (left bool) {
	switch s := s.(type) {
	case *syntax.Import:
		if b.lazyImport(s) {
			return
		}
		for _, a := range s.Names {
			b.importName(a.Name, 0, a.Span)
		}
	case *syntax.ImportFrom:
		if b.lazyImport(s) {
			return
		}
		b.importFrom(s)
	case *syntax.FunctionDef:
		for _, d := range s.Decorators {
			b.expr(d)
		}
		for _, p := range s.Params {
			if p.Default != nil {
				b.expr(p.Default)
			}
		}
	case *syntax.ClassDef:
		for _, d := range s.Decorators {
			b.expr(d)
		}
		for _, a := range s.Bases {
			b.expr(a.Value)
		}
		if c := b.classFor(s); c != nil {
			saved := b.sc
			b.sc = c.Scope
			b.stmts(s.Body)
			b.sc = saved
		}
	case *syntax.If:
		return b.ifStmt(s)
	case *syntax.For:
		b.expr(s.Iter)
		b.iterate(s.Iter, Site{b.m, s.Iter.Pos()})
		b.enterLoop(s.Span)
		body := b.sub(func() { b.stmts(s.Body) })
		b.loops--
		if len(body) > 0 {
			b.emit(loopEvent(body))
		}
		b.stmts(s.Else)
	case *syntax.While:
		b.expr(s.Test)
		b.enterLoop(s.Span)
		body := b.sub(func() { b.stmts(s.Body); b.expr(s.Test) })
		b.loops--
		if len(body) > 0 {
			b.emit(loopEvent(body))
		}
		b.stmts(s.Else)
	case *syntax.With:
		nvml := false
		dev := DevNone
		for _, it := range s.Items {
			b.expr(it.Value)
			b.enter(it.Value)
			nvml = nvml || setsNVMLCheck(it.Value)
			dev = dev.join(b.ev.withDevice(it.Value, b.sc)) // device.go
		}
		if nvml {
			b.effect(effect{kind: effNVMLCheck, site: Site{b.m, s.Span}})
		}
		block := dev == DevCUDA || dev == DevCPU
		if block {
			b.effect(effect{kind: effDefaultDevice, block: true, cuda: dev == DevCUDA, site: Site{b.m, s.Span}})
		}
		suppress := slices.ContainsFunc(s.Items, func(it syntax.WithItem) bool { return suppresses(it.Value) })
		if suppress {
			b.tries++ // its exit swallows what the body raises, as a handler would
		}
		b.stmts(s.Body)
		if suppress {
			b.tries--
		}
		if block {
			b.effect(effect{kind: effDefaultDevice, block: true, restore: true, site: Site{b.m, s.Span}})
		}
		if nvml {
			b.effect(effect{kind: effNVMLRestore, site: Site{b.m, s.Span}})
		}
	case *syntax.Try:
		b.tries++
		b.stmts(s.Body)
		var arms [][]event
		for _, h := range s.Handlers {
			arm := b.sub(func() { b.expr(h.Type); b.stmts(h.Body) })
			arms = append(arms, arm)
		}
		b.branch(append(arms, nil))
		b.stmts(s.Else)
		b.stmts(s.Finally)
		b.tries--
	case *syntax.Match:
		b.expr(s.Subject)
		var arms [][]event
		for _, c := range s.Cases {
			arms = append(arms, b.sub(func() { b.expr(c.Guard); b.stmts(c.Body) }))
		}
		b.branch(append(arms, nil))
	case *syntax.Assign:
		b.expr(s.Value)
		for _, t := range s.Targets {
			if sub, ok := t.(*syntax.Subscript); ok {
				b.escape(sub, s.Value) // loaders[split] = DataLoader(...)
			}
			b.targetExprs(t)
			if isNVMLEnvTarget(t) && isOneString(s.Value) {
				b.effect(effect{kind: effNVMLCheck, site: Site{b.m, s.Span}})
			}
		}
	case *syntax.ExprStmt:
		b.dropped, _ = s.X.(*syntax.Call)
		b.expr(s.X)
		b.dropped = nil
	case *syntax.Return:
		b.expr(s.Value)
	case *syntax.OtherStmt:
		for _, e := range s.Exprs {
			b.expr(e)
		}
	}
	if k, ok := b.jump(s); ok {
		b.emit(event{kind: k})
		return true
	}
	return false
}

// suppresses reports whether a with statement's context manager e may
// swallow an exception its body raises: a call of something named
// suppress (contextlib.suppress). Read by name, so that a start in its body
// is never taken to end an import (raisesAtBootstrap) when it may not.
func suppresses(e syntax.Expr) bool {
	c, ok := e.(*syntax.Call)
	return ok && lastIdent(c.Func) == "suppress"
}

func (b *builder) branch(arms [][]event) {
	nonEmpty := false
	for _, a := range arms {
		if len(a) > 0 {
			nonEmpty = true
		}
	}
	if nonEmpty {
		b.emit(event{kind: evBranch, arms: arms})
	}
}

func (b *builder) classFor(d *syntax.ClassDef) *Class {
	for _, c := range b.m.Classes {
		if c.Def == d {
			return c
		}
	}
	return nil
}

// importName runs `import a.b.c`: each local module on the path is imported
// (its top level runs once per process); catalogued import-time
// initializers (import pycuda.autoinit) initialize CUDA.
func (b *builder) importName(name string, level int, span syntax.Span) {
	site := Site{b.m, span}
	parts := strings.Split(name, ".")
	for i := range parts {
		prefix := strings.Join(parts[:i+1], ".")
		if mod := b.m.importedModule(prefix, level); mod != nil {
			b.effect(effect{kind: effImport, mod: mod, site: site, api: prefix})
			continue
		}
		if level == 0 {
			if e, ok := catalog.Lookup(catalog.Import, catalog.Canonical(prefix)); ok && e.Effect.TouchesCUDA() {
				kind := effectKindOf(e)
				b.effect(effect{kind: kind, entry: e, api: "import " + prefix, site: site})
			} else if ok && e.Role == catalog.RoleNVMLCheck {
				b.effect(effect{kind: effNVMLCheck, site: site}) // import lightning
			}
			if i == 0 {
				b.importSetter(prefix, site)
			}
		}
	}
}

// importSetter records the start method a library sets when imported
// (procapi.ImportSetters: `import torchrl` sets "spawn").
func (b *builder) importSetter(root string, site Site) {
	lib, ok := procapi.LookupImport(root)
	if !ok {
		return
	}
	m, _ := pytarget.ParseStartMethod(lib.StartMethod)
	// The library catches the RuntimeError of a method set before
	// (procapi.ImportSetter.IfUnset): unsure.
	b.effect(effect{kind: effSetMethod, site: site, ifUnset: lib.IfUnset, unsure: true}.with(effectMore{
		method: MethodSpec{Family: lib.Family, Kind: MethodExplicit, Method: m}}))
}

func (b *builder) importFrom(s *syntax.ImportFrom) {
	if s.Module != "" || s.Level > 0 {
		b.importName(s.Module, s.Level, s.Span)
	}
	if s.Star {
		for _, sub := range b.m.starSubmodules(s) {
			b.effect(effect{kind: effImport, mod: sub, site: Site{b.m, s.Span}, api: sub.Name})
		}
	}
	for _, a := range s.Names {
		full := JoinDotted(s.Module, a.Name)
		if mod := b.m.importedModule(full, s.Level); mod != nil {
			b.effect(effect{kind: effImport, mod: mod, site: Site{b.m, a.Span}, api: full})
			continue
		}
		if s.Level == 0 {
			if e, ok := catalog.Lookup(catalog.Import, catalog.Canonical(full)); ok && e.Effect.Initializes() {
				b.effect(effect{kind: effInit, entry: e, api: "import " + full, site: Site{b.m, a.Span}})
			}
		}
	}
}

// ifStmt handles the main guard, the child arm of `pid = os.fork()`, and
// ordinary branches.
func (b *builder) ifStmt(s *syntax.If) (left bool) {
	if b.top && b.sc == b.m.Scope {
		if t, ok := classifyGuard(s.Test); ok {
			b.guard(s, t, nil)
			return false
		}
	}
	b.expr(s.Test)
	if t, ok := b.ev.truth(s.Test, b.sc); ok {
		// A test decided by constants takes one arm (truth.go).
		if t {
			return b.stmts(s.Body)
		}
		return b.stmts(s.Else)
	}
	if t, ok := b.ev.envDefaultTruth(s.Test, b.sc); ok {
		// A test the environment's defaults decide takes the default's
		// arm: the other runs only where the user opts in (environ.go).
		if t {
			return b.stmts(s.Body)
		}
		return b.stmts(s.Else)
	}
	if b.guardedSetter(s) { // startmethod.go
		return false
	}
	if obj, childArm, parentArm, ok := b.forkTest(s); ok {
		if !obj.ChildFound {
			obj.ChildFound = true
			obj.ChildBody = childArm
			obj.ChildScope = b.sc
			obj.ChildExecs = callsExec(childArm, b.sc)
		}
		// The parent's path ends at a jump in its arm; the statements
		// after the if are the child's too, built from ChildBody alone.
		b.stmts(parentArm)
		return false
	}
	var thenLeft, elseLeft bool
	then := b.sub(func() {
		saved := b.notLoaders
		b.notLoaders = append(b.notLoaders[:len(b.notLoaders):len(b.notLoaders)], b.ev.notLoaderNames(s.Test, b.sc)...)
		thenLeft = b.stmts(s.Body)
		b.notLoaders = saved
	})
	els := b.sub(func() { elseLeft = b.stmts(s.Else) })
	if len(then) > 0 || len(els) > 0 {
		e := event{kind: evBranch, arms: [][]event{then, els}, plat: b.ev.platformArms(s.Test, b.sc)}
		from := s.Span.Start
		if b.loops > 0 {
			from = b.loopFrom
		}
		if b.stableTest(s.Test, from) {
			e.site = Site{b.m, s.Test.Pos()} // the arms are facts (exclusive.go)
		}
		b.emit(e)
	}
	return thenLeft && elseLeft
}

// enterLoop counts a loop body about to be built, and where the outermost
// one starts.
func (b *builder) enterLoop(span syntax.Span) {
	if b.loops == 0 {
		b.loopFrom = span.Start
	}
	b.loops++
}

// forkTest recognises the tests that split the child of os.fork() from the
// parent: `pid == 0`, `0 == pid`, `not pid`, `pid != 0`, `pid > 0`, `pid`,
// and `os.fork() == 0` itself.
func (b *builder) forkTest(s *syntax.If) (obj *Object, child, parent []syntax.Stmt, ok bool) {
	forkObj := func(e syntax.Expr) *Object {
		for _, v := range b.ev.expr(e, b.sc) {
			if v.Kind == VObject && v.Obj.Kind == ObjFork {
				return v.Obj
			}
		}
		return nil
	}
	isZeroLit := func(e syntax.Expr) bool {
		n, ok := e.(*syntax.Number)
		return ok && n.Text == "0"
	}
	switch t := s.Test.(type) {
	case *syntax.Compare:
		if len(t.Ops) != 1 {
			return nil, nil, nil, false
		}
		l, r, op := t.Left, t.Comparators[0], t.Ops[0]
		if isZeroLit(l) {
			l, r = r, l
			switch op {
			case ">":
				op = "<"
			case "<":
				op = ">"
			}
		}
		if !isZeroLit(r) {
			return nil, nil, nil, false
		}
		if o := forkObj(l); o != nil {
			switch op {
			case "==", "is", "<=":
				return o, s.Body, s.Else, true
			case "!=", ">", "is not":
				return o, s.Else, s.Body, true
			}
		}
	case *syntax.UnaryOp:
		if t.Op == "not" {
			if o := forkObj(t.X); o != nil {
				return o, s.Body, s.Else, true
			}
		}
	case *syntax.Name:
		if o := forkObj(t); o != nil {
			return o, s.Else, s.Body, true
		}
	}
	return nil, nil, nil, false
}

// callsExec reports whether a child arm replaces the process image
// (os.exec*, os.execv...), which makes whatever CUDA state it inherited moot.
func callsExec(body []syntax.Stmt, sc *Scope) bool {
	found := false
	var ev evaluator
	for _, s := range body {
		syntax.Inspect(s, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.Call); ok {
				for _, v := range ev.expr(c.Func, sc) {
					if v.Kind == VPath && strings.HasPrefix(v.Path, "os.exec") {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}

// targetExprs visits the expressions evaluated by an assignment target
// (subscripts and attribute receivers), not the names it binds.
func (b *builder) targetExprs(t syntax.Expr) {
	switch t := t.(type) {
	case *syntax.Subscript:
		b.expr(t.X)
		for _, i := range t.Index {
			b.expr(i)
		}
	case *syntax.Attribute:
		b.expr(t.X)
	case *syntax.Sequence:
		for _, e := range t.Elts {
			b.targetExprs(e)
		}
	case *syntax.Starred:
		b.targetExprs(t.X)
	}
}

func isNVMLEnvTarget(t syntax.Expr) bool {
	s, ok := t.(*syntax.Subscript)
	if !ok || len(s.Index) != 1 {
		return false
	}
	k, ok := s.Index[0].(*syntax.String)
	if !ok || k.Value != "PYTORCH_NVML_BASED_CUDA_CHECK" {
		return false
	}
	a, ok := s.X.(*syntax.Attribute)
	return ok && a.Attr == "environ"
}

func isOneString(e syntax.Expr) bool {
	s, ok := e.(*syntax.String)
	return ok && s.Value == "1"
}

// expr emits the events of evaluating e, in evaluation order: receivers and
// arguments before the call they feed.
func (b *builder) expr(e syntax.Expr) {
	switch e := e.(type) {
	case nil:
	case *syntax.Call:
		dropped := b.dropped == e
		if a, ok := e.Func.(*syntax.Attribute); ok {
			// Naming the receiver to call its method is no use of its
			// own: the call judges what the method does with it (a
			// catalog row, a local method's body, or a use of the
			// receiver's device for a method the model does not know).
			b.receiver(a.X)
			b.propertyRead(a) // obj.prop(...): the getter runs first
		} else {
			b.expr(e.Func)
		}
		for _, a := range e.Args {
			b.expr(a.Value)
		}
		r := b.ev.resolveCall(e, b.sc)
		b.callBinds(e, r.effects)
		for _, eff := range r.effects {
			b.effect(eff)
		}
		b.loaderCall(e, dropped)
		b.runnerCall(e) // runners.go
		b.testRunnerCall(e)
		if desc, ok := b.opaqueCallee(e.Func); ok && !b.ev.knownCallee(e.Func, b.sc) {
			b.effect(effect{kind: effOpaqueCall, api: desc, site: Site{b.m, e.Span}})
		}
	case *syntax.Attribute:
		b.attribute(e, false)
	case *syntax.Name:
		b.nameRead(e)
	case *syntax.Lambda:
		// Defined, not run.
	case *syntax.Comprehension:
		for i, g := range e.Generators {
			if i == 0 {
				b.expr(g.Iter)
				b.iterate(g.Iter, Site{b.m, g.Iter.Pos()})
			}
		}
		body := b.sub(func() {
			for i, g := range e.Generators {
				if i > 0 {
					b.expr(g.Iter)
					b.iterate(g.Iter, Site{b.m, g.Iter.Pos()})
				}
				for _, c := range g.Ifs {
					b.expr(c)
				}
			}
			b.expr(e.Elt)
			b.expr(e.Value)
		})
		if len(body) > 0 {
			b.emit(loopEvent(body))
		}
	case *syntax.IfExp:
		b.expr(e.Test)
		if t, ok := b.ev.truth(e.Test, b.sc); ok {
			// A decided test takes one arm, as in an if statement and
			// in the expression's value (eval.go).
			if t {
				b.expr(e.Body)
			} else {
				b.expr(e.Else)
			}
			return
		}
		b.branch([][]event{b.sub(func() { b.expr(e.Body) }), b.sub(func() { b.expr(e.Else) })})
	case *syntax.BoolOp:
		b.expr(e.X)
		b.branch([][]event{b.sub(func() { b.expr(e.Y) }), nil})
	case *syntax.Subscript:
		b.expr(e.X)
		for _, i := range e.Index {
			b.expr(i)
		}
	case *syntax.String:
		for _, x := range e.Exprs {
			b.expr(x)
		}
	case *syntax.Sequence:
		for _, x := range e.Elts {
			b.expr(x)
		}
	case *syntax.Dict:
		for i := range e.Values {
			b.expr(e.Keys[i])
			b.expr(e.Values[i])
		}
	case *syntax.Compare:
		b.expr(e.Left)
		for _, x := range e.Comparators {
			b.expr(x)
		}
	case *syntax.UnaryOp:
		b.expr(e.X)
	case *syntax.BinOp:
		b.expr(e.X)
		b.expr(e.Y)
	case *syntax.Starred:
		b.expr(e.X)
	case *syntax.Await:
		b.expr(e.X)
	case *syntax.NamedExpr:
		b.expr(e.Value)
	case *syntax.Opaque:
		for _, x := range e.Children {
			b.expr(x)
		}
		if isYieldFrom(e, b.m.Src) {
			b.iterate(e.Children[0], Site{b.m, e.Span})
		}
	}
}

// attribute emits the events of reading a.Attr. As a receiver (the
// object whose attribute is read next: self.model and self.model.encoder
// in self.model.encoder.prepare_input(img)), the value read is only held
// on the way to the next attribute, which is no use of its own: the read
// at the end of the chain, or the call it feeds, judges what is touched.
func (b *builder) attribute(a *syntax.Attribute, asReceiver bool) {
	b.receiver(a.X)
	if b.propertyRead(a) {
		// The getter's events are the read's; its value is not a
		// library attribute nor one the instance holds.
		return
	}
	b.attrRead(a)
	if !asReceiver {
		b.inheritedRead(a)
	}
}

// receiver emits the events of evaluating x, the object of an attribute
// read or a method call: a name or an attribute chain is not read as a
// value of its own (see attribute), anything else is evaluated as usual
// (the call in model.cuda().half()).
func (b *builder) receiver(x syntax.Expr) {
	switch x := x.(type) {
	case *syntax.Name:
		b.lazyRead(x)
	case *syntax.Attribute:
		b.attribute(x, true)
	default:
		b.expr(x)
	}
}

// propertyRead runs, where obj.name is read, the getter of a property
// name is on obj's local class (property.go), as a method call runs the
// method; it reports whether it did.
func (b *builder) propertyRead(a *syntax.Attribute) bool {
	found := false
	site := Site{b.m, a.Span}
	type run struct {
		g   *Function
		ctx *callContext
	}
	var ran []run
next:
	for _, v := range b.ev.expr(a.X, b.sc) {
		g, ctx, ok := b.ev.getterCall(v, a.Attr)
		if !ok {
			continue
		}
		found = true
		for _, r := range ran {
			if r == (run{g, ctx}) {
				continue next
			}
		}
		ran = append(ran, run{g, ctx})
		g.referenced = true
		b.effect(effect{kind: effCall, fn: g, site: site, ctx: ctx})
		if b.m.Prog.extra[qualifiedName(g)] {
			b.effect(effect{kind: effInit, api: qualifiedName(g), site: site})
		}
	}
	return found
}

// attrRead handles attribute reads that initialize CUDA by themselves
// (numba.cuda.gpus, cupy.cuda.Device(0).compute_capability).
func (b *builder) attrRead(a *syntax.Attribute) {
	for _, v := range b.ev.expr(a, b.sc) {
		if v.Kind != VPath {
			continue
		}
		if e, ok := catalog.Lookup(catalog.Attr, v.Path); ok && e.Effect.TouchesCUDA() {
			kind := effectKindOf(e)
			b.effect(effect{kind: kind, entry: e, api: v.Path, site: Site{b.m, a.Span}})
			return
		}
	}
}

// nameRead marks the use of a module-level CUDA object inside a function:
// a child forked from the parent that uses the inherited object uses CUDA.
func (b *builder) nameRead(n *syntax.Name) {
	b.lazyRead(n)
	if b.moduleObject(n) {
		b.heldRead(n, n.ID)
	}
}

// moduleObject reports whether n, read here, names an object the
// module's top level binds (not a function, class or import) from inside
// a function: an object a forked child inherits from its parent.
func (b *builder) moduleObject(n *syntax.Name) bool {
	if b.sc.Kind == ModuleScope || b.sc.Kind == ClassScope {
		return false
	}
	bs := lookup(n.ID, b.sc)
	if len(bs) == 0 || bs[0].Scope == nil || bs[0].Scope.Kind != ModuleScope {
		return false
	}
	for _, bd := range bs {
		if bd.Kind == BindDef || bd.Kind == BindClass || bd.Kind == BindImport || bd.Kind == BindImportFrom {
			return false
		}
	}
	return true
}

// heldRead marks reading x, a value a child inherits, as the use of the
// device memory it holds.
func (b *builder) heldRead(x syntax.Expr, name string) {
	d := heldDeep(b.ev.expr(x, b.sc), 0)
	if e, ok := deviceUse(d, useName(d, name, b.m, x), Site{b.m, x.Pos()}); ok {
		b.effect(e)
	}
}

// enter handles entering a context manager: some initialize only then
// (`with cupy.cuda.Device(1):`), catalogued as "<path>.__enter__".
func (b *builder) enter(e syntax.Expr) {
	for _, v := range b.ev.expr(e, b.sc) {
		if v.Kind != VPath {
			continue
		}
		if ent, ok := catalog.Lookup(catalog.Call, v.Path+".__enter__"); ok && ent.Effect.TouchesCUDA() {
			kind := effectKindOf(ent)
			b.effect(effect{kind: kind, entry: ent, api: "entering `" + strings.TrimSuffix(v.Path, "()") + "()`", site: Site{b.m, e.Pos()}})
			return
		}
	}
}

// setsNVMLCheck recognises context managers that set
// PYTORCH_NVML_BASED_CUDA_CHECK=1 for their block:
// patch_environment(PYTORCH_NVML_BASED_CUDA_CHECK="1") (accelerate),
// mock.patch.dict(os.environ, {"PYTORCH_NVML_BASED_CUDA_CHECK": "1"}).
func setsNVMLCheck(e syntax.Expr) bool {
	c, ok := e.(*syntax.Call)
	if !ok {
		return false
	}
	for _, a := range c.Args {
		if a.Keyword == "PYTORCH_NVML_BASED_CUDA_CHECK" && isOneString(a.Value) {
			return true
		}
		if d, ok := a.Value.(*syntax.Dict); ok {
			for i, k := range d.Keys {
				if ks, ok := k.(*syntax.String); ok && ks.Value == "PYTORCH_NVML_BASED_CUDA_CHECK" && isOneString(d.Values[i]) {
					return true
				}
			}
		}
	}
	return false
}

// opaqueCallee recognises calls of code the model cannot see: a parameter
// (`fn(*args)`), or an attribute of self that was set from a parameter
// (`self.launcher(*args)`). Method calls on other unknown objects (list.append)
// are not opaque in this sense: they are overwhelmingly library code.
func (b *builder) opaqueCallee(fn syntax.Expr) (string, bool) {
	if b.sc.Kind != FunctionScope {
		return "", false
	}
	fromParam := func(bs []*Binding) bool {
		if len(bs) == 0 {
			return false
		}
		for _, bd := range bs {
			switch bd.Kind {
			case BindParam:
				if f := bd.Scope.Func; f != nil && f.Class != nil && isSelfParam(f, bd.Name) {
					return false
				}
			case BindAssign:
				n, ok := bd.Value.(*syntax.Name)
				if !ok {
					return false
				}
				inner := lookup(n.ID, bd.Scope)
				if len(inner) == 0 || inner[0].Kind != BindParam {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	switch f := fn.(type) {
	case *syntax.Name:
		if fromParam(lookup(f.ID, b.sc)) {
			return f.ID, true
		}
	case *syntax.Attribute:
		n, ok := f.X.(*syntax.Name)
		fun := b.sc.Func
		if !ok || fun == nil || fun.Class == nil || !isSelfParam(fun, n.ID) {
			return "", false
		}
		if fromParam(fun.Class.SelfAttrs[f.Attr]) {
			return "self." + f.Attr, true
		}
	}
	return "", false
}
