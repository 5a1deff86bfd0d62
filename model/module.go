package model

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Module is one Python file, indexed.
type Module struct {
	Prog       *Program
	Path       string
	Name       string // dotted module name ("pkg.mod"); for a script, its file stem
	Src        []byte
	File       *syntax.File
	Notebook   bool   // a Jupyter notebook's module (notebook.go)
	Scope      *Scope // module (global) scope
	Funcs      []*Function
	Classes    []*Class
	importRoot string

	// Guards are the top-level main guards: `if __name__ == "__main__":`
	// and its spellings, early exits, and `current_process().name ==
	// "MainProcess"` (guard.go).
	Guards []Guard

	lambdas map[syntax.Span]*Function
	// localDefs are the functions and classes defined in a function's
	// body, by the span of their definition: indexing that body again on
	// first use binds their names to the same objects (localindex.go).
	localDefs map[syntax.Span]localDef
	// withs are the with statements of each scope's own body, found once a
	// factory call there is asked for its device (device.go).
	withs map[*Scope][]*syntax.With
	// setsUpGroup: the source names init_process_group, so its functions
	// may set up a process group (processgroup.go); read once, as bytes,
	// because the question is asked at every local call.
	setsUpGroup bool
	top         *funcSummary // the module body's summary
	// importTop is top as an import runs it (importSummary).
	importTop *[]event
	fx        facts              // of running the body as __main__ (topFacts)
	importFx  facts              // of importing the module (importFacts)
	id        uint64             // orders the sets of modules (cowset.go)
	sites     siteNumbers        // numbers its sites for the sets of sites (cowset.go)
	used      map[string]useKind // see usedNames
	// bodyWords are the used names of the bodies DeferBodies deferred,
	// gathered as they were deferred: usedNames does not decode them.
	bodyWords   []usedWord
	cuda        factState // see cudaPossible
	cudaResult  bool
	importStmts []syntax.Stmt // see imports
	importFiles []string      // see importPaths
	// importTimeFiles are those of importFiles that module-level import
	// statements name (importTimeImports).
	importTimeFiles []string
	locals          *[]*Module // see importedLocals
	// importInits caches what importing the module initializes, in a
	// child and in the forkserver (by procKind), apart for targets with
	// lazy imports and without, per platform, whose tests an import may
	// run, and per bootstrap, which decides where the import raises
	// (importInitsMemo). Allocated at the first import simulated.
	importInits map[importInitsKey]*importInitsCache
	lazy        *lazyImports // see lazyImports
	// escaped are the loaders made here that are kept in a container the
	// model does not follow (iteration.go, escape).
	escaped       map[*Object]bool
	notebookCells             // see CellLine
	star          starImports // see starimport.go
	dynStores     []dynStore  // see dynattr.go
	resolved      resolvedImports
	mainRole      mainRole // see role
}

// ReimportedByChildren reports whether spawn and forkserver children (and,
// with the preload fix, the forkserver) import this file when it is the main
// module. A package's __main__.py, run with `python -m pkg`, is not: its
// code runs "main only" unconditionally, and multiprocessing's spawn skips
// modules named __main__ (spawn._fixup_main_from_name); the same goes for
// IPython's launcher script, which it special-cases by name, and for a
// notebook, whose kernel's __main__ has no file to import.
//
// A module that is never the main module (a pytest test module, a package
// module not run as a script: mainmodule.go) is not re-imported as one.
func (m *Module) ReimportedByChildren() bool {
	base := filepath.Base(m.Path)
	return base != "__main__.py" && base != "ipython.py" && !m.Notebook && m.role() == roleScript
}

// ScopeKind tells module, function and class scopes apart.
type ScopeKind uint8

const (
	ModuleScope ScopeKind = iota
	FunctionScope
	ClassScope
)

// Scope is a Python namespace with the bindings made in it.
type Scope struct {
	Parent *Scope // enclosing scope for name lookup (class scopes are skipped by nested functions)
	Module *Module
	Func   *Function
	Class  *Class
	// Bindings are the names bound in the scope. A function's own are
	// indexed when first read (ownBindings, localindex.go); read them
	// through bindingsOf.
	Bindings map[string][]*Binding
	Globals  map[string]bool
	// flow is what dominance.go finds of the scope's own body, once it is
	// asked (killsOf): most scopes are never analysed.
	flow *scopeFlow
	Kind ScopeKind
	// indexed: a function scope's own bindings are in Bindings.
	indexed bool
	// hasStores: the scope's own body stores an attribute through a name
	// it binds (x.attr = v; attrstore.go).
	hasStores bool
}

// scopeFlow is what a scope's own body says about the order of its
// statements (dominance.go).
type scopeFlow struct {
	kills map[string][]kill // plain assignments, by name
	// storeKills are the kills of the names an attribute store x.attr = v
	// writes through, by name: the plain ones and the stores' (store
	// set), for the uses that read the name with its stores
	// (attrstore.go). stores are those stores, as bindings of the name,
	// in source order.
	storeKills map[string][]kill
	stores     map[string][]*Binding
	ifArms     []ifArm // the if statements
	// constArms are the ifArms a module constant may decide, found when
	// first asked (constArmsOf); nil until then.
	constArms []ifArm
	loops     []syntax.Span // the for and while statements
}

// BindingKind says how a name got its value.
type BindingKind uint8

const (
	BindAssign     BindingKind = iota // x = expr (Value; Path selects a tuple element)
	BindIter                          // for x in expr / comprehension (an element of Value)
	BindWith                          // with expr as x
	BindImport                        // import a.b as x (Import: "a.b"), or a local module
	BindImportFrom                    // from a import b as x (Import: "a.b")
	BindDef                           // def x
	BindClass                         // class x
	BindParam                         // function parameter
	BindOther                         // except ... as x, del, global without assignment
	BindAttrStore                     // x.attr = expr: x with attr replaced (Attr: "attr"), read by x's uses alone (attrstore.go)
)

// Binding is one assignment of a name. A large program has hundreds of
// thousands: the flags are kept together at the end, where they share one
// word.
type Binding struct {
	Name  string
	Span  syntax.Span
	Value syntax.Expr // the assigned expression (BindAssign, BindIter, BindWith)
	Func  *Function
	Class *Class
	Param *syntax.Param
	Scope *Scope // where Value is evaluated
	// path holds what only imports and unpacking targets have (Import,
	// Attr, Index); nil for the other bindings. A program has hundreds of
	// thousands of bindings.
	path *bindingPath
	// val memoizes the binding's values outside of any call context, made
	// when they are first asked for: most bindings never are.
	val *valueCell

	Kind BindingKind
	// comprehension marks a comprehension's variable, bound in the
	// enclosing scope here though Python 3 gives it a scope of its own.
	comprehension bool
	// star marks a name bound by `from m import *` of a local module m
	// that exports it (starimport.go).
	star bool
}

// bindingPath is what a binding of an import or of a name inside an
// unpacking target adds to the common fields.
type bindingPath struct {
	index []int
	imp   string
	attr  string
}

// Index is the tuple-unpacking path into Value: (a, (b, c)) = v gives c
// the path [1 1]; nil for a plain target.
func (b *Binding) Index() []int {
	if b.path == nil {
		return nil
	}
	return b.path.index
}

// Import is the qualified module or attribute path of an import binding:
// "a.b" for `import a.b as x` and for `from a import b`.
func (b *Binding) Import() string {
	if b.path == nil {
		return ""
	}
	return b.path.imp
}

// Attr is the attribute a BindImportFrom imports: "b" for `from a import b`.
func (b *Binding) Attr() string {
	if b.path == nil {
		return ""
	}
	return b.path.attr
}

// importBinding is the binding of an import: of module imp (BindImport),
// or of attribute attr of module imp's parent (BindImportFrom).
func importBinding(kind BindingKind, name string, at syntax.Span, imp, attr string) Binding {
	return Binding{Kind: kind, Name: name, Span: at, path: &bindingPath{imp: imp, attr: attr}}
}

// withIndex gives b, a copy of an assignment's template (which has no
// path), the unpacking path idx, copied; none if idx is empty.
func (b *Binding) withIndex(idx []int) {
	if len(idx) > 0 {
		b.path = &bindingPath{index: slices.Clone(idx)}
	}
}

// Function is a def, a method or a lambda.
type Function struct {
	Module   *Module
	Name     string
	QualName string // "f", "C.m", "f.<locals>.g", "<lambda>"
	Def      *syntax.FunctionDef
	Lambda   *syntax.Lambda
	Scope    *Scope
	Class    *Class // set for methods
	// Decorators as written; evaluated lazily.
	Decorators []syntax.Expr

	// callees, reads and importsLocal are what the prescan reads, and
	// callsCUDAMeth what cudaPossible reads (calleeIdents).
	callees []string
	reads   []string
	summary *funcSummary
	// memo holds the answers to the analysis's questions about the
	// function (memos), made when the first is asked.
	memo *funcMemos

	// The one-byte fields, together (a program has tens of thousands of
	// functions).
	fx            facts
	referenced    bool
	importsLocal  bool
	callsCUDAMeth bool // calls x.cuda(), x.to(...), ... (calleeIdents)
}

// funcMemos are the answers to the questions the analysis asks about a
// function beyond its facts. Behind a pointer: most functions are never
// asked (the analysis summarizes about one in twenty of the stdlib's), and
// these took half of a Function's 320 bytes.
type funcMemos struct {
	// returned memoizes what the function returns outside of any call
	// context.
	returned valueCell
	// retParams are the parameters the function may return
	// (returnedParams), settled once retParamsState is factDone.
	retParams      []string
	retParamsState factState
	// deciding are the parameters a constant context binds
	// (decidingParams), found once decidingDone.
	deciding     []string
	decidingDone bool
}

// memos are f's memos, made on the first question.
func (f *Function) memos() *funcMemos {
	if f.memo == nil {
		f.memo = &funcMemos{}
	}
	return f.memo
}

// Span is the function's whole definition.
func (f *Function) Span() syntax.Span {
	if f.Def != nil {
		return f.Def.Span
	}
	return f.Lambda.Span
}

// NameSpan is where the function's name is written (the lambda keyword for
// lambdas).
func (f *Function) NameSpan() syntax.Span {
	if f.Def != nil {
		return f.Def.NameSpan
	}
	return syntax.Span{Start: f.Lambda.Start, End: f.Lambda.Start + int32(len("lambda"))}
}

// Params returns the function's parameters.
func (f *Function) Params() []syntax.Param {
	if f.Def != nil {
		return f.Def.Params
	}
	return f.Lambda.Params
}

// Class is a class definition.
type Class struct {
	Module   *Module
	Name     string
	QualName string
	Def      *syntax.ClassDef
	Scope    *Scope // the class body
	Methods  map[string]*Function
	// SelfAttrs holds `self.x = value` bindings made in any method.
	SelfAttrs map[string][]*Binding
	// getters are the getters of the properties the class body defines
	// with a decorator (property.go), by name.
	getters map[string]*Function
	// setAttrs are the attributes its methods assign outside __init__
	// (attrsSetOutsideInit).
	setAttrs map[string]bool
}

func newModule(p *Program, path string, f *syntax.File, src []byte) *Module {
	m := &Module{
		id:       moduleIDs.Add(1),
		Prog:     p,
		Path:     path,
		Src:      src,
		File:     f,
		Notebook: notebook.IsPath(path),
		lambdas:  map[syntax.Span]*Function{},
	}
	m.Name, m.importRoot = ModuleNameAndRoot(p.src.IsFile, path)
	m.Scope = &Scope{Kind: ModuleScope, Module: m, Bindings: map[string][]*Binding{}, Globals: map[string]bool{}}
	ix := indexer{m: m}
	ix.stmts(f.Body, m.Scope, "")
	m.Guards = topGuards(f.Body)
	m.mainRole = mainRoleOf(m)
	for _, fn := range m.Funcs {
		fn.callees, fn.reads, fn.importsLocal, fn.callsCUDAMeth = calleeIdents(fn)
	}
	m.importFiles = m.importPaths(m.imports())
	m.importTimeFiles = m.importPaths(m.importTimeImports())
	m.setsUpGroup = bytes.Contains(src, []byte("init_process_group"))
	// The load pass is done and took nothing from the bodies the
	// conversion found deferrable: keep them encoded until the analysis
	// reads them (syntax/deferred.go), with the names they use, which
	// usedNames asks of most modules of CUDA code.
	words := map[string]useKind{}
	f.DeferBodies(src, func(body []syntax.Stmt) {
		for _, s := range body {
			syntax.Inspect(s, func(n syntax.Node) bool {
				addUsedNames(words, n)
				return true
			})
		}
	})
	if len(words) > 0 {
		m.bodyWords = make([]usedWord, 0, len(words))
		for w, k := range words {
			m.bodyWords = append(m.bodyWords, usedWord{w, k})
		}
	}
	return m
}

// indexer records bindings, functions and classes. The pass over a whole
// module at load (body nil) records everything but the bindings of function
// scopes, which only the functions the analysis reads need: a second pass
// over one function's body (body set; localindex.go) records those.
type indexer struct {
	m    *Module
	body *Function
}

// bind records b, made in scope sc, if this pass records it. b is passed
// by value so that the bindings a pass leaves out cost no allocation.
func (ix *indexer) bind(sc *Scope, b Binding) {
	target := ix.target(sc, b.Name)
	if target == nil {
		return
	}
	kept := new(Binding)
	*kept = b
	kept.Scope = sc
	target.Bindings[b.Name] = append(target.Bindings[b.Name], kept)
}

// target is the scope a binding of name made in sc belongs to (the
// module's, for a name sc declares global), or nil if this pass does not
// record it: the load pass records the bindings of module and class
// scopes, a function's pass those of its own scope (the load pass made
// the rest, `global` ones included).
func (ix *indexer) target(sc *Scope, name string) *Scope {
	target := sc
	if sc.Globals[name] {
		target = ix.m.Scope
	}
	if ix.body == nil && target.Kind == FunctionScope || ix.body != nil && target != ix.body.Scope {
		return nil
	}
	return target
}

func (ix *indexer) stmts(list []syntax.Stmt, sc *Scope, prefix string) {
	for _, s := range list {
		ix.stmt(s, sc, prefix)
	}
}

func (ix *indexer) stmt(s syntax.Stmt, sc *Scope, prefix string) {
	switch s := s.(type) {
	case *syntax.Import:
		for _, a := range s.Names {
			name, imp := a.AsName, a.Name
			if name == "" {
				// `import a.b.c` binds `a`.
				name = a.Name
				if i := strings.IndexByte(a.Name, '.'); i >= 0 {
					name = a.Name[:i]
				}
				imp = name
			}
			ix.bind(sc, importBinding(BindImport, name, a.Span, imp, ""))
		}
	case *syntax.ImportFrom:
		if s.Star && sc.Kind == ModuleScope {
			// Its names are bound when the scope is first read
			// (starimport.go).
			ix.m.star.stmts = append(ix.m.star.stmts, s)
		}
		for _, a := range s.Names {
			name := a.AsName
			if name == "" {
				name = a.Name
			}
			ix.bind(sc, importBinding(BindImportFrom, name, a.Span, JoinDotted(fromModuleName(s), a.Name), a.Name))
		}
	case *syntax.FunctionDef:
		ix.function(s, sc, prefix)
	case *syntax.ClassDef:
		ix.class(s, sc, prefix)
	case *syntax.If:
		ix.exprBindings(s.Test, sc)
		ix.stmts(s.Body, sc, prefix)
		ix.stmts(s.Else, sc, prefix)
	case *syntax.For:
		ix.targets(s.Target, sc, &Binding{Kind: BindIter, Value: s.Iter, Span: s.Target.Pos()})
		ix.exprBindings(s.Iter, sc)
		ix.stmts(s.Body, sc, prefix)
		ix.stmts(s.Else, sc, prefix)
	case *syntax.While:
		ix.exprBindings(s.Test, sc)
		ix.stmts(s.Body, sc, prefix)
		ix.stmts(s.Else, sc, prefix)
	case *syntax.With:
		for _, it := range s.Items {
			ix.exprBindings(it.Value, sc)
			if it.Target != nil {
				ix.targets(it.Target, sc, &Binding{Kind: BindWith, Value: it.Value, Span: it.Target.Pos()})
			}
		}
		ix.stmts(s.Body, sc, prefix)
	case *syntax.Try:
		ix.stmts(s.Body, sc, prefix)
		for _, h := range s.Handlers {
			if h.Name != "" {
				ix.bind(sc, Binding{Kind: BindOther, Name: h.Name, Span: h.Span})
			}
			ix.stmts(h.Body, sc, prefix)
		}
		ix.stmts(s.Else, sc, prefix)
		ix.stmts(s.Finally, sc, prefix)
	case *syntax.Match:
		ix.exprBindings(s.Subject, sc)
		for _, c := range s.Cases {
			ix.stmts(c.Body, sc, prefix)
		}
	case *syntax.Assign:
		if s.Value != nil {
			ix.exprBindings(s.Value, sc)
		}
		if s.Op != "=" && s.Op != "" {
			// Augmented assignment: x += v keeps x's old bindings meaningful;
			// record nothing new for plain names.
			return
		}
		if s.Value == nil {
			return
		}
		for _, t := range s.Targets {
			ix.targets(t, sc, &Binding{Kind: BindAssign, Value: s.Value, Span: t.Pos()})
		}
	case *syntax.Global:
		for _, n := range s.Names {
			if !s.Nonlocal {
				sc.declareGlobal(n)
			}
		}
	case *syntax.ExprStmt:
		ix.exprBindings(s.X, sc)
	case *syntax.Return:
		if s.Value != nil {
			ix.exprBindings(s.Value, sc)
		}
	case *syntax.OtherStmt:
		for _, e := range s.Exprs {
			ix.exprBindings(e, sc)
		}
	}
}

// targets binds every name in an assignment target. tmpl carries the kind,
// value and span; each name gets its own copy with its unpacking index.
func (ix *indexer) targets(t syntax.Expr, sc *Scope, tmpl *Binding) {
	var walk func(e syntax.Expr, idx []int)
	walk = func(e syntax.Expr, idx []int) {
		switch e := e.(type) {
		case *syntax.Name:
			if ix.target(sc, e.ID) == nil {
				return
			}
			b := *tmpl
			b.Name = e.ID
			b.Span = e.Span
			b.withIndex(idx)
			ix.bind(sc, b)
		case *syntax.Sequence:
			for i, el := range e.Elts {
				walk(el, append(idx, i))
			}
		case *syntax.Starred:
			walk(e.X, append(idx, -1))
		case *syntax.Subscript:
			if ix.body == nil {
				ix.dynamicStoreOfTarget(e, tmpl.Value, sc)
			}
		case *syntax.Attribute:
			n, ok := e.X.(*syntax.Name)
			if !ok {
				return
			}
			self := sc.Func != nil && sc.Func.Class != nil && isSelfParam(sc.Func, n.ID)
			// self.x = value inside a method: an instance attribute.
			if self && ix.body == nil {
				b := *tmpl
				b.Name = e.Attr
				b.Span = e.Span
				b.withIndex(idx)
				b.Scope = sc
				c := sc.Func.Class
				c.SelfAttrs[e.Attr] = append(c.SelfAttrs[e.Attr], &b)
			} else if !self && ix.target(sc, n.ID) == sc {
				// x.attr = value through a name of the scope's own, in
				// the pass that records the scope's bindings.
				sc.hasStores = true
			}
		}
	}
	walk(t, nil)
}

// exprBindings records walrus targets and comprehension variables, and
// creates Functions for lambdas so they can be called and named as targets.
func (ix *indexer) exprBindings(e syntax.Expr, sc *Scope) {
	syntax.Inspect(e, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.NamedExpr:
			ix.targets(n.Target, sc, &Binding{Kind: BindAssign, Value: n.Value, Span: n.Target.Pos()})
		case *syntax.Comprehension:
			for _, g := range n.Generators {
				ix.targets(g.Target, sc, &Binding{Kind: BindIter, Value: g.Iter, Span: g.Target.Pos(), comprehension: true})
			}
		case *syntax.Lambda:
			ix.lambda(n, sc)
			return false
		case *syntax.Call:
			if ix.body == nil {
				ix.dynamicStoreOfCall(n, sc)
			}
		}
		return true
	})
}

func (ix *indexer) lambda(l *syntax.Lambda, sc *Scope) *Function {
	if f, ok := ix.m.lambdas[l.Span]; ok {
		return f
	}
	f := &Function{Module: ix.m, Name: "<lambda>", QualName: "<lambda>", Lambda: l}
	f.Scope = &Scope{Kind: FunctionScope, Parent: lookupParent(sc), Module: ix.m, Func: f}
	ix.m.lambdas[l.Span] = f
	ix.m.Funcs = append(ix.m.Funcs, f)
	ix.exprBindings(l.Body, f.Scope)
	return f
}

// lookupParent is the scope a nested function sees: class bodies are not
// visible from their methods.
func lookupParent(sc *Scope) *Scope {
	for sc != nil && sc.Kind == ClassScope {
		sc = sc.Parent
	}
	return sc
}

func (ix *indexer) function(d *syntax.FunctionDef, sc *Scope, prefix string) {
	if ix.body != nil {
		// A definition in the body being indexed again: its function
		// exists; its own body is indexed when it is read.
		ix.bind(sc, Binding{Kind: BindDef, Name: d.Name, Span: d.NameSpan, Func: ix.m.localDefs[d.Span].fn})
		ix.signatureBindings(d, sc)
		return
	}
	f := &Function{Module: ix.m, Name: d.Name, QualName: prefix + d.Name, Def: d, Decorators: d.Decorators}
	if sc.Kind == ClassScope {
		f.Class = sc.Class
	}
	f.Scope = &Scope{Kind: FunctionScope, Parent: lookupParent(sc), Module: ix.m, Func: f}
	ix.m.Funcs = append(ix.m.Funcs, f)
	ix.noteLocalDef(sc, d.Span, localDef{fn: f})
	ix.bind(sc, Binding{Kind: BindDef, Name: d.Name, Span: d.NameSpan, Func: f})
	if f.Class != nil {
		f.Class.Methods[d.Name] = f
		f.Class.noteAccessor(f)
	}
	ix.signatureBindings(d, sc)
	if _, deferred := d.Deferred(); deferred {
		// A tree decoded with its bodies already deferred: a body is
		// deferred only when this pass records nothing from it
		// (syntax/deferred.go), so there is nothing to walk. (A parsed
		// tree's bodies are deferred after this pass, by newModule.)
		return
	}
	f.Scope.Globals = bodyGlobals(d.Body())
	ix.stmts(d.Body(), f.Scope, f.QualName+".<locals>.")
}

// signatureBindings records what d's decorators and defaults bind in sc,
// where they are evaluated.
func (ix *indexer) signatureBindings(d *syntax.FunctionDef, sc *Scope) {
	for _, dec := range d.Decorators {
		ix.exprBindings(dec, sc)
	}
	for i := range d.Params {
		if p := &d.Params[i]; p.Default != nil {
			ix.exprBindings(p.Default, sc)
		}
	}
}

// bodyGlobals are the names a function body's own `global` statements
// declare: they must be known before the body's assignments are bound
// (those nested in blocks count from where they are written, as the
// indexer meets them).
func bodyGlobals(body []syntax.Stmt) map[string]bool {
	var out map[string]bool
	for _, s := range body {
		if g, ok := s.(*syntax.Global); ok && !g.Nonlocal {
			for _, n := range g.Names {
				if out == nil {
					out = map[string]bool{}
				}
				out[n] = true
			}
		}
	}
	return out
}

func (ix *indexer) class(d *syntax.ClassDef, sc *Scope, prefix string) {
	if ix.body != nil {
		// A class in the body being indexed again: its body is indexed.
		ix.bind(sc, Binding{Kind: BindClass, Name: d.Name, Span: d.NameSpan, Class: ix.m.localDefs[d.Span].cls})
		for _, b := range d.Bases {
			ix.exprBindings(b.Value, sc)
		}
		return
	}
	c := &Class{Module: ix.m, Name: d.Name, QualName: prefix + d.Name, Def: d,
		Methods: map[string]*Function{}, SelfAttrs: map[string][]*Binding{}}
	c.Scope = &Scope{Kind: ClassScope, Parent: sc, Module: ix.m, Class: c,
		Bindings: map[string][]*Binding{}, Globals: map[string]bool{}}
	ix.m.Classes = append(ix.m.Classes, c)
	ix.noteLocalDef(sc, d.Span, localDef{cls: c})
	ix.bind(sc, Binding{Kind: BindClass, Name: d.Name, Span: d.NameSpan, Class: c})
	for _, b := range d.Bases {
		ix.exprBindings(b.Value, sc)
	}
	ix.stmts(d.Body, c.Scope, c.QualName+".")
	if init := dataclassInit(d); init != nil {
		ix.function(init, c.Scope, c.QualName+".") // dataclass.go
	}
}

func isSelfParam(f *Function, name string) bool {
	ps := f.Params()
	return len(ps) > 0 && ps[0].Name == name && ps[0].Kind == syntax.ParamNormal
}

func fromModuleName(s *syntax.ImportFrom) string {
	return strings.Repeat(".", s.Level) + s.Module
}

// JoinDotted joins a dotted name and a name ("a.b" + "c" → "a.b.c"),
// either may be empty; a relative prefix ending in "." takes b directly.
func JoinDotted(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	case strings.HasSuffix(a, "."):
		return a + b
	}
	return a + "." + b
}
