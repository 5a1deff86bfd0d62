package syntax

// Inspect traverses the tree rooted at n in depth-first order, like
// go/ast.Inspect: it calls f(n); if f returns true, Inspect visits each
// non-nil child of n in source order, followed by a call of f(nil).
//
// Only statements (Stmt) and expressions (Expr) are passed to f. The helper
// structures are traversed, not visited: Inspect descends into call
// arguments (Arg.Value), parameter defaults, decorators, with items, except
// handlers (Type and Body), match cases (Guard and Body), comprehension
// clauses, dict keys and values, Opaque children, String.Exprs and so on.
// Comments are not part of the tree. Inspect(nil, f) does nothing.
func Inspect(n Node, f func(Node) bool) { inspector{f: f}.node(n) }

// InspectScan is Inspect for a walk that keeps no pointer into the nodes
// it is shown (it gathers names, counts or spans): it reads function bodies
// with ScanBody, so that a deferred body it walks is not kept decoded.
func InspectScan(n Node, f func(Node) bool) { inspector{f: f, scan: true}.node(n) }

// InspectShallow is Inspect, except that it does not descend into the
// bodies DeferBodies deferred, decoded since or not (the rest of such a
// definition, its decorators and parameters, it walks): for a walk whose
// caller saw those bodies as they were deferred.
func InspectShallow(n Node, f func(Node) bool) { inspector{f: f, shallow: true}.node(n) }

// inspector carries Inspect's callback, and how it reads function bodies:
// scan without keeping them decoded, or shallow, skipping deferred ones.
type inspector struct {
	f       func(Node) bool
	scan    bool
	shallow bool
}

func (v inspector) node(n Node) {
	f := v.f
	if isNil(n) || !f(n) {
		return
	}
	switch n := n.(type) {
	// statements
	case *Import, *ImportFrom, *Global:
	case *FunctionDef:
		v.exprs(n.Decorators)
		v.params(n.Params)
		switch {
		case v.shallow && n.deferred != nil:
		case v.scan:
			v.stmts(n.ScanBody())
		default:
			v.stmts(n.Body())
		}
	case *ClassDef:
		v.exprs(n.Decorators)
		v.args(n.Bases)
		v.stmts(n.Body)
	case *If:
		v.expr(n.Test)
		v.stmts(n.Body)
		v.stmts(n.Else)
	case *For:
		v.expr(n.Target)
		v.expr(n.Iter)
		v.stmts(n.Body)
		v.stmts(n.Else)
	case *While:
		v.expr(n.Test)
		v.stmts(n.Body)
		v.stmts(n.Else)
	case *With:
		for i := range n.Items {
			v.expr(n.Items[i].Value)
			v.expr(n.Items[i].Target)
		}
		v.stmts(n.Body)
	case *Try:
		v.stmts(n.Body)
		for i := range n.Handlers {
			v.expr(n.Handlers[i].Type)
			v.stmts(n.Handlers[i].Body)
		}
		v.stmts(n.Else)
		v.stmts(n.Finally)
	case *Match:
		v.expr(n.Subject)
		for i := range n.Cases {
			v.expr(n.Cases[i].Guard)
			v.stmts(n.Cases[i].Body)
		}
	case *Assign:
		v.exprs(n.Targets)
		v.expr(n.Annotation)
		v.expr(n.Value)
	case *ExprStmt:
		v.expr(n.X)
	case *Return:
		v.expr(n.Value)
	case *OtherStmt:
		v.exprs(n.Exprs)

	// expressions
	case *Name, *Number, *Constant:
	case *Attribute:
		v.expr(n.X)
	case *Call:
		v.expr(n.Func)
		v.args(n.Args)
	case *String:
		v.exprs(n.Exprs)
	case *Sequence:
		v.exprs(n.Elts)
	case *Dict:
		for i := range n.Values {
			if i < len(n.Keys) {
				v.expr(n.Keys[i])
			}
			v.expr(n.Values[i])
		}
	case *Lambda:
		v.params(n.Params)
		v.expr(n.Body)
	case *Compare:
		v.expr(n.Left)
		v.exprs(n.Comparators)
	case *BoolOp:
		v.expr(n.X)
		v.expr(n.Y)
	case *UnaryOp:
		v.expr(n.X)
	case *BinOp:
		v.expr(n.X)
		v.expr(n.Y)
	case *IfExp:
		v.expr(n.Body)
		v.expr(n.Test)
		v.expr(n.Else)
	case *Subscript:
		v.expr(n.X)
		v.exprs(n.Index)
	case *Comprehension:
		// Source order: the element comes first, but Python evaluates the
		// first iterable before it; Inspect keeps source order.
		v.expr(n.Elt)
		v.expr(n.Value)
		for i := range n.Generators {
			v.expr(n.Generators[i].Target)
			v.expr(n.Generators[i].Iter)
			v.exprs(n.Generators[i].Ifs)
		}
	case *Starred:
		v.expr(n.X)
	case *Await:
		v.expr(n.X)
	case *NamedExpr:
		v.expr(n.Target)
		v.expr(n.Value)
	case *Opaque:
		v.exprs(n.Children)
	}
	f(nil)
}

func (v inspector) expr(e Expr) {
	if e != nil {
		v.node(e)
	}
}

func (v inspector) exprs(es []Expr) {
	for _, e := range es {
		v.expr(e)
	}
}

func (v inspector) stmts(ss []Stmt) {
	for _, s := range ss {
		if s != nil {
			v.node(s)
		}
	}
}

func (v inspector) args(as []Arg) {
	for i := range as {
		v.expr(as[i].Value)
	}
}

func (v inspector) params(ps []Param) {
	for i := range ps {
		v.expr(ps[i].Default)
	}
}

// isNil reports whether n is nil or a typed nil pointer.
func isNil(n Node) bool {
	if n == nil {
		return true
	}
	switch n := n.(type) {
	case *Name:
		return n == nil
	case *Attribute:
		return n == nil
	case *Call:
		return n == nil
	case *String:
		return n == nil
	case *Number:
		return n == nil
	case *Constant:
		return n == nil
	case *Sequence:
		return n == nil
	case *Dict:
		return n == nil
	case *Lambda:
		return n == nil
	case *Compare:
		return n == nil
	case *BoolOp:
		return n == nil
	case *UnaryOp:
		return n == nil
	case *BinOp:
		return n == nil
	case *IfExp:
		return n == nil
	case *Subscript:
		return n == nil
	case *Comprehension:
		return n == nil
	case *Starred:
		return n == nil
	case *Await:
		return n == nil
	case *NamedExpr:
		return n == nil
	case *Opaque:
		return n == nil
	case *Import:
		return n == nil
	case *ImportFrom:
		return n == nil
	case *FunctionDef:
		return n == nil
	case *ClassDef:
		return n == nil
	case *If:
		return n == nil
	case *For:
		return n == nil
	case *While:
		return n == nil
	case *With:
		return n == nil
	case *Try:
		return n == nil
	case *Match:
		return n == nil
	case *Assign:
		return n == nil
	case *ExprStmt:
		return n == nil
	case *Return:
		return n == nil
	case *Global:
		return n == nil
	case *OtherStmt:
		return n == nil
	}
	return false
}
