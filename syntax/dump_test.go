package syntax

import (
	"strconv"
	"strings"
)

// Dump returns a compact S-expression form of n for debugging and tests,
// without positions. Names print bare, strings quoted, numbers as written;
// everything else is a parenthesised form headed by a short tag, e.g.
//
//	(call (. torch.cuda is_available))
//	(= [x] (call f 1 k=2 *a **kw))
//	(def f (a b=1 *args kw:c **kw) (return None))
//
// Statement bodies follow the header; an else part is marked `else:`.
func Dump(n Node) string {
	var d dumper
	d.node(n)
	return d.String()
}

// DumpFile returns Dump of each top-level statement, one per line.
func DumpFile(f *File) string {
	var d dumper
	for i, s := range f.Body {
		if i > 0 {
			d.WriteByte('\n')
		}
		d.node(s)
	}
	return d.String()
}

type dumper struct{ strings.Builder }

func (d *dumper) open(tag string) {
	d.WriteByte('(')
	d.WriteString(tag)
}

func (d *dumper) close() { d.WriteByte(')') }

func (d *dumper) sp() { d.WriteByte(' ') }

func (d *dumper) word(s string) {
	d.sp()
	d.WriteString(s)
}

func (d *dumper) exprs(es []Expr) {
	for _, e := range es {
		d.sp()
		d.node(e)
	}
}

func (d *dumper) stmts(ss []Stmt) {
	for _, s := range ss {
		d.sp()
		d.node(s)
	}
}

func (d *dumper) elseStmts(ss []Stmt) {
	if len(ss) > 0 {
		d.word("else:")
		d.stmts(ss)
	}
}

func (d *dumper) args(as []Arg) {
	for _, a := range as {
		d.sp()
		switch {
		case a.Keyword != "":
			d.WriteString(a.Keyword)
			d.WriteByte('=')
		case a.Star == 1:
			d.WriteByte('*')
		case a.Star == 2:
			d.WriteString("**")
		}
		d.node(a.Value)
	}
}

func (d *dumper) params(ps []Param) {
	d.sp()
	d.WriteByte('(')
	for i, p := range ps {
		if i > 0 {
			d.sp()
		}
		switch p.Kind {
		case ParamVarArgs:
			d.WriteByte('*')
		case ParamKwOnly:
			d.WriteString("kw:")
		case ParamKwArgs:
			d.WriteString("**")
		}
		d.WriteString(p.Name)
		if p.Default != nil {
			d.WriteByte('=')
			d.node(p.Default)
		}
	}
	d.WriteByte(')')
}

func (d *dumper) aliases(as []Alias) {
	for _, a := range as {
		d.word(a.Name)
		if a.AsName != "" {
			d.word("as")
			d.word(a.AsName)
		}
	}
}

func (d *dumper) decorators(ds []Expr) {
	for _, e := range ds {
		d.word("@")
		d.node(e)
	}
}

var seqTags = [...]string{List: "list", Tuple: "tuple", Set: "set"}
var compTags = [...]string{ListComp: "listcomp", SetComp: "setcomp", DictComp: "dictcomp", GeneratorExp: "genexp"}
var constNames = [...]string{ConstTrue: "True", ConstFalse: "False", ConstNone: "None", ConstEllipsis: "..."}

func (d *dumper) node(n Node) {
	if isNil(n) {
		d.WriteString("<nil>")
		return
	}
	switch n := n.(type) {
	case *Import:
		if n.Lazy {
			d.open("lazy import")
		} else {
			d.open("import")
		}
		d.aliases(n.Names)
		d.close()
	case *ImportFrom:
		if n.Lazy {
			d.open("lazy from")
		} else {
			d.open("from")
		}
		d.word(strings.Repeat(".", n.Level) + n.Module)
		d.word("import")
		if n.Star {
			d.word("*")
		}
		d.aliases(n.Names)
		d.close()
	case *FunctionDef:
		if n.Async {
			d.open("async def")
		} else {
			d.open("def")
		}
		d.decorators(n.Decorators)
		d.word(n.Name)
		d.params(n.Params)
		d.stmts(n.Body())
		d.close()
	case *ClassDef:
		d.open("class")
		d.decorators(n.Decorators)
		d.word(n.Name)
		d.sp()
		d.WriteByte('(')
		var sub dumper
		sub.args(n.Bases)
		d.WriteString(strings.TrimPrefix(sub.String(), " "))
		d.WriteByte(')')
		d.stmts(n.Body)
		d.close()
	case *If:
		d.open("if")
		d.sp()
		d.node(n.Test)
		d.stmts(n.Body)
		d.elseStmts(n.Else)
		d.close()
	case *For:
		if n.Async {
			d.open("async for")
		} else {
			d.open("for")
		}
		d.sp()
		d.node(n.Target)
		d.sp()
		d.node(n.Iter)
		d.stmts(n.Body)
		d.elseStmts(n.Else)
		d.close()
	case *While:
		d.open("while")
		d.sp()
		d.node(n.Test)
		d.stmts(n.Body)
		d.elseStmts(n.Else)
		d.close()
	case *With:
		if n.Async {
			d.open("async with")
		} else {
			d.open("with")
		}
		for _, it := range n.Items {
			d.sp()
			d.node(it.Value)
			if it.Target != nil {
				d.word("as")
				d.sp()
				d.node(it.Target)
			}
		}
		d.WriteByte(':')
		d.stmts(n.Body)
		d.close()
	case *Try:
		d.open("try")
		d.stmts(n.Body)
		for _, h := range n.Handlers {
			d.sp()
			d.open("except")
			if h.Type != nil {
				d.sp()
				d.node(h.Type)
			}
			if h.Name != "" {
				d.word("as")
				d.word(h.Name)
			}
			d.WriteByte(':')
			d.stmts(h.Body)
			d.close()
		}
		d.elseStmts(n.Else)
		if len(n.Finally) > 0 {
			d.word("finally:")
			d.stmts(n.Finally)
		}
		d.close()
	case *Match:
		d.open("match")
		d.sp()
		d.node(n.Subject)
		for _, c := range n.Cases {
			d.sp()
			d.open("case")
			if c.Guard != nil {
				d.word("if")
				d.sp()
				d.node(c.Guard)
			}
			d.WriteByte(':')
			d.stmts(c.Body)
			d.close()
		}
		d.close()
	case *Assign:
		d.open(n.Op)
		d.sp()
		d.WriteByte('[')
		for i, t := range n.Targets {
			if i > 0 {
				d.sp()
			}
			d.node(t)
		}
		d.WriteByte(']')
		if n.Annotation != nil {
			d.word(":")
			d.sp()
			d.node(n.Annotation)
		}
		if n.Value != nil {
			d.sp()
			d.node(n.Value)
		}
		d.close()
	case *ExprStmt:
		d.node(n.X)
	case *Return:
		d.open("return")
		if n.Value != nil {
			d.sp()
			d.node(n.Value)
		}
		d.close()
	case *Global:
		if n.Nonlocal {
			d.open("nonlocal")
		} else {
			d.open("global")
		}
		for _, name := range n.Names {
			d.word(name)
		}
		d.close()
	case *OtherStmt:
		d.open(strings.TrimSuffix(n.Kind, "_statement"))
		d.exprs(n.Exprs)
		d.close()

	case *Name:
		d.WriteString(n.ID)
	case *Attribute:
		d.open(".")
		d.sp()
		d.node(n.X)
		d.word(n.Attr)
		d.close()
	case *Call:
		d.open("call")
		d.sp()
		d.node(n.Func)
		d.args(n.Args)
		d.close()
	case *String:
		if n.Interpolated {
			d.open("fstr")
			d.word(strconv.Quote(n.Value))
			d.exprs(n.Exprs)
			d.close()
		} else {
			d.WriteString(strconv.Quote(n.Value))
		}
	case *Number:
		d.WriteString(n.Text)
	case *Constant:
		if int(n.Kind) < len(constNames) {
			d.WriteString(constNames[n.Kind])
		} else {
			d.WriteString("<const?>")
		}
	case *Sequence:
		tag := "seq?"
		if int(n.Kind) < len(seqTags) {
			tag = seqTags[n.Kind]
		}
		d.open(tag)
		d.exprs(n.Elts)
		d.close()
	case *Dict:
		d.open("dict")
		for i, v := range n.Values {
			d.sp()
			d.WriteByte('(')
			if i < len(n.Keys) && n.Keys[i] != nil {
				d.node(n.Keys[i])
			} else {
				d.WriteString("**")
			}
			d.sp()
			d.node(v)
			d.WriteByte(')')
		}
		d.close()
	case *Lambda:
		d.open("lambda")
		d.params(n.Params)
		d.sp()
		d.node(n.Body)
		d.close()
	case *Compare:
		d.open("cmp")
		d.sp()
		d.node(n.Left)
		for i, c := range n.Comparators {
			if i < len(n.Ops) {
				d.word(n.Ops[i])
			}
			d.sp()
			d.node(c)
		}
		d.close()
	case *BoolOp:
		d.open(n.Op)
		d.sp()
		d.node(n.X)
		d.sp()
		d.node(n.Y)
		d.close()
	case *UnaryOp:
		d.open(n.Op)
		d.sp()
		d.node(n.X)
		d.close()
	case *BinOp:
		d.open(n.Op)
		d.sp()
		d.node(n.X)
		d.sp()
		d.node(n.Y)
		d.close()
	case *IfExp:
		d.open("ifexp")
		d.sp()
		d.node(n.Body)
		d.sp()
		d.node(n.Test)
		d.sp()
		d.node(n.Else)
		d.close()
	case *Subscript:
		d.open("[]")
		d.sp()
		d.node(n.X)
		d.exprs(n.Index)
		d.close()
	case *Comprehension:
		tag := "comp?"
		if int(n.Kind) < len(compTags) {
			tag = compTags[n.Kind]
		}
		d.open(tag)
		d.sp()
		d.node(n.Elt)
		if n.Value != nil {
			d.sp()
			d.node(n.Value)
		}
		for _, g := range n.Generators {
			d.sp()
			d.open("for")
			d.sp()
			d.node(g.Target)
			d.sp()
			d.node(g.Iter)
			for _, c := range g.Ifs {
				d.word("if")
				d.sp()
				d.node(c)
			}
			d.close()
		}
		d.close()
	case *Starred:
		d.open("*")
		d.sp()
		d.node(n.X)
		d.close()
	case *Await:
		d.open("await")
		d.sp()
		d.node(n.X)
		d.close()
	case *NamedExpr:
		d.open(":=")
		d.sp()
		d.node(n.Target)
		d.sp()
		d.node(n.Value)
		d.close()
	case *Opaque:
		d.open("?" + n.Kind)
		d.exprs(n.Children)
		d.close()
	default:
		d.WriteString("<unknown node>")
	}
}
