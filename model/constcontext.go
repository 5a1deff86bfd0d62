package model

import "github.com/cudaforklint/cudaforklint/syntax"

// Constant contexts: the call's constants alone. A call gets no context of
// its own when it binds nothing informative (parallel_map(fn, items), fn a
// library function, num_proc left at its default), or when its function has
// all the contexts it may have (datasets' map_nested, called from dozens of
// places with other functions and structures). The function is then read as
// it is everywhere else, each parameter "unknown, or its default", and a
// helper that starts a Pool only when num_proc > 1 starts it on every call,
// although the call, defaults included, settles the test the other way.
//
// Such a call gets a constant context instead, when it binds a constant
// that decides something: a parameter the function's tests read or hands
// to a call (decidingParams) gets the constant the call passes or the
// default it leaves; every other parameter the call passes is unknown (what
// the function's own reading gives it too), and the receiver stays. Calls
// with the same constants share one, and each function may have at most
// maxConstContextsPerFunc of them per module simulated as __main__, apart
// from the budget of full contexts, so that falling back never takes a
// full context's place. A call whose constants decide nothing, of a
// function a decorator may call with other arguments, or over that budget
// too, is read with no context, as before.

const maxConstContextsPerFunc = 8

// constContext returns the constant context of calling f with the
// parameters the probe c binds (a full context the call could not have),
// or nil.
func (ev *evaluator) constContext(c *callContext) *callContext {
	f := c.fn
	deciding := f.decidingParams()
	if len(deciding) == 0 || !ev.argumentsAsWritten(f) {
		return nil
	}
	vs := f.Module.Prog.values()
	k := &callContext{fn: f, outer: c.outer, params: vs.borrowParams(), complete: c.complete, backend: c.backend}
	worth := false
	ps := f.Params()
	for j := range ps {
		b := paramBinding(f, j)
		v, passed := c.params[b]
		switch {
		case j == 0 && f.Class != nil && passed && len(v) == 1 && v[0].Kind == VInstance:
			k.params[b] = v // self or cls: methods resolve through it
		case !slicesContain(deciding, ps[j].Name):
			if passed {
				k.params[b] = unknown()
			}
		case passed:
			if allScalar(v) {
				k.params[b] = v
				worth = true
			} else {
				k.params[b] = unknown()
			}
		case c.complete && ps[j].Default != nil:
			// Left at its default: paramIn gives the default alone.
			worth = worth || allScalar(ev.expr(ps[j].Default, lookupParent(f.Scope.Parent)))
		}
	}
	if worth {
		if got := vs.intern(k, vs.perFuncConst, maxConstContextsPerFunc); got != nil {
			return got
		}
	}
	vs.returnParams(k.params)
	return nil
}

// argumentsAsWritten reports whether every decorator of f runs it with the
// arguments its callers write: a decorator the model does not know may
// supply or rewrite them (detectron2's @configurable fills
// build_detection_test_loader's num_workers, default 0, from the config),
// and then neither a default nor a constant tells what the body sees.
func (ev *evaluator) argumentsAsWritten(f *Function) bool {
	for _, d := range f.Decorators {
		callee := d
		if c, ok := d.(*syntax.Call); ok {
			callee = c.Func
		}
		if n, ok := callee.(*syntax.Name); ok && (n.ID == "staticmethod" || n.ID == "classmethod") {
			continue
		}
		vs := ev.expr(callee, f.Scope.Parent)
		if len(vs) == 0 {
			return false
		}
		for _, v := range vs {
			if v.Kind != VPath || !passthroughDecorator(v.Path) {
				return false
			}
		}
	}
	return true
}

// allScalar reports whether vs are known constants a test compares: ints,
// True, False, None, plain strings.
func allScalar(vs []Value) bool {
	if len(vs) == 0 {
		return false
	}
	for _, v := range vs {
		switch {
		case v.Kind == VInt, v.Kind == VConst, v.Kind == VStr && !v.Interp:
		default:
			return false
		}
	}
	return true
}

// decidingParams are the names of f's parameters that its own code (not
// that of the functions nested in it) reads in a test (if, elif, while, a
// conditional expression) or hands to a call as an argument: where
// a constant decides an arm or reaches a process API's worker count.
// Found once per function.
func (f *Function) decidingParams() []string {
	m := f.memos()
	if m.decidingDone {
		return m.deciding
	}
	m.decidingDone = true
	params := map[string]bool{}
	for _, p := range f.Params() {
		if p.Kind == syntax.ParamNormal || p.Kind == syntax.ParamKwOnly {
			params[p.Name] = true
		}
	}
	if len(params) == 0 {
		return nil
	}
	note := func(e syntax.Expr) {
		syntax.Inspect(e, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Lambda:
				return false
			case *syntax.Name:
				if params[n.ID] && !slicesContain(m.deciding, n.ID) {
					m.deciding = append(m.deciding, n.ID)
				}
			}
			return true
		})
	}
	visit := func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FunctionDef, *syntax.ClassDef, *syntax.Lambda:
			return false
		case *syntax.If:
			note(n.Test)
		case *syntax.While:
			note(n.Test)
		case *syntax.IfExp:
			note(n.Test)
		case *syntax.Call:
			for _, a := range n.Args {
				if name, ok := a.Value.(*syntax.Name); ok && params[name.ID] && !slicesContain(m.deciding, name.ID) {
					m.deciding = append(m.deciding, name.ID)
				}
			}
		}
		return true
	}
	switch {
	case f.Def != nil:
		// The walk keeps only names: a deferred body is decoded for it
		// and dropped.
		for _, s := range f.Def.ScanBody() {
			syntax.Inspect(s, visit)
		}
	case f.Lambda != nil:
		syntax.Inspect(f.Lambda.Body, visit)
	}
	return m.deciding
}
