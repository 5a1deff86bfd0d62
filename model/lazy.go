package model

import "github.com/cudaforklint/cudaforklint/syntax"

// Lazy imports (PEP 810, Python 3.15). A module-level import made lazy, by
// the soft keyword (`lazy import cudf`, `lazy from pycuda import autoinit`)
// or because the module's __lazy_modules__ names the imported module (set
// before the import statement runs), binds a proxy instead of importing: the
// import runs, with everything it does, where the bound name is first used
// (read as a global, from any function, or at the top level), not at the
// import line. So an initializing import (`import cudf`, a local module with
// top-level CUDA) used only in the children, or only under the main guard
// after the forkserver imported __main__, no longer initializes CUDA where
// the forkserver or a fork would inherit it.
//
// In the summaries this is an evLazy event, resolved per target by the
// simulation: where the version has lazy imports (3.15+) its first arm runs,
// elsewhere its second. A lazy import statement contributes its effects to
// the second arm only (before 3.15 __lazy_modules__ is an ordinary variable
// and the import is eager), and every read of a name it binds contributes
// them to the first arm, located at the read: the first read reached is
// where CUDA gets initialized, the later ones change nothing (an
// initialization is recorded once per site and once is enough).
//
// A module that uses the keyword is a SyntaxError before 3.15: its body runs
// nothing there (topSummary wraps it in an evLazy), so its findings hold on
// 3.15 only. The keyword where CPython refuses it even in 3.15 (in a
// function, a class body or a try statement) leaves the import eager, as
// are imports __lazy_modules__ cannot make lazy (those places, star imports,
// __future__). Not modelled: reification through another module's attribute
// (`other.lazy_name`), the global lazy-imports switch (-X lazy_imports,
// sys.set_lazy_imports), and __lazy_modules__ built by anything but a
// literal list, tuple or set of strings.

// lazyImports is what a module imports lazily.
type lazyImports struct {
	// keyword: the module uses the `lazy` soft keyword.
	keyword bool
	// aliases holds the imported names made lazy, keyed by the span of
	// their alias, which is also the span of the binding they make.
	aliases map[syntax.Span]lazyAlias
}

// lazyAlias is one lazily imported name and its statement.
type lazyAlias struct {
	imp     *syntax.Import     // one of imp and from is set
	from    *syntax.ImportFrom //
	alias   syntax.Alias
	keyword bool // made lazy by the keyword (else by __lazy_modules__)
}

// lazyImports returns (computing once) what m imports lazily; nil when
// nothing.
func (m *Module) lazyImports() *lazyImports {
	if m.lazy == nil {
		m.lazy = findLazyImports(m.File)
	}
	if m.lazy.keyword || len(m.lazy.aliases) > 0 {
		return m.lazy
	}
	return nil
}

// findLazyImports walks the module-level statements, where imports can be
// lazy (not in functions, classes or try statements).
func findLazyImports(f *syntax.File) *lazyImports {
	li := &lazyImports{}
	var modules []lazyModulesAt // __lazy_modules__ assignments, in order
	var walk func(list []syntax.Stmt)
	walk = func(list []syntax.Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *syntax.Assign:
				if names, ok := lazyModulesValue(s); ok {
					modules = append(modules, lazyModulesAt{s.Start, names})
				}
			case *syntax.Import:
				for _, a := range s.Names {
					if s.Lazy || listedBefore(modules, a.Name, s.Start) {
						li.add(lazyAlias{imp: s, alias: a, keyword: s.Lazy})
					}
				}
			case *syntax.ImportFrom:
				if s.Star || s.Module == "__future__" || !(s.Lazy || s.Level == 0 && listedBefore(modules, s.Module, s.Start)) {
					continue
				}
				for _, a := range s.Names {
					li.add(lazyAlias{from: s, alias: a, keyword: s.Lazy})
				}
			case *syntax.If:
				walk(s.Body)
				walk(s.Else)
			case *syntax.For:
				walk(s.Body)
				walk(s.Else)
			case *syntax.While:
				walk(s.Body)
				walk(s.Else)
			case *syntax.With:
				walk(s.Body)
			case *syntax.Match:
				for _, c := range s.Cases {
					walk(c.Body)
				}
			}
		}
	}
	walk(f.Body)
	// The keyword anywhere makes the module 3.15-only, even where it does
	// not make an import lazy.
	for _, s := range f.Body {
		syntax.Inspect(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Import:
				li.keyword = li.keyword || n.Lazy
			case *syntax.ImportFrom:
				li.keyword = li.keyword || n.Lazy
			case *syntax.FunctionDef:
				return !holdsNoImports(n)
			case syntax.Expr:
				return false // imports are statements
			}
			return !li.keyword
		})
	}
	return li
}

func (li *lazyImports) add(a lazyAlias) {
	if li.aliases == nil {
		li.aliases = map[syntax.Span]lazyAlias{}
	}
	li.aliases[a.alias.Span] = a
}

// lazyModulesAt is an assignment of __lazy_modules__ and the names in it.
type lazyModulesAt struct {
	at    int32
	names []string
}

// lazyModulesValue reads `__lazy_modules__ = [...]` (or a tuple, a set,
// set([...]), frozenset({...})) of string literals.
func lazyModulesValue(s *syntax.Assign) ([]string, bool) {
	if s.Value == nil || len(s.Targets) != 1 || s.Op != "=" && s.Op != "" {
		return nil, false
	}
	if n, ok := s.Targets[0].(*syntax.Name); !ok || n.ID != "__lazy_modules__" {
		return nil, false
	}
	v := s.Value
	if c, ok := v.(*syntax.Call); ok && len(c.Args) == 1 {
		if f, ok := c.Func.(*syntax.Name); ok && (f.ID == "set" || f.ID == "frozenset") {
			v = c.Args[0].Value
		}
	}
	seq, ok := v.(*syntax.Sequence)
	if !ok {
		return nil, false
	}
	var names []string
	for _, e := range seq.Elts {
		if str, ok := e.(*syntax.String); ok && !str.Interpolated {
			names = append(names, str.Value)
		}
	}
	return names, true
}

// listedBefore reports whether an assignment of __lazy_modules__ before
// offset at names module.
func listedBefore(modules []lazyModulesAt, module string, at int32) bool {
	for _, l := range modules {
		if l.at >= at {
			continue
		}
		for _, n := range l.names {
			if n == module {
				return true
			}
		}
	}
	return false
}

// lazyImport emits a lazy import statement s (module level): nothing where
// imports can be lazy, the import's effects elsewhere (__lazy_modules__ is
// an ordinary variable before 3.15; the keyword is a SyntaxError there,
// and its module runs nothing). It reports whether s was lazy, in whole or
// part; the imports of s that are not lazy are emitted as usual.
func (b *builder) lazyImport(s syntax.Stmt) bool {
	if !b.top || b.sc != b.m.Scope {
		return false
	}
	li := b.m.lazyImports()
	if li == nil {
		return false
	}
	var names []syntax.Alias
	switch s := s.(type) {
	case *syntax.Import:
		names = s.Names
	case *syntax.ImportFrom:
		names = s.Names
	}
	if len(names) == 0 {
		return false
	}
	lazy := false
	for _, a := range names {
		_, ok := li.aliases[a.Span]
		lazy = lazy || ok
	}
	if !lazy {
		return false
	}
	// A from-import is lazy as a whole; an import, name by name.
	for _, a := range names {
		la, ok := li.aliases[a.Span]
		if !ok {
			b.importName(a.Name, 0, a.Span)
			continue
		}
		if la.keyword {
			continue
		}
		eager := b.sub(func() { b.importAlias(la) })
		if len(eager) > 0 {
			b.emit(event{kind: evLazy, arms: [][]event{nil, eager}})
		}
	}
	return true
}

// importAlias emits the effects of importing one name of a statement.
func (b *builder) importAlias(la lazyAlias) {
	if la.imp != nil {
		b.importName(la.alias.Name, 0, la.alias.Span)
		return
	}
	one := *la.from
	one.Names = []syntax.Alias{la.alias}
	b.importFrom(&one)
}

// lazyRead emits, for a read of a name bound by a lazy import, the import's
// effects where imports are lazy, at the read.
func (b *builder) lazyRead(n *syntax.Name) {
	li := b.m.lazyImports()
	if li == nil || len(li.aliases) == 0 {
		return
	}
	for _, bd := range lookup(n.ID, b.sc) {
		if bd.Kind != BindImport && bd.Kind != BindImportFrom || bd.Scope != b.m.Scope {
			continue
		}
		la, ok := li.aliases[bd.Span]
		if !ok {
			continue
		}
		events := b.sub(func() { b.importAlias(la) })
		if len(events) == 0 {
			continue
		}
		atRead(events, Site{b.m, n.Span})
		b.emit(event{kind: evLazy, arms: [][]event{events, nil}})
	}
}

// atRead moves the effects of a reified import to the read that reifies it.
func atRead(events []event, site Site) {
	for i := range events {
		e := &events[i]
		if e.kind != evEffect {
			continue
		}
		e.eff.site = site
		if e.eff.kind == effInit || e.eff.kind == effUse {
			e.eff.api = "lazy " + e.eff.api
		}
	}
}

// onlyWithLazySyntax wraps a module body that uses the `lazy` keyword so that
// it runs only where the keyword exists.
func (m *Module) onlyWithLazySyntax(events []event) []event {
	if li := m.lazyImports(); li == nil || !li.keyword || len(events) == 0 {
		return events
	}
	return []event{{kind: evLazy, arms: [][]event{events, nil}}}
}
