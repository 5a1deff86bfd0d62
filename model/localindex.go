package model

import "github.com/cudaforklint/cudaforklint/syntax"

// A function's own bindings (its parameters and the names its body binds)
// are indexed when the analysis first reads them, not at load. A program
// has tens of thousands of functions and the analysis reads the scopes of
// a few thousand (3,437 of 60,563 functions are summarized on the
// standard library), while their bindings were about a tenth of the live
// heap.
//
// The load pass (indexer with body nil) still walks every body, for what a
// body binds outside its own scope: `global` names (bound in the module's
// scope, in statement order with the module's own bindings), `self.x`
// stores (the class's SelfAttrs), stores by a computed name (dynattr.go),
// and the functions, classes and lambdas it defines (Module.Funcs,
// Classes, lambdas; localDefs). The pass over one body (ownBindings) walks
// it again in the same order, with the same `global` declarations in
// effect at each statement, and records only the bindings of the
// function's own scope, giving nested definitions the objects the load
// pass made: so the bindings, and their order, are those the load pass
// would have recorded.
//
// Like the rest of the model's lazily computed state (killsOf, the
// summaries), this is filled by the one goroutine that runs the analysis.

// localDef is a function or a class defined in a function's body.
type localDef struct {
	fn  *Function
	cls *Class
}

// noteLocalDef records a definition made in a function's body, for the
// pass that indexes that body again.
func (ix *indexer) noteLocalDef(sc *Scope, at syntax.Span, d localDef) {
	if sc.Kind != FunctionScope {
		return
	}
	if ix.m.localDefs == nil {
		ix.m.localDefs = map[syntax.Span]localDef{}
	}
	ix.m.localDefs[at] = d
}

// declareGlobal records a `global` statement's name in sc.
func (sc *Scope) declareGlobal(name string) {
	if sc.Globals == nil {
		sc.Globals = map[string]bool{}
	}
	sc.Globals[name] = true
}

// ownBindings returns the bindings made in sc itself, indexing a function's
// body the first time.
func (sc *Scope) ownBindings() map[string][]*Binding {
	if sc.Kind == FunctionScope && !sc.indexed {
		sc.indexed = true
		sc.Bindings = map[string][]*Binding{}
		ix := &indexer{m: sc.Module, body: sc.Func}
		ix.ownScope(sc.Func)
	}
	return sc.Bindings
}

// ownScope indexes f's parameters and body into f.Scope.
func (ix *indexer) ownScope(f *Function) {
	sc := f.Scope
	// The parameters are bound before any `global` is declared, and the
	// body's `global` names as the walk meets them, as in the load pass;
	// the load pass's complete set is put back after.
	declared := sc.Globals
	defer func() { sc.Globals = declared }()
	sc.Globals = nil
	params := f.Params()
	for i := range params {
		p := &params[i]
		ix.bind(sc, Binding{Kind: BindParam, Name: p.Name, Span: p.Span, Param: p})
	}
	if f.Lambda != nil {
		ix.exprBindings(f.Lambda.Body, sc)
		return
	}
	sc.Globals = bodyGlobals(f.Def.Body())
	ix.stmts(f.Def.Body(), sc, f.QualName+".<locals>.")
}
