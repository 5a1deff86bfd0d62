package model

import (
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Test functions are entries that nothing in the program calls
// (entries.go); pytest calls them, with the arguments their
// @pytest.mark.parametrize decorators list. allennlp's
//
//	@pytest.mark.parametrize("test_func", [_dist_load_ok, _dist_load_with_errors])
//	def test_load_state_dict_distributed(test_func):
//	    run_distributed_test([-1, -1], func=test_func)
//
// hands its gloo workers each listed function to run: read with test_func
// unknown, the workers' code could not be seen. An uncalled entry runs in
// the context that binds each parametrized parameter to the values listed
// for it (one context for all the rows: a parameter may take any of its
// values); its other parameters (fixtures) stay unknown.

// parametrizePaths are the decorators that list a test's arguments.
var parametrizePaths = map[string]bool{
	"pytest.mark.parametrize":  true,
	"_pytest.mark.parametrize": true,
}

// paramPaths are pytest.param(value, ..., id=...): one row of argvalues.
var paramPaths = map[string]bool{"pytest.param": true, "_pytest.mark.param": true}

// parametrizedContext is the context entry f runs in: its parametrized
// parameters bound to the values its decorators list; nil when it has none
// the model can read.
func (ev *evaluator) parametrizedContext(f *Function) *callContext {
	if f.Def == nil || len(f.Def.Decorators) == 0 {
		return nil
	}
	sc := f.Scope.Parent // where decorators are evaluated
	byName := map[string][]Value{}
	var names []string // in the order first listed
	for _, d := range f.Def.Decorators {
		c, ok := d.(*syntax.Call)
		if !ok || !ev.isPath(c.Func, sc, parametrizePaths) {
			continue
		}
		argnames := parametrizeNames(argExpr(c, 0, "argnames"))
		if len(argnames) == 0 {
			continue
		}
		for i, vs := range ev.parametrizeValues(argExpr(c, 1, "argvalues"), len(argnames), sc) {
			n := argnames[i]
			if _, seen := byName[n]; !seen {
				names = append(names, n)
			}
			byName[n] = add(byName[n], vs...)
		}
	}
	if len(names) == 0 {
		return nil
	}
	var args argList
	for _, n := range names {
		if len(byName[n]) > 0 {
			args.kw = append(args.kw, kwArg{name: n, values: byName[n]})
		}
	}
	return ev.contextFor(ev.funcValue(f), args)
}

// isPath reports whether e evaluates to one of the paths set in paths.
func (ev *evaluator) isPath(e syntax.Expr, sc *Scope, paths map[string]bool) bool {
	for _, v := range ev.expr(e, sc) {
		if v.Kind == VPath && paths[v.Path] {
			return true
		}
	}
	return false
}

// parametrizeNames are the parameter names argnames lists: "a", "a,b",
// ("a", "b") or ["a", "b"]; nil for anything else.
func parametrizeNames(e syntax.Expr) []string {
	var out []string
	switch e := e.(type) {
	case *syntax.String:
		if e.Interpolated {
			return nil
		}
		for _, n := range strings.Split(e.Value, ",") {
			if n = strings.TrimSpace(n); n != "" {
				out = append(out, n)
			}
		}
	case *syntax.Sequence:
		for _, el := range e.Elts {
			s, ok := el.(*syntax.String)
			if !ok || s.Interpolated {
				return nil
			}
			out = append(out, strings.TrimSpace(s.Value))
		}
	}
	return out
}

// parametrizeValues are, for each of n parameters, the values the rows of
// argvalues give it: a list or tuple display whose rows are values (one
// parameter), tuples of values (several), or pytest.param(...) calls; or a
// value the evaluator reads as a list of such rows. A parameter whose
// values cannot all be read gets unknown among them.
func (ev *evaluator) parametrizeValues(e syntax.Expr, n int, sc *Scope) [][]Value {
	if e == nil {
		return nil
	}
	out := make([][]Value, n)
	seq, ok := e.(*syntax.Sequence)
	if !ok {
		for _, row := range iterElems(ev.expr(e, sc)) {
			ev.addRowValue(out, row)
		}
		return out
	}
	for _, row := range seq.Elts {
		if c, ok := row.(*syntax.Call); ok && ev.isPath(c.Func, sc, paramPaths) {
			ev.addRowExprs(out, positionalArgs(c), sc)
			continue
		}
		if n == 1 {
			ev.addRowExprs(out, []syntax.Expr{row}, sc)
			continue
		}
		if t, ok := row.(*syntax.Sequence); ok && t.Kind != syntax.Set {
			ev.addRowExprs(out, t.Elts, sc)
			continue
		}
		for _, v := range ev.expr(row, sc) {
			ev.addRowValue(out, v)
		}
	}
	return out
}

// addRowExprs adds one row given as expressions, one per parameter.
func (ev *evaluator) addRowExprs(out [][]Value, row []syntax.Expr, sc *Scope) {
	for i := range out {
		if i < len(row) {
			out[i] = add(out[i], ev.expr(row[i], sc)...)
		} else {
			out[i] = add(out[i], unknown()...)
		}
	}
}

// addRowValue adds one row given as a value: the value itself for one
// parameter, its elements for several.
func (ev *evaluator) addRowValue(out [][]Value, row Value) {
	if len(out) == 1 {
		out[0] = add(out[0], row)
		return
	}
	for i := range out {
		if row.Kind == VList && i < len(row.elems()) {
			out[i] = add(out[i], row.elems()[i])
		} else {
			out[i] = add(out[i], unknown()...)
		}
	}
}

// positionalArgs are a call's positional argument expressions, up to the
// first *args.
func positionalArgs(c *syntax.Call) []syntax.Expr {
	var out []syntax.Expr
	for _, a := range c.Args {
		if a.Star != 0 {
			break
		}
		if a.Keyword == "" {
			out = append(out, a.Value)
		}
	}
	return out
}
