package model

import (
	"slices"
	"strings"

	"github.com/cudaforklint/cudaforklint/procapi"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Runners are library calls that run the program's own code in the calling
// process with arguments the model cannot see: a command-line front end
// that calls the function it is handed with values parsed from the command
// line (python-fire's fire.Fire(main)). Nothing else calls such a main: its
// name is written (so it is no entry point of its own, entries.go) and,
// without the runner, never run. The table says which argument holds what
// the runner calls; the builder (runnerCall) emits the calls as the
// summary's events, and the prescan (calleeIdents) counts the functions
// named there as called.
//
// A runner is no process API (it starts nothing; package procapi) and no
// loader call (it takes no loaders; iteration.go's loaderCalls): it is the
// in-process counterpart of a Launcher row's Targets.

// runner is a library call that runs the code its component argument
// names, in the calling process.
type runner struct {
	names []string
	// component is the argument holding what the runner runs: a function,
	// a class, an instance, or a dict display of those.
	component procapi.Arg
	evidence  string
}

// runners is the table.
var runners = []runner{
	{names: []string{"fire.Fire", "fire.core.Fire"}, component: procapi.Arg{Pos: 0, Keyword: "component"},
		evidence: "google/python-fire fire/core.py: Fire(component=None, command=None, name=None, serialize=None) " +
			"calls a function or instantiates a class with arguments parsed from the command line (_CallCallable), " +
			"indexes a dict by the next argument, and looks any other argument up among the members of the current " +
			"component (_GetMember: inspect.getmembers, private names included), calling what it finds; " +
			"it continues on each result, and a \"-\" separator chains further calls"},
}

// runnersByName indexes the table by qualified name.
var runnersByName = func() map[string]*runner {
	m := map[string]*runner{}
	for i := range runners {
		for _, n := range runners[i].names {
			m[n] = &runners[i]
		}
	}
	return m
}()

// runnerIdents are the identifiers a runner is called by (Fire): the
// prescan takes the functions named in its arguments for called.
var runnerIdents = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range runners {
		for _, n := range r.names {
			m[n[strings.LastIndexByte(n, '.')+1:]] = true
		}
	}
	return m
}()

// runnerOf returns the runner call c calls, if any.
func (ev *evaluator) runnerOf(c *syntax.Call, sc *Scope) *runner {
	for _, v := range ev.expr(c.Func, sc) {
		if v.Kind == VPath {
			if r, ok := runnersByName[v.Path]; ok {
				return r
			}
		}
	}
	return nil
}

// maxComponentDepth bounds the dicts of dicts a runner's component is
// followed through.
const maxComponentDepth = 4

// runnerCall emits what a runner call c runs. The command line picks one
// command, so each thing the component may run is an arm of a branch:
// a function called with unknown arguments; a class instantiated (its
// __init__ with unknown arguments), then its members (runMembers); an
// instance's members; for a dict, each of its values. fire.Fire() with no
// component exposes the caller's globals: a module's functions that nothing
// calls by name are entry points already.
func (b *builder) runnerCall(c *syntax.Call) {
	rn := b.ev.runnerOf(c, b.sc)
	if rn == nil {
		return
	}
	comp := argOf(c, rn.component)
	if comp == nil {
		return
	}
	arms := b.componentArms(comp, Site{b.m, c.Span}, 0)
	if len(arms) == 1 {
		b.out = append(b.out, arms[0]...) // no choice: not a conditional start
		return
	}
	b.branch(arms)
}

// componentArms are the arms of what a runner may run of component e.
func (b *builder) componentArms(e syntax.Expr, site Site, depth int) [][]event {
	d, ok := e.(*syntax.Dict)
	if !ok {
		return b.valueArms(b.ev.expr(e, b.sc), site, depth)
	}
	// {"train": train, "eval": evaluate}: the command names one.
	var arms [][]event
	if depth < maxComponentDepth {
		for _, v := range d.Values {
			arms = append(arms, b.componentArms(v, site, depth+1)...)
		}
	}
	return arms
}

// valueArms are the arms of what a runner may run of each of the values
// its component may be.
func (b *builder) valueArms(vals []Value, site Site, depth int) [][]event {
	var arms [][]event
	for _, v := range vals {
		switch v.Kind {
		case VFunc:
			if v.Func.Def == nil && v.Func.Lambda == nil {
				continue
			}
			call := effect{kind: effCall, fn: v.Func, site: site, ctx: b.ev.contextFor(v, unknownArgs())}
			v.Func.referenced = true
			arms = append(arms, []event{{kind: evEffect, eff: call}})
		case VClass:
			var r callResult
			inst := b.ev.construct(&r, v.Class, unknownArgs, site)
			arms = append(arms, b.sub(func() {
				for _, e := range r.effects {
					b.effect(e)
				}
				b.runMembers(inst, site)
			}))
		case VInstance:
			if v.Class != nil {
				arms = append(arms, b.sub(func() { b.runMembers(v, site) }))
			}
		case VDict:
			// A dict bound to a name: its values, as the model keeps them.
			if depth < maxComponentDepth {
				arms = append(arms, b.valueArms(v.elems(), site, depth+1)...)
			}
		}
	}
	return arms
}

// runMembers emits the methods a runner may call on an instance of a local
// class: python-fire looks the next command-line argument up among all the
// instance's members (inspect.getmembers, so private methods too) and
// calls the method it finds, with unknown arguments. Which one the command
// line names is open, so each method is an arm of a branch, beside the arm
// that calls none (the command ends at the instance). When a method may
// return the instance itself (`return self`), the command can go on to
// another of its members (`move 3 3 on move 3 6 on`): the branch is then a
// loop, so that any sequence of methods is covered. Dunder methods are left
// out: a command line naming __len__ is not an interface anyone uses, and
// the instance's protocols run elsewhere. A method's result other than the
// instance is not followed.
func (b *builder) runMembers(inst Value, site Site) {
	c := inst.Class
	var arms [][]event
	chains := false
	for _, name := range b.ev.methodNames(c) {
		f := b.ev.method(c, name, 0)
		if f == nil || f.Def == nil {
			continue
		}
		fv := Value{Kind: VFunc, Func: f, Self: c, Env: inst.Env}
		arms = append(arms, []event{{kind: evEffect, eff: effect{kind: effCall, fn: f, site: site, ctx: b.ev.contextFor(fv, unknownArgs())}}})
		f.referenced = true
		chains = chains || returnsSelf(f)
	}
	if len(arms) == 0 {
		return
	}
	branch := event{kind: evBranch, arms: append(arms, nil)}
	if chains {
		b.emit(loopEvent([]event{branch}))
		return
	}
	b.emit(branch)
}

// methodNames lists, sorted, the names of the methods of a local class and
// of its local bases, but dunders.
func (ev *evaluator) methodNames(c *Class) []string {
	seen := map[string]bool{}
	var walk func(c *Class, depth int)
	walk = func(c *Class, depth int) {
		if depth > 8 {
			return
		}
		for name := range c.Methods {
			if !isDunder(name) {
				seen[name] = true
			}
		}
		ev.eachBase(c, func(base []Value) bool {
			for _, bv := range base {
				if bv.Kind == VClass {
					walk(bv.Class, depth+1)
				}
			}
			return false
		})
	}
	walk(c, 0)
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// returnsSelf reports whether a method may return its own instance: a
// `return self` in its body.
func returnsSelf(f *Function) bool {
	ps := f.Params()
	if len(ps) == 0 || isStatic(f) || isClassMethod(f) {
		return false
	}
	self := ps[0].Name
	found := false
	forEachReturn(f.Def.Body(), func(e syntax.Expr) {
		if n, ok := e.(*syntax.Name); ok && n.ID == self {
			found = true
		}
	})
	return found
}

// testRunners are the library calls that run the calling module's unittest
// test cases in the calling process: `unittest.main()` loads every TestCase
// class of the main module and runs each of its test methods there, after
// whatever the main guard did before it — a `set_start_method("spawn")`
// included. Without the runner, those methods would be entry points of
// their own (entries.go), run under the default start method.
var testRunners = map[string]string{
	"unittest.main": "Lib/unittest/main.py: main = TestProgram; TestProgram(module='__main__', defaultTest=None, argv=None, ...) " +
		"loads the tests of the module (TestLoader.loadTestsFromModule: each TestCase subclass, its methods named test*, sorted) " +
		"and runs them in the calling process (runTests), each as setUp(), the test method, tearDown()",
	"absl.testing.absltest.main": "abseil-py absl/testing/absltest.py: main(*args, **kwargs) runs the tests of __main__ " +
		"through unittest's TestProgram (run_tests), in the calling process",
}

// testRunnerCall emits the test methods a test runner call c runs, in the
// order unittest runs them: each TestCase class of the module (sorted by
// name), an instance of it, then for each test method (sorted) setUp, the
// method and tearDown. A call that names a module or a test to run is left
// alone: what it selects is not followed.
func (b *builder) testRunnerCall(c *syntax.Call) {
	if !b.ev.isTestRunner(c, b.sc) {
		return
	}
	for _, a := range c.Args {
		if a.Keyword == "" || a.Keyword == "module" || a.Keyword == "defaultTest" {
			return
		}
	}
	site := Site{b.m, c.Span}
	classes := slices.Clone(b.m.Classes)
	slices.SortFunc(classes, func(x, y *Class) int { return strings.Compare(x.Name, y.Name) })
	for _, cl := range classes {
		if cl.QualName != cl.Name || !b.ev.isTestCase(cl) {
			continue
		}
		var tests []string
		for _, name := range b.ev.methodNames(cl) {
			if strings.HasPrefix(name, "test") {
				tests = append(tests, name)
			}
		}
		if len(tests) == 0 {
			continue
		}
		var r callResult
		inst := b.ev.construct(&r, cl, unknownArgs, site)
		for _, e := range r.effects {
			b.effect(e)
		}
		for _, name := range tests {
			for _, step := range []string{"setUp", name, "tearDown"} {
				f := b.ev.method(cl, step, 0)
				if f == nil || f.Def == nil {
					continue
				}
				f.referenced = true
				fv := Value{Kind: VFunc, Func: f, Self: cl, Env: inst.Env}
				b.effect(effect{kind: effCall, fn: f, site: site, ctx: b.ev.contextFor(fv, unknownArgs())})
			}
		}
	}
}

// isTestRunner reports whether c calls a test runner (testRunners).
func (ev *evaluator) isTestRunner(c *syntax.Call, sc *Scope) bool {
	for _, v := range ev.expr(c.Func, sc) {
		if v.Kind == VPath {
			if _, ok := testRunners[v.Path]; ok {
				return true
			}
		}
	}
	return false
}

// isTestCase reports whether a local class derives, through local bases,
// from a library class named TestCase (unittest's, absltest's, a
// framework's subclass of them).
func (ev *evaluator) isTestCase(c *Class) bool {
	found := false
	var walk func(c *Class, depth int)
	walk = func(c *Class, depth int) {
		if depth > 8 || found {
			return
		}
		ev.eachBase(c, func(base []Value) bool {
			for _, bv := range base {
				switch {
				case bv.Kind == VPath && (bv.Path == "TestCase" || strings.HasSuffix(bv.Path, ".TestCase")):
					found = true
				case bv.Kind == VClass:
					walk(bv.Class, depth+1)
				}
			}
			return found
		})
	}
	walk(c, 0)
	return found
}
