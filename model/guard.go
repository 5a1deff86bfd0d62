package model

import "github.com/cudaforklint/cudaforklint/syntax"

// Main guards: the top-level if statements whose arms run only in the main
// module, or only outside it. As written in real code:
//
//   - `if __name__ == "__main__":` and its spellings: `"__main__" ==
//     __name__`, `in ("__main__",)`, `is`, the negated `!=` whose else arm is
//     the guarded code, `not`;
//   - a conjunction or disjunction with another condition (`if __name__ ==
//     "__main__" and args.train:`): its body runs only as main, but not
//     always;
//   - an early exit, `if __name__ != "__main__": sys.exit()` (or raise,
//     exit(), quit(), os._exit()): every statement after it runs only as
//     main. (Spawn and forkserver children that re-import such a module exit
//     while bootstrapping and never run their target: measured on CPython
//     3.11, a Process exits with code 0 having done nothing, a Pool hangs.)
//   - `if multiprocessing.current_process().name == "MainProcess":`, a guard
//     of another kind: spawn and forkserver children are named after their
//     process ("SpawnPoolWorker-1", "ForkServerProcess-2") before they import
//     the main module, so they skip it; but the forkserver process itself is
//     named MainProcess, so on the versions where it imports the main module
//     (pytarget.Config.ForkserverImportsMain) it runs the body.
//
// `multiprocessing.parent_process() is None` is not a guard: a spawn child
// learns its parent only after it has imported the main module (in
// BaseProcess._bootstrap), so the test is true in the child too (measured on
// CPython 3.11 under spawn and forkserver).

// GuardKind says what a main guard's test asks.
type GuardKind uint8

const (
	// NameGuard asks whether the module is __main__.
	NameGuard GuardKind = iota
	// ProcessGuard asks whether the process is named MainProcess.
	ProcessGuard
)

// Guard is one top-level main guard.
type Guard struct {
	If   *syntax.If
	Kind GuardKind
	// Body is the code that runs only as main (only in the process named
	// MainProcess, for a ProcessGuard): an arm of the if, and for an early
	// exit the statements after it.
	Body []syntax.Stmt
	// Negated is set when the test is true outside the main module
	// (`if __name__ != "__main__":`): Body is then its else arm.
	Negated bool
	// Partial is set when another condition joins the test (`and`, `or`):
	// Body may not run as main, or may run outside it too.
	Partial bool
	// EarlyExit is set when the arm that runs outside the main module ends
	// the import (sys.exit(), raise): Body is what follows the if statement.
	EarlyExit bool
}

// Plain reports whether g is the canonical `if __name__ == "__main__":`,
// the one a fix may move code into.
func (g Guard) Plain() bool {
	return g.Kind == NameGuard && !g.Negated && !g.Partial && !g.EarlyExit
}

// truth is what a test evaluates to in one case.
type truth uint8

const (
	tFalse truth = iota
	tTrue
	tMaybe
)

func (t truth) not() truth {
	switch t {
	case tTrue:
		return tFalse
	case tFalse:
		return tTrue
	}
	return tMaybe
}

func and(a, b truth) truth {
	switch {
	case a == tFalse || b == tFalse:
		return tFalse
	case a == tTrue && b == tTrue:
		return tTrue
	}
	return tMaybe
}

func or(a, b truth) truth { return and(a.not(), b.not()).not() }

// guardTest is what a guard's test evaluates to as main and outside it.
type guardTest struct {
	kind            GuardKind
	asMain, notMain truth
}

// exact reports whether the test is decided by the guard alone.
func (g guardTest) exact() bool { return g.asMain != tMaybe && g.notMain != tMaybe }

// classifyGuard recognises a main-guard test.
func classifyGuard(e syntax.Expr) (guardTest, bool) {
	switch e := e.(type) {
	case *syntax.Compare:
		return guardCompare(e)
	case *syntax.UnaryOp:
		if e.Op != "not" {
			return guardTest{}, false
		}
		g, ok := classifyGuard(e.X)
		return guardTest{g.kind, g.asMain.not(), g.notMain.not()}, ok
	case *syntax.BoolOp:
		l, lok := classifyGuard(e.X)
		r, rok := classifyGuard(e.Y)
		switch {
		case lok && rok && l.kind != r.kind:
			return guardTest{}, false
		case !lok && !rok:
			return guardTest{}, false
		case !lok:
			l = guardTest{r.kind, tMaybe, tMaybe}
		case !rok:
			r = guardTest{l.kind, tMaybe, tMaybe}
		}
		op := and
		if e.Op == "or" {
			op = or
		}
		g := guardTest{l.kind, op(l.asMain, r.asMain), op(l.notMain, r.notMain)}
		return g, g.asMain != tMaybe || g.notMain != tMaybe
	}
	return guardTest{}, false
}

// guardCompare recognises `__name__ == "__main__"` and
// `current_process().name == "MainProcess"`, either way round, negated by
// `!=`, `not in`, `is not`.
func guardCompare(cmp *syntax.Compare) (guardTest, bool) {
	if len(cmp.Ops) != 1 {
		return guardTest{}, false
	}
	l, r := cmp.Left, cmp.Comparators[0]
	var kind GuardKind
	switch {
	case isNameDunder(l) && isStringOrSingleton(r, "__main__"), isStringOrSingleton(l, "__main__") && isNameDunder(r):
		kind = NameGuard
	case isProcessName(l) && isStringOrSingleton(r, "MainProcess"), isStringOrSingleton(l, "MainProcess") && isProcessName(r):
		kind = ProcessGuard
	default:
		return guardTest{}, false
	}
	switch cmp.Ops[0] {
	case "==", "in", "is":
		return guardTest{kind, tTrue, tFalse}, true
	case "!=", "not in", "is not":
		return guardTest{kind, tFalse, tTrue}, true
	}
	return guardTest{}, false
}

func isNameDunder(e syntax.Expr) bool {
	n, ok := e.(*syntax.Name)
	return ok && n.ID == "__name__"
}

// isStringOrSingleton is the literal "s", or a one-element tuple or list of it.
func isStringOrSingleton(e syntax.Expr, s string) bool {
	if seq, ok := e.(*syntax.Sequence); ok && len(seq.Elts) == 1 {
		e = seq.Elts[0]
	}
	st, ok := e.(*syntax.String)
	return ok && !st.Interpolated && st.Value == s
}

// isProcessName is `current_process().name`, the function reached by any
// module path (mp.current_process, multiprocessing.process.current_process).
func isProcessName(e syntax.Expr) bool {
	a, ok := e.(*syntax.Attribute)
	if !ok || a.Attr != "name" {
		return false
	}
	c, ok := a.X.(*syntax.Call)
	if !ok || len(c.Args) != 0 {
		return false
	}
	switch f := c.Func.(type) {
	case *syntax.Name:
		return f.ID == "current_process"
	case *syntax.Attribute:
		return f.Attr == "current_process"
	}
	return false
}

// arm is the statements an if runs when its test evaluates to t (both arms,
// as alternatives, when it may be either).
type arm struct {
	stmts []syntax.Stmt
	// alt is the other arm, when t is tMaybe.
	alt   []syntax.Stmt
	maybe bool
}

func armOf(s *syntax.If, t truth) arm {
	switch t {
	case tTrue:
		return arm{stmts: s.Body}
	case tFalse:
		return arm{stmts: s.Else}
	}
	return arm{stmts: s.Body, alt: s.Else, maybe: true}
}

// exits reports whether running the arm surely ends the import.
func (a arm) exits() bool {
	return terminates(a.stmts) && (!a.maybe || terminates(a.alt))
}

// terminates reports whether a statement list ends the import: it raises
// or calls sys.exit(), exit(), quit() or os._exit().
func terminates(list []syntax.Stmt) bool {
	for _, s := range list {
		switch s := s.(type) {
		case *syntax.OtherStmt:
			if s.Kind == "raise_statement" {
				return true
			}
		case *syntax.ExprStmt:
			if c, ok := s.X.(*syntax.Call); ok && isExitCall(c.Func) {
				return true
			}
		}
	}
	return false
}

func isExitCall(f syntax.Expr) bool {
	switch f := f.(type) {
	case *syntax.Name:
		return f.ID == "exit" || f.ID == "quit"
	case *syntax.Attribute:
		n, ok := f.X.(*syntax.Name)
		return ok && ((n.ID == "sys" && f.Attr == "exit") || (n.ID == "os" && f.Attr == "_exit"))
	}
	return false
}

// topGuards lists the main guards among a module's top-level statements.
func topGuards(body []syntax.Stmt) []Guard {
	var out []Guard
	for i, s := range body {
		ifs, ok := s.(*syntax.If)
		if !ok {
			continue
		}
		t, ok := classifyGuard(ifs.Test)
		if !ok {
			continue
		}
		main, other := armOf(ifs, t.asMain), armOf(ifs, t.notMain)
		g := Guard{If: ifs, Kind: t.kind, Body: ifs.Body, Negated: t.asMain == tFalse || t.notMain == tTrue, Partial: !t.exact()}
		if g.Negated {
			g.Body = ifs.Else
		}
		if other.exits() && !main.maybe && !main.exits() {
			g.EarlyExit = true
			g.Body = append(append([]syntax.Stmt(nil), main.stmts...), body[i+1:]...)
			out = append(out, g)
			break
		}
		out = append(out, g)
	}
	return out
}
