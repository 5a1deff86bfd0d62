package model

import "github.com/cudaforklint/cudaforklint/syntax"

// Walks over a whole module, and the function bodies syntax keeps encoded
// (syntax/deferred.go). syntax.Inspect decodes every body it meets, for
// keeps: a module-wide walk at analysis time would undo the deferral for
// every function of the module, though the analysis reads a tenth of them.
// A walk that keeps nothing from the nodes uses syntax.InspectScan; one that
// keeps pointers skips the bodies that cannot hold what it looks for.

// holdsNoImports reports whether d's body is one DeferBodies deferred,
// which holds no import statement: a walk for imports skips it rather than
// decoding it.
func holdsNoImports(d *syntax.FunctionDef) bool {
	_, deferred := d.Deferred()
	return deferred
}

// inspectWanted is syntax.Inspect over n, except that the body of a
// function syntax deferred is decoded (and walked) only if a scan finds a
// node that wanted accepts in it; otherwise only the function's decorators
// and defaults are walked. For a walk that keeps pointers to the nodes
// wanted accepts and to nothing else.
func inspectWanted(n syntax.Node, f func(syntax.Node) bool, wanted func(syntax.Node) bool) {
	var visit func(syntax.Node) bool
	visit = func(n syntax.Node) bool {
		d, ok := n.(*syntax.FunctionDef)
		if !ok {
			return f(n)
		}
		if _, deferred := d.Deferred(); !deferred || bodyHas(d, wanted) {
			return f(n)
		}
		if !f(n) {
			return false
		}
		for _, dec := range d.Decorators {
			syntax.Inspect(dec, visit)
		}
		for i := range d.Params {
			syntax.Inspect(d.Params[i].Default, visit)
		}
		f(nil)
		return false
	}
	syntax.Inspect(n, visit)
}

// bodyHas reports whether d's body holds a node wanted accepts, scanning
// it without keeping it decoded.
func bodyHas(d *syntax.FunctionDef, wanted func(syntax.Node) bool) bool {
	found := false
	for _, s := range d.ScanBody() {
		syntax.InspectScan(s, func(n syntax.Node) bool {
			if !found && wanted(n) {
				found = true
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
