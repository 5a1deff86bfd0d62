package model

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
)

// Def-use queries on a module's global names, for fixes that move
// top-level code: which code reads a module-level name, and when that code
// runs. The answers over-approximate the reads (a name that might resolve
// to the global counts as a read of it), never the other way: a fix built
// on them must not leave a read without its binding.
//
// Python's scoping as used here: a name read in a function is global unless
// the function (or an enclosing function) binds it: a parameter, an
// assignment or augmented assignment, a for/with/except/import/def/class
// target, a del, a walrus anywhere in its body (comprehensions included),
// and no `global` declaration; `nonlocal` names belong to an enclosing
// function. Comprehension variables are local to the comprehension. Class
// bodies never hide a global here (their assignments are not reads; their
// reads count as global even when the class binds the name first). Names in
// match patterns are not in the syntax tree: a case's pattern text that
// mentions the name as a word counts as a read.

// GlobalRead is one place where code may read a module-level name.
type GlobalRead struct {
	Name string
	Span syntax.Span // the name as written
	// Stmt is the index in File.Body of the top-level statement holding
	// the read.
	Stmt int
	// Deferred is set when the read is inside a function, lambda or
	// generator expression: it runs when that is called or iterated, not
	// when Stmt runs.
	Deferred bool
	// Called is set when the read is the callee of a call, `name(...)`.
	Called bool
	// Func names the innermost def or lambda holding a deferred read
	// ("worker", "Dataset.__getitem__", "<lambda>"), "" otherwise.
	Func string
}

// GlobalReads returns every read of a module-level name in m, in source
// order.
func (m *Module) GlobalReads() []GlobalRead {
	w := &defUse{m: m}
	mod := &duScope{kind: duModule}
	for i, s := range m.File.Body {
		w.stmt = i
		w.stmts([]syntax.Stmt{s}, mod, duCtx{})
	}
	sort.SliceStable(w.reads, func(i, j int) bool { return w.reads[i].Span.Start < w.reads[j].Span.Start })
	return w.reads
}

// TopLevelBinds returns the module-level names that top-level statement s
// binds when it runs: assignment targets, imports, defs and classes, loop,
// with and except targets, walrus targets and del targets, in s and in the
// blocks of s, but not in the bodies of the functions and classes it
// defines.
func TopLevelBinds(s syntax.Stmt) map[string]bool {
	sc := &duScope{kind: duFunction, locals: map[string]bool{}}
	collectLocals([]syntax.Stmt{s}, sc)
	return sc.locals
}

// DynamicGlobalAccess returns a place where m reaches its module namespace
// without naming the global (globals(), vars(), locals() at the top level,
// eval, exec, __import__, sys.modules, `import __main__`), and whether it
// has one: no def-use answer holds for such a module.
func (m *Module) DynamicGlobalAccess() (syntax.Span, bool) {
	var at syntax.Span
	found := false
	for _, s := range m.File.Body {
		syntax.InspectScan(s, func(n syntax.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *syntax.Name:
				switch n.ID {
				case "globals", "vars", "locals", "eval", "exec", "__import__":
					at, found = n.Span, true
				}
			case *syntax.Attribute:
				if x, ok := n.X.(*syntax.Name); ok && x.ID == "sys" && n.Attr == "modules" {
					at, found = n.Span, true
				}
			case *syntax.Import:
				for _, a := range n.Names {
					if a.Name == "__main__" {
						at, found = a.Span, true
					}
				}
			case *syntax.ImportFrom:
				if n.Module == "__main__" && n.Level == 0 {
					at, found = n.Span, true
				}
			}
			return !found
		})
		if found {
			break
		}
	}
	return at, found
}

// ImportedBy returns the other modules of the program, among those loaded
// so far, that import m, with the import statement: code there reads m's
// globals. A module imports m when it names m's module name, or when it
// imports __main__ and m imports it (directly or not), so that it runs in
// m's program.
func (m *Module) ImportedBy() []ModuleImport {
	if m.Prog == nil {
		return nil
	}
	mods := m.Prog.Loaded()
	inProgram := reachable(m, mods)
	var out []ModuleImport
	for _, o := range mods {
		if o == m {
			continue
		}
		for _, imp := range importedNames(o) {
			if imp.name == m.Name || imp.name == "__main__" && inProgram[o] {
				out = append(out, ModuleImport{o, imp.span})
			}
		}
	}
	return out
}

type importedName struct {
	name string
	span syntax.Span
}

// importedNames lists the modules an import statement anywhere in m names,
// with relative imports resolved against m's package: `import a.b` names
// a and a.b, `from a import b` names a and a.b.
func importedNames(m *Module) []importedName {
	var out []importedName
	pkg := m.Name
	if filepath.Base(m.Path) != "__init__.py" {
		if i := strings.LastIndexByte(pkg, '.'); i >= 0 {
			pkg = pkg[:i]
		} else {
			pkg = ""
		}
	}
	for _, s := range m.File.Body {
		syntax.Inspect(s, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.FunctionDef:
				return !holdsNoImports(n)
			case *syntax.Import:
				for _, a := range n.Names {
					parts := strings.Split(a.Name, ".")
					for i := range parts {
						out = append(out, importedName{strings.Join(parts[:i+1], "."), n.Span})
					}
				}
			case *syntax.ImportFrom:
				base := n.Module
				if n.Level > 0 {
					up := pkg
					for i := 1; i < n.Level && up != ""; i++ {
						if j := strings.LastIndexByte(up, '.'); j >= 0 {
							up = up[:j]
						} else {
							up = ""
						}
					}
					base = JoinDotted(up, n.Module)
				}
				out = append(out, importedName{base, n.Span})
				for _, a := range n.Names {
					out = append(out, importedName{JoinDotted(base, a.Name), n.Span})
				}
			}
			return true
		})
	}
	return out
}

// reachable returns the modules among mods that m imports, directly or
// through others.
func reachable(m *Module, mods []*Module) map[*Module]bool {
	byName := map[string]*Module{}
	for _, o := range mods {
		byName[o.Name] = o
	}
	seen := map[*Module]bool{m: true}
	for work := []*Module{m}; len(work) > 0; {
		x := work[0]
		work = work[1:]
		for _, imp := range importedNames(x) {
			if o := byName[imp.name]; o != nil && !seen[o] {
				seen[o] = true
				work = append(work, o)
			}
		}
	}
	return seen
}

// ModuleImport is an import statement in another module.
type ModuleImport struct {
	By   *Module
	Span syntax.Span
}

type duKind uint8

const (
	duModule duKind = iota
	duFunction
	duClass
	duComprehension
)

// duScope is a namespace during the walk.
type duScope struct {
	kind   duKind
	locals map[string]bool // function and comprehension scopes
	parent *duScope
}

// global reports whether a read of name in sc may resolve to the module
// namespace.
func (sc *duScope) global(name string) bool {
	for s := sc; s != nil; s = s.parent {
		if (s.kind == duFunction || s.kind == duComprehension) && s.locals[name] {
			return false
		}
	}
	return true
}

// duCtx is where the walk is: inside a function body or not.
type duCtx struct {
	deferred bool
	fn       string // innermost def or lambda
	prefix   string // qualified-name prefix for defs ("C.")
}

type defUse struct {
	m     *Module
	stmt  int
	reads []GlobalRead
}

func (w *defUse) read(n *syntax.Name, sc *duScope, c duCtx, called bool) {
	if sc.global(n.ID) {
		w.reads = append(w.reads, GlobalRead{Name: n.ID, Span: n.Span, Stmt: w.stmt, Deferred: c.deferred, Func: c.fn, Called: called})
	}
}

func (w *defUse) stmts(list []syntax.Stmt, sc *duScope, c duCtx) {
	for _, s := range list {
		w.stmt1(s, sc, c)
	}
}

func (w *defUse) stmt1(s syntax.Stmt, sc *duScope, c duCtx) {
	switch s := s.(type) {
	case *syntax.FunctionDef:
		w.exprs(s.Decorators, sc, c)
		for i := range s.Params {
			w.expr(s.Params[i].Default, sc, c)
		}
		w.annotations(s, sc, c)
		fs := &duScope{kind: duFunction, locals: map[string]bool{}, parent: enclosing(sc)}
		for _, p := range s.Params {
			fs.locals[p.Name] = true
		}
		collectLocals(s.Body(), fs)
		qual := c.prefix + s.Name
		w.stmts(s.Body(), fs, duCtx{deferred: true, fn: qual, prefix: qual + ".<locals>."})
	case *syntax.ClassDef:
		w.exprs(s.Decorators, sc, c)
		for i := range s.Bases {
			w.expr(s.Bases[i].Value, sc, c)
		}
		cs := &duScope{kind: duClass, parent: sc}
		cc := c
		cc.prefix = c.prefix + s.Name + "."
		w.stmts(s.Body, cs, cc)
	case *syntax.Assign:
		for _, t := range s.Targets {
			w.target(t, sc, c, s.Op != "=" && s.Op != "")
		}
		if sc.kind != duFunction {
			w.expr(s.Annotation, sc, c)
		}
		w.expr(s.Value, sc, c)
	case *syntax.For:
		w.expr(s.Iter, sc, c)
		w.target(s.Target, sc, c, false)
		w.stmts(s.Body, sc, c)
		w.stmts(s.Else, sc, c)
	case *syntax.With:
		for _, it := range s.Items {
			w.expr(it.Value, sc, c)
			w.target(it.Target, sc, c, false)
		}
		w.stmts(s.Body, sc, c)
	case *syntax.If:
		w.expr(s.Test, sc, c)
		w.stmts(s.Body, sc, c)
		w.stmts(s.Else, sc, c)
	case *syntax.While:
		w.expr(s.Test, sc, c)
		w.stmts(s.Body, sc, c)
		w.stmts(s.Else, sc, c)
	case *syntax.Try:
		w.stmts(s.Body, sc, c)
		for _, h := range s.Handlers {
			w.expr(h.Type, sc, c)
			w.stmts(h.Body, sc, c)
		}
		w.stmts(s.Else, sc, c)
		w.stmts(s.Finally, sc, c)
	case *syntax.Match:
		w.expr(s.Subject, sc, c)
		for _, mc := range s.Cases {
			w.patternReads(mc, sc, c)
			w.expr(mc.Guard, sc, c)
			w.stmts(mc.Body, sc, c)
		}
	case *syntax.ExprStmt:
		w.expr(s.X, sc, c)
	case *syntax.Return:
		w.expr(s.Value, sc, c)
	case *syntax.OtherStmt:
		// del, assert, raise, ...: a del of a global needs it bound, so
		// every name here counts as a read.
		w.exprs(s.Exprs, sc, c)
	case *syntax.Import, *syntax.ImportFrom, *syntax.Global:
	}
}

// enclosing is the scope a function's body sees around it: class bodies
// are skipped.
func enclosing(sc *duScope) *duScope {
	for sc != nil && sc.kind == duClass {
		sc = sc.parent
	}
	return sc
}

// target walks an assignment target: names are stores (reads too for an
// augmented assignment); subscripts and attributes read their object.
func (w *defUse) target(t syntax.Expr, sc *duScope, c duCtx, augmented bool) {
	switch t := t.(type) {
	case nil:
	case *syntax.Name:
		if augmented {
			w.read(t, sc, c, false)
		}
	case *syntax.Sequence:
		for _, e := range t.Elts {
			w.target(e, sc, c, augmented)
		}
	case *syntax.Starred:
		w.target(t.X, sc, c, augmented)
	default:
		w.expr(t, sc, c)
	}
}

func (w *defUse) exprs(es []syntax.Expr, sc *duScope, c duCtx) {
	for _, e := range es {
		w.expr(e, sc, c)
	}
}

// expr walks an expression: names are reads, except walrus targets; calls
// mark their callee; lambdas, comprehensions and generator expressions get
// their own scopes.
func (w *defUse) expr(e syntax.Expr, sc *duScope, c duCtx) {
	if e == nil {
		return
	}
	syntax.Inspect(e, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Name:
			w.read(n, sc, c, false)
		case *syntax.Call:
			if f, ok := n.Func.(*syntax.Name); ok {
				w.read(f, sc, c, true)
			} else {
				w.expr(n.Func, sc, c)
			}
			for _, a := range n.Args {
				w.expr(a.Value, sc, c)
			}
			return false
		case *syntax.NamedExpr:
			w.expr(n.Value, sc, c)
			return false
		case *syntax.Lambda:
			for i := range n.Params {
				w.expr(n.Params[i].Default, sc, c)
			}
			ls := &duScope{kind: duFunction, locals: map[string]bool{}, parent: enclosing(sc)}
			for _, p := range n.Params {
				ls.locals[p.Name] = true
			}
			collectExprLocals(n.Body, ls)
			w.expr(n.Body, ls, duCtx{deferred: true, fn: "<lambda>", prefix: c.prefix})
			return false
		case *syntax.Comprehension:
			w.comprehension(n, sc, c)
			return false
		}
		return true
	})
}

// comprehension walks a comprehension: the first iterable in the
// enclosing scope, the rest in the comprehension's own; a generator
// expression runs when it is iterated.
func (w *defUse) comprehension(n *syntax.Comprehension, sc *duScope, c duCtx) {
	cs := &duScope{kind: duComprehension, locals: map[string]bool{}, parent: sc}
	for _, g := range n.Generators {
		bindTarget(g.Target, cs)
	}
	inner := c
	if n.Kind == syntax.GeneratorExp {
		inner.deferred = true
		if inner.fn == "" {
			inner.fn = "<genexpr>"
		}
	}
	for i, g := range n.Generators {
		if i == 0 {
			w.expr(g.Iter, sc, c)
		} else {
			w.expr(g.Iter, cs, inner)
		}
		w.exprs(g.Ifs, cs, inner)
	}
	w.expr(n.Elt, cs, inner)
	w.expr(n.Value, cs, inner)
}

// annotations counts the names of a def's parameter and return
// annotations, which the syntax tree leaves out, as reads when the def
// runs (unless `from __future__ import annotations` defers them): the
// identifiers of the annotation text that do not follow a '.'.
func (w *defUse) annotations(d *syntax.FunctionDef, sc *duScope, c duCtx) {
	if w.m.futureAnnotations() {
		return
	}
	src := w.m.Src
	var regions []syntax.Span
	headerEnd := d.Span.End
	if body := d.Body(); len(body) > 0 {
		headerEnd = body[0].Pos().Start
	}
	after := d.NameSpan.End
	for _, p := range d.Params {
		start := p.Span.Start + int32(len(p.Name))
		end := p.Span.End
		if p.Default != nil {
			end = p.Default.Pos().Start
		}
		if start < end {
			regions = append(regions, syntax.Span{Start: start, End: end})
		}
		after = max(after, p.Span.End)
	}
	if i := bytes.Index(src[after:headerEnd], []byte("->")); i >= 0 {
		start := after + int32(i) + 2
		end := start + int32(bytes.LastIndexByte(src[start:headerEnd], ':'))
		if end > start {
			regions = append(regions, syntax.Span{Start: start, End: end})
		}
	}
	for _, r := range regions {
		w.identifiers(r, sc, c)
	}
}

// patternReads counts the names a match case's pattern reads (value
// patterns such as Color.RED, class patterns): the pattern is not in the
// syntax tree, so every identifier in its text not after a '.' counts.
func (w *defUse) patternReads(mc syntax.MatchCase, sc *duScope, c duCtx) {
	end := mc.Span.End
	if mc.Guard != nil {
		end = mc.Guard.Pos().Start
	} else if len(mc.Body) > 0 {
		end = mc.Body[0].Pos().Start
	}
	start := mc.Span.Start + int32(len("case"))
	if start < end {
		w.identifiers(syntax.Span{Start: start, End: end}, sc, c)
	}
}

// identifiers reads the identifiers of src[r] that do not follow a '.'.
func (w *defUse) identifiers(r syntax.Span, sc *duScope, c duCtx) {
	src := w.m.Src
	for i := r.Start; i < r.End; {
		ch := src[i]
		if !identStart(ch) {
			i++
			continue
		}
		j := i
		for j < r.End && identByte(src[j]) {
			j++
		}
		k := i - 1
		for k >= r.Start && (src[k] == ' ' || src[k] == '\t') {
			k--
		}
		if k < r.Start || src[k] != '.' {
			name := string(src[i:j])
			if !pythonKeyword[name] {
				w.read(&syntax.Name{Span: syntax.Span{Start: i, End: j}, ID: name}, sc, c, false)
			}
		}
		i = j
	}
}

func identStart(ch byte) bool {
	return ch == '_' || ch >= 0x80 || 'a' <= ch|0x20 && ch|0x20 <= 'z'
}

func identByte(ch byte) bool { return identStart(ch) || '0' <= ch && ch <= '9' }

var pythonKeyword = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
	"case": true, "match": true, "_": true,
}

// futureAnnotations reports whether the module has `from __future__
// import annotations`.
func (m *Module) futureAnnotations() bool {
	for _, s := range m.File.Body {
		if f, ok := s.(*syntax.ImportFrom); ok && f.Module == "__future__" {
			for _, a := range f.Names {
				if a.Name == "annotations" {
					return true
				}
			}
		}
	}
	return false
}

// collectLocals adds to sc the names the statements bind in sc's own
// namespace (not in nested functions or classes, whose names only are
// bound), minus those declared global.
func collectLocals(list []syntax.Stmt, sc *duScope) {
	globals := map[string]bool{}
	var walk func(list []syntax.Stmt)
	walk = func(list []syntax.Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *syntax.FunctionDef:
				sc.locals[s.Name] = true
				for _, d := range s.Decorators {
					collectExprLocals(d, sc)
				}
				for _, p := range s.Params {
					collectExprLocals(p.Default, sc)
				}
			case *syntax.ClassDef:
				sc.locals[s.Name] = true
				for _, d := range s.Decorators {
					collectExprLocals(d, sc)
				}
				for _, b := range s.Bases {
					collectExprLocals(b.Value, sc)
				}
			case *syntax.Import:
				for _, a := range s.Names {
					name := a.AsName
					if name == "" {
						name = a.Name
						if i := bytes.IndexByte([]byte(name), '.'); i >= 0 {
							name = name[:i]
						}
					}
					sc.locals[name] = true
				}
			case *syntax.ImportFrom:
				for _, a := range s.Names {
					name := a.AsName
					if name == "" {
						name = a.Name
					}
					sc.locals[name] = true
				}
			case *syntax.Global:
				for _, n := range s.Names {
					if s.Nonlocal {
						sc.locals[n] = true
					} else {
						globals[n] = true
					}
				}
			case *syntax.Assign:
				for _, t := range s.Targets {
					bindTarget(t, sc)
				}
				collectExprLocals(s.Value, sc)
			case *syntax.For:
				bindTarget(s.Target, sc)
				collectExprLocals(s.Iter, sc)
				walk(s.Body)
				walk(s.Else)
			case *syntax.With:
				for _, it := range s.Items {
					collectExprLocals(it.Value, sc)
					bindTarget(it.Target, sc)
				}
				walk(s.Body)
			case *syntax.If:
				collectExprLocals(s.Test, sc)
				walk(s.Body)
				walk(s.Else)
			case *syntax.While:
				collectExprLocals(s.Test, sc)
				walk(s.Body)
				walk(s.Else)
			case *syntax.Try:
				walk(s.Body)
				for _, h := range s.Handlers {
					if h.Name != "" {
						sc.locals[h.Name] = true
					}
					walk(h.Body)
				}
				walk(s.Else)
				walk(s.Finally)
			case *syntax.Match:
				collectExprLocals(s.Subject, sc)
				for _, c := range s.Cases {
					collectExprLocals(c.Guard, sc)
					walk(c.Body)
				}
			case *syntax.ExprStmt:
				collectExprLocals(s.X, sc)
			case *syntax.Return:
				collectExprLocals(s.Value, sc)
			case *syntax.OtherStmt:
				if s.Kind == "delete_statement" {
					for _, e := range s.Exprs {
						bindTarget(e, sc)
					}
				}
				for _, e := range s.Exprs {
					collectExprLocals(e, sc)
				}
			}
		}
	}
	walk(list)
	for n := range globals {
		delete(sc.locals, n)
	}
}

// bindTarget adds the names an assignment target binds.
func bindTarget(t syntax.Expr, sc *duScope) {
	switch t := t.(type) {
	case *syntax.Name:
		sc.locals[t.ID] = true
	case *syntax.Sequence:
		for _, e := range t.Elts {
			bindTarget(e, sc)
		}
	case *syntax.Starred:
		bindTarget(t.X, sc)
	}
}

// collectExprLocals adds walrus targets in e (also inside comprehensions,
// which bind them in the enclosing function; not inside lambdas).
func collectExprLocals(e syntax.Expr, sc *duScope) {
	if e == nil {
		return
	}
	syntax.Inspect(e, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.NamedExpr:
			bindTarget(n.Target, sc)
		case *syntax.Lambda:
			return false
		}
		return true
	})
}
