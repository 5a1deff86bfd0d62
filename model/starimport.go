package model

import (
	"slices"
	"strings"
	"sync"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Star imports: `from pkg.mod import *` binds, in the importing module, every
// public name of pkg.mod: the names its __all__ lists, or, without one,
// every top-level name not starting with "_", the names it got by star
// imports of its own included. Research code leans on it (DGL's NGCF
// example takes test(), which forks a Pool, and args from
// `from utility.batch_test import *`); without it such names were unbound,
// and the hazards behind them unseen.
//
// The names a star import binds depend on another module, which the
// indexer cannot see (modules are loaded on demand, in parallel). So they
// are bound when the module's scope is first read (Scope.bindingsOf), each
// as a BindImportFrom of the name made by the star import statement: its
// position is the statement's, and binding order and dominance treat it
// like the `from pkg.mod import name` it stands for. Scope.Bindings keeps
// the bindings written in the module; the star-import ones live beside it,
// in the module's starImports, merged with the written ones in source
// order. Both are built once, under a sync.Once, from data fixed when the
// modules were indexed, so the result does not depend on which module asked
// first, nor on which goroutine.
//
// Star imports of libraries (`from torch import *`) bind nothing: which
// names they bind is the library's __all__, in the installed package (torch
// computes its own when imported), which the model does not read. A name
// that reaches no binding could as well be a builtin, a name of another
// star import or a NameError, so reading it as the library's attribute,
// even for the names the catalog knows (`from torch.cuda import *` then
// is_available()), would guess: an unbound name stays unknown, as it was.

// starImports is a module's star-import state.
type starImports struct {
	// stmts are the module's top-level `from m import *` statements, in
	// source order (Python allows them nowhere else).
	stmts []*syntax.ImportFrom

	bindOnce sync.Once
	// bound maps each name a star import binds to all of the name's
	// bindings in the module scope, the written ones and the star imports',
	// in source order.
	bound map[string][]*Binding

	exportOnce sync.Once
	exports    []string // see exportedNames

	allOnce    sync.Once
	all        []string // see dunderAll
	allLiteral bool
}

// bindingsOf returns the bindings of name in sc: those written there and,
// in a module's scope, those its star imports make.
func (sc *Scope) bindingsOf(name string) []*Binding {
	if sc.Kind == ModuleScope && sc.Module != nil && sc.Module.Scope == sc && len(sc.Module.star.stmts) > 0 {
		if bs, ok := sc.Module.starBindings()[name]; ok {
			return bs
		}
	}
	return sc.ownBindings()[name]
}

// starBindings builds, once, the bindings of m's star imports of local
// modules, merged with the module's own bindings of the same names.
func (m *Module) starBindings() map[string][]*Binding {
	st := &m.star
	st.bindOnce.Do(func() {
		bound := map[string][]*Binding{}
		for _, s := range st.stmts {
			from := m.importedModule(s.Module, s.Level)
			if from == nil {
				continue // a library, or the module itself: see above
			}
			for _, name := range from.exportedNames() {
				b := new(Binding)
				*b = importBinding(BindImportFrom, name, s.Span, JoinDotted(fromModuleName(s), name), name)
				b.Scope, b.star = m.Scope, true
				bs, ok := bound[name]
				if !ok {
					bs = slices.Clone(m.Scope.Bindings[name])
				}
				bound[name] = insertBinding(bs, b)
			}
		}
		st.bound = bound
	})
	return st.bound
}

// insertBinding inserts b before the first binding made after it, keeping
// the others in their order.
func insertBinding(bs []*Binding, b *Binding) []*Binding {
	i := 0
	for i < len(bs) && bs[i].Span.Start <= b.Span.Start {
		i++
	}
	return slices.Insert(bs, i, b)
}

// exportedNames are the names `from m import *` binds, sorted: the names
// m's __all__ lists when it is literal (dunderAll), else every public name
// m binds at its top level, its own star imports' included. A cycle of
// star imports (a imports * from b, b from a) gives each module what the
// whole cycle binds: Python's answer depends on which module is imported
// first, and this one contains both.
func (m *Module) exportedNames() []string {
	st := &m.star
	st.exportOnce.Do(func() {
		if all, ok := m.dunderAll(); ok {
			st.exports = all
			return
		}
		names := map[string]bool{}
		seen := map[*Module]bool{m: true}
		var walk func(x *Module)
		walk = func(x *Module) {
			for name := range x.topLevelNames() {
				if isPublic(name) {
					names[name] = true
				}
			}
			for _, s := range x.star.stmts {
				y := x.importedModule(s.Module, s.Level)
				if y == nil {
					continue
				}
				if all, ok := y.dunderAll(); ok {
					for _, name := range all {
						if isPublic(name) {
							names[name] = true
						}
					}
					continue
				}
				if !seen[y] {
					seen[y] = true
					walk(y)
				}
			}
		}
		walk(m)
		st.exports = sortedKeys(names)
	})
	return st.exports
}

// isPublic reports whether a star import of a module without __all__
// takes the name.
func isPublic(name string) bool { return !strings.HasPrefix(name, "_") }

// topLevelNames are the names m's own statements bind when it is imported:
// its module scope's bindings, but for comprehension variables (a scope of
// their own in Python 3) and names bound only under a main guard, which
// runs only when m is the main module.
func (m *Module) topLevelNames() map[string]bool {
	out := map[string]bool{}
	for name, bs := range m.Scope.Bindings {
		for _, b := range bs {
			if !b.comprehension && !m.mainOnly(b.Span) {
				out[name] = true
				break
			}
		}
	}
	return out
}

// mainOnly reports whether code at sp runs only when m is the main module:
// it lies in the body of a main guard that nothing else joins.
func (m *Module) mainOnly(sp syntax.Span) bool {
	for _, g := range m.Guards {
		if g.Kind != NameGuard || g.Partial || len(g.Body) == 0 {
			continue
		}
		if listSpan(g.Body).Contains(sp) {
			return true
		}
	}
	return false
}

// dunderAll returns the names m's __all__ lists, and whether they are
// known: every assignment of __all__ at m's top level is a list or tuple of
// string literals (or a sum of them), and every change to it there
// (`__all__ += [...]`, `__all__.extend([...])`, `__all__.append("x")`) adds
// literals. Anything else (`__all__ = sub.__all__ + [...]`, an assignment
// in a function) leaves __all__ unknown, and a star import takes every
// public name instead, which holds whatever __all__ is made of but the
// private names it may list.
func (m *Module) dunderAll() ([]string, bool) {
	st := &m.star
	st.allOnce.Do(func() {
		st.all, st.allLiteral = m.dunderAllUncached()
	})
	return st.all, st.allLiteral
}

func (m *Module) dunderAllUncached() ([]string, bool) {
	const all = "__all__"
	bs := m.Scope.Bindings[all]
	if len(bs) == 0 {
		return nil, false
	}
	names := map[string]bool{}
	for _, b := range bs {
		if b.Kind != BindAssign || len(b.Index()) > 0 || b.Scope != m.Scope || !stringLiterals(b.Value, names) {
			return nil, false
		}
	}
	literal := true
	eachBlock(m.File.Body, false, func(block []syntax.Stmt, _ bool) {
		for _, s := range block {
			switch s := s.(type) {
			case *syntax.Assign:
				if s.Op != "=" && isName(s.Targets, all) && (s.Op != "+=" || !stringLiterals(s.Value, names)) {
					literal = false
				}
			case *syntax.ExprStmt:
				c, ok := s.X.(*syntax.Call)
				if !ok {
					continue
				}
				a, ok := c.Func.(*syntax.Attribute)
				if !ok {
					continue
				}
				if x, ok := a.X.(*syntax.Name); !ok || x.ID != all {
					continue
				}
				switch {
				case a.Attr == "extend" && len(c.Args) == 1 && c.Args[0].Keyword == "" && c.Args[0].Star == 0 && stringLiterals(c.Args[0].Value, names):
				case a.Attr == "append" && len(c.Args) == 1 && c.Args[0].Keyword == "" && c.Args[0].Star == 0 && stringLiteral(c.Args[0].Value, names):
				default:
					literal = false
				}
			}
		}
	})
	if !literal {
		return nil, false
	}
	return sortedKeys(names), true
}

// stringLiterals adds to names the strings of a list or tuple display of
// string literals, or of a sum of such displays, and reports whether e is
// one.
func stringLiterals(e syntax.Expr, names map[string]bool) bool {
	switch e := e.(type) {
	case *syntax.Sequence:
		if e.Kind == syntax.Set {
			return false
		}
		for _, el := range e.Elts {
			if !stringLiteral(el, names) {
				return false
			}
		}
		return true
	case *syntax.BinOp:
		return e.Op == "+" && stringLiterals(e.X, names) && stringLiterals(e.Y, names)
	}
	return false
}

// stringLiteral adds a plain string literal to names and reports whether
// e is one.
func stringLiteral(e syntax.Expr, names map[string]bool) bool {
	s, ok := e.(*syntax.String)
	if !ok || s.Interpolated {
		return false
	}
	names[s.Value] = true
	return true
}

// isName reports whether targets is the single name id.
func isName(targets []syntax.Expr, id string) bool {
	return len(targets) == 1 && isNameExpr(targets[0], id)
}

// starSubmodules are the submodules `from pkg import *` imports: the names
// pkg's literal __all__ lists that pkg does not bind but that name a local
// module of the package (Python imports them, as `from pkg import sub`
// would).
func (m *Module) starSubmodules(s *syntax.ImportFrom) []*Module {
	from := m.importedModule(s.Module, s.Level)
	if from == nil {
		return nil
	}
	all, ok := from.dunderAll()
	if !ok {
		return nil
	}
	var out []*Module
	for _, name := range all {
		if len(from.Scope.bindingsOf(name)) > 0 {
			continue
		}
		if sub := m.importedModule(JoinDotted(s.Module, name), s.Level); sub != nil {
			out = append(out, sub)
		}
	}
	return out
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
