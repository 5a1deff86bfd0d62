package syntax

import (
	"strings"
	"unsafe"
)

// maxDepth bounds the nesting of statements and expressions converted; a
// node deeper than that becomes an Opaque (or OtherStmt) with its Span and
// no children. CPython itself refuses far shallower nesting (200 parentheses,
// 100 indentation levels), so only pathological input reaches it.
const maxDepth = 1000

// conv turns the C walker's records into the Go tree. Record i's children
// are i+1, r[i+1].next, ... up to r[i].next.
type conv struct {
	r     []rec
	text  string // the source; every Name, Number, ... text is a substring of it
	depth int

	// pending holds statements salvaged from ERROR nodes met inside a
	// statement (in places the tree has no slot for them); the enclosing
	// statement list emits them right after that statement.
	pending []Stmt

	// lazyStmt maps the offset of an import statement preceded by PEP 810's
	// `lazy` keyword to the keyword's offset; lazyKw holds the keywords'
	// offsets, where tree-sitter read a stand-in statement (lazy.go).
	lazyStmt map[int]int
	lazyKw   map[int]bool

	// Scratch stacks the lists under construction are pushed on; a finished
	// list is copied into the arena (see popStmts and friends).
	ss []Stmt
	xs []Expr
	as []Arg

	a arena

	// funcDepth counts the function definitions being converted;
	// deferred bodies are converted in scratch, whose nodes are dropped.
	funcDepth int
	scratch   arena
}

func convert(recs []rec, src []byte, marks []lazyMark, arenas *Arenas) *File {
	f := &File{arenas: arenas}
	if len(recs) == 0 {
		return f
	}
	// The identifiers and literals of the tree are substrings of src, not
	// of a copy of it: a module's source is then held once (Parse's
	// contract: src is not changed afterwards).
	c := &conv{r: recs, text: unsafe.String(unsafe.SliceData(src), len(src)), a: arenas.take()}
	if len(marks) > 0 {
		c.lazyStmt, c.lazyKw = make(map[int]int, len(marks)), make(map[int]bool, len(marks))
		for _, m := range marks {
			c.lazyStmt[m.stmt], c.lazyKw[m.kw] = m.kw, true
		}
	}
	f.Body = c.body(0)
	f.Comments, f.Errors = c.commentsAndErrors()
	arenas.leave(c.a)
	return f
}

func (c *conv) popStmts(m int) []Stmt {
	out := c.a.stmtSlices.clone(c.ss[m:])
	c.ss = c.ss[:m]
	return out
}

func (c *conv) popExprs(m int) []Expr {
	out := c.a.exprSlices.clone(c.xs[m:])
	c.xs = c.xs[:m]
	return out
}

func (c *conv) popArgs(m int) []Arg {
	out := c.a.argSlices.clone(c.as[m:])
	c.as = c.as[:m]
	return out
}

// ---------------------------------------------------------------------------
// record helpers

func (c *conv) k(i int32) kind     { return kindOf[c.r[i].sym] }
func (c *conv) fld(i int32) field  { return fieldOf[c.r[i].field] }
func (c *conv) span(i int32) Span  { return Span{int32(c.r[i].start), int32(c.r[i].end)} }
func (c *conv) src(i int32) string { return c.text[c.r[i].start:c.r[i].end] }
func (c *conv) end(i int32) int32  { return c.r[i].next }

// skip reports whether a child of kind k carries nothing to convert:
// comments (collected separately), unrecorded tokens (kNone: only MISSING
// tokens get here) and operator tokens.
func skip(k kind) bool { return k == kComment || k == kNone || k == kOp }

// missing returns a placeholder for an expression the tree lacks (only in
// malformed source), so that fields documented as non-nil never are nil.
func missing(at int32) Expr { return &Opaque{Span: Span{at, at}, Kind: "MISSING"} }

func (c *conv) orMissing(e Expr, i int32) Expr {
	if e == nil {
		return missing(int32(c.r[i].end))
	}
	return e
}

// commentsAndErrors collects every comment and the outermost ERROR and
// MISSING nodes, in source order.
func (c *conv) commentsAndErrors() ([]Comment, []Span) {
	var comments []Comment
	var errs []Span
	skipUntil := int32(0)
	for i := int32(0); i < int32(len(c.r)); i++ {
		r := &c.r[i]
		k := kindOf[r.sym]
		if k == kComment {
			s, e := int(r.start), int(r.end)
			for e > s && c.text[e-1] == '\r' {
				e--
			}
			comments = append(comments, Comment{Span: Span{int32(s), int32(e)}, Text: c.text[s:e]})
			continue
		}
		if (k == kError || r.flags&recMissing != 0) && i >= skipUntil {
			errs = append(errs, c.span(i))
			skipUntil = r.next
		}
	}
	return comments, errs
}

// ---------------------------------------------------------------------------
// statements

var stmtKinds = [numKinds]bool{
	kImport: true, kImportFrom: true, kFutureImport: true, kPrint: true,
	kAssert: true, kExprStmt: true, kReturn: true, kDelete: true, kRaise: true,
	kPass: true, kBreak: true, kContinue: true, kIf: true, kMatch: true,
	kFor: true, kWhile: true, kTry: true, kWith: true, kFuncDef: true,
	kGlobal: true, kNonlocal: true, kExec: true, kTypeAlias: true,
	kClassDef: true, kDecorated: true,
}

// exprKinds are the kinds convertible as an expression on their own.
var exprKinds = [numKinds]bool{
	kOther: true, kIdentifier: true, kAttribute: true, kCall: true,
	kListSplat: true, kDictSplat: true, kGenExp: true, kString: true,
	kConcatString: true, kInteger: true, kFloat: true, kTrue: true,
	kFalse: true, kNoneLit: true, kEllipsis: true, kList: true, kTuple: true,
	kSet: true, kExprList: true, kPatternList: true, kTuplePattern: true,
	kListPattern: true, kDict: true, kLambda: true, kCompare: true,
	kBoolOp: true, kNotOp: true, kUnaryOp: true, kBinOp: true,
	kCondExpr: true, kSubscript: true, kSlice: true, kListComp: true,
	kSetComp: true, kDictComp: true, kAwait: true, kNamedExpr: true,
	kParenExpr: true, kYield: true, kAsPattern: true, kType: true,
	kListSplatPattern: true, kDictSplatPattern: true, kKeywordArg: true,
	kAssignment: true, kAugAssignment: true, kGenericType: true,
	kMemberType: true, kUnionType: true, kSplatType: true,
}

// body converts the statements among the children of record i.
func (c *conv) body(i int32) []Stmt {
	m := len(c.ss)
	c.pushStmts(i)
	return c.popStmts(m)
}

// pushStmts pushes the statements among the children of record i on c.ss.
func (c *conv) pushStmts(i int32) {
	for j := i + 1; j < c.end(i); j = c.end(j) {
		c.pushStmt(j)
	}
}

// pushStmt converts record j, found where a statement belongs, and pushes
// the result (and whatever was salvaged from ERROR nodes inside it) on c.ss.
func (c *conv) pushStmt(j int32) {
	mark := len(c.pending)
	switch k := c.k(j); {
	case skip(k):
		return
	case k == kExprStmt && c.lazyKw[int(c.r[j].start)]:
		return // the stand-in for a `lazy` keyword
	case stmtKinds[k]:
		s := c.stmt(j)
		c.ss = append(c.ss, s)
	case k == kBlock:
		c.pushStmts(j)
	case exprKinds[k] && k != kOther:
		x := c.expr(j)
		s := c.a.exprStmts.new()
		*s = ExprStmt{Span: c.span(j), X: x}
		c.ss = append(c.ss, s)
	default:
		// An ERROR node, or a clause or other structure out of place
		// (error recovery): keep what is inside it.
		c.salvage(j)
	}
	if len(c.pending) > mark {
		c.ss = append(c.ss, c.pending[mark:]...)
		clear(c.pending[mark:])
		c.pending = c.pending[:mark]
	}
}

// orphan salvages an ERROR node found where the tree has no slot for it; the
// statement list being built emits the result after the current statement.
func (c *conv) orphan(j int32) {
	if c.isTPrefixError(j) {
		return
	}
	m := len(c.ss)
	c.salvage(j)
	c.pending = append(c.pending, c.ss[m:]...)
	c.ss = c.ss[:m]
}

// salvage converts the content of a node the grammar did not expect (an
// ERROR node or a stray clause) and pushes the result on c.ss: statements
// and blocks inside it become statements, and each run of expressions
// becomes an OtherStmt whose Kind is the node's type ("ERROR"), so that no
// call or name inside is lost.
func (c *conv) salvage(i int32) {
	if c.isTPrefixError(i) {
		return
	}
	var run *OtherStmt
	kindName := nodeType(c.r[i].sym)
	var visit func(i int32)
	visit = func(i int32) {
		if c.depth >= maxDepth {
			return
		}
		c.depth++
		for j := i + 1; j < c.end(i); j = c.end(j) {
			k := c.k(j)
			switch {
			case skip(k):
			case stmtKinds[k] || k == kBlock:
				if run != nil {
					c.ss = append(c.ss, run)
					run = nil
				}
				c.pushStmt(j)
			case exprKinds[k]:
				e := c.expr(j)
				if run == nil {
					run = &OtherStmt{Span: c.span(j), Kind: kindName}
				}
				run.Exprs = append(run.Exprs, e)
				if end := int32(c.r[j].end); end > run.End {
					run.End = end
				}
			default: // ERROR, clauses, argument lists, parameters, ...
				visit(j)
			}
		}
		c.depth--
	}
	visit(i)
	if run != nil {
		c.ss = append(c.ss, run)
	}
}

// stmt converts a statement record (one of stmtKinds).
func (c *conv) stmt(i int32) Stmt {
	if c.depth >= maxDepth {
		return &OtherStmt{Span: c.span(i), Kind: nodeType(c.r[i].sym)}
	}
	c.depth++
	s := c.stmt1(i)
	c.depth--
	return s
}

func (c *conv) stmt1(i int32) Stmt {
	switch c.k(i) {
	case kImport:
		return c.importStmt(i)
	case kImportFrom, kFutureImport:
		return c.importFrom(i)
	case kExprStmt:
		return c.exprStmt(i)
	case kReturn:
		s := c.a.returns.new()
		s.Span = c.span(i)
		for j := i + 1; j < c.end(i); j = c.end(j) {
			switch k := c.k(j); {
			case skip(k):
			case k == kError:
				c.orphan(j)
			case s.Value == nil:
				s.Value = c.expr(j)
			default:
				c.orphanExpr(j)
			}
		}
		return s
	case kGlobal, kNonlocal:
		s := &Global{Span: c.span(i), Nonlocal: c.k(i) == kNonlocal}
		for j := i + 1; j < c.end(i); j = c.end(j) {
			switch k := c.k(j); {
			case k == kIdentifier:
				s.Names = append(s.Names, c.src(j))
			case k == kError:
				c.orphan(j)
			}
		}
		return s
	case kIf:
		return c.ifStmt(i)
	case kFor:
		return c.forStmt(i)
	case kWhile:
		return c.whileStmt(i)
	case kTry:
		return c.tryStmt(i)
	case kWith:
		return c.withStmt(i)
	case kFuncDef:
		return c.funcDef(i, c.span(i), nil)
	case kClassDef:
		return c.classDef(i, c.span(i), nil)
	case kDecorated:
		return c.decorated(i)
	case kMatch:
		return c.matchStmt(i)
	default:
		// pass, break, continue, del, assert, raise, print, exec, type.
		s := c.a.otherStmts.new()
		m := len(c.xs)
		c.pushExprList(i)
		*s = OtherStmt{Span: c.span(i), Kind: nodeType(c.r[i].sym), Exprs: c.popExprs(m)}
		return s
	}
}

// pushExprList pushes the expressions among the children of record i on
// c.xs, spreading bare tuples (`del a, b`, `raise E, v`) and print's chevron.
func (c *conv) pushExprList(i int32) {
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kExprList || k == kChevron:
			c.pushExprList(j)
		default:
			x := c.expr(j)
			c.xs = append(c.xs, x)
		}
	}
}

// orphanExpr keeps an expression that has no slot in its parent (only in
// malformed trees) as a pending OtherStmt.
func (c *conv) orphanExpr(j int32) {
	c.pending = append(c.pending, &OtherStmt{Span: c.span(j), Kind: nodeType(c.r[j].sym), Exprs: []Expr{c.expr(j)}})
}

func (c *conv) importStmt(i int32) *Import {
	s := &Import{Span: c.span(i)}
	s.Start, s.Lazy = c.lazyStart(s.Start)
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch c.k(j) {
		case kDottedName, kAliasedImport:
			s.Names = append(s.Names, c.alias(j))
		case kError:
			c.orphan(j)
		}
	}
	return s
}

func (c *conv) importFrom(i int32) *ImportFrom {
	s := &ImportFrom{Span: c.span(i)}
	s.Start, s.Lazy = c.lazyStart(s.Start)
	if c.k(i) == kFutureImport {
		s.Module = "__future__"
	}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case k == kRelativeImport:
			for m := j + 1; m < c.end(j); m = c.end(m) {
				switch c.k(m) {
				case kImportPrefix:
					s.Level = strings.Count(c.src(m), ".")
				case kDottedName:
					s.Module = c.dotted(m)
				}
			}
		case k == kDottedName && c.fld(j) == fModuleName:
			s.Module = c.dotted(j)
		case k == kDottedName || k == kAliasedImport:
			s.Names = append(s.Names, c.alias(j))
		case k == kWildcardImport:
			s.Star = true
		case k == kError:
			c.orphan(j)
		}
	}
	return s
}

// lazyStart returns where an import statement found at start really starts,
// and whether a `lazy` keyword makes it lazy.
func (c *conv) lazyStart(start int32) (int32, bool) {
	if kw, ok := c.lazyStmt[int(start)]; ok {
		return int32(kw), true
	}
	return start, false
}

func (c *conv) alias(i int32) Alias {
	a := Alias{Span: c.span(i)}
	if c.k(i) == kDottedName {
		a.Name = c.dotted(i)
		return a
	}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch c.k(j) {
		case kDottedName:
			a.Name = c.dotted(j)
		case kIdentifier:
			a.AsName = c.src(j)
		}
	}
	return a
}

// dotted returns a dotted_name's text without white space or comments.
func (c *conv) dotted(i int32) string {
	s := c.src(i)
	if strings.IndexFunc(s, func(r rune) bool { return r != '.' && !isIdentRune(r) }) < 0 {
		return s
	}
	var b strings.Builder
	for j := i + 1; j < c.end(i); j = c.end(j) {
		if c.k(j) == kIdentifier {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(c.src(j))
		}
	}
	return b.String()
}

func isIdentRune(r rune) bool {
	return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r >= 0x80
}

func (c *conv) exprStmt(i int32) Stmt {
	// The common case: a single expression child.
	if j := i + 1; j < c.end(i) && c.end(j) == c.end(i) {
		switch k := c.k(j); {
		case k == kAssignment:
			return c.assign(i, j)
		case k == kAugAssignment:
			return c.augAssign(i, j)
		case !skip(k) && k != kError:
			x := c.expr(j)
			s := c.a.exprStmts.new()
			*s = ExprStmt{Span: c.span(i), X: x}
			return s
		}
	}
	m := len(c.xs)
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kAssignment || k == kAugAssignment:
			// Only beside comments or ERROR nodes.
			c.xs = c.xs[:m]
			if k == kAssignment {
				return c.assign(i, j)
			}
			return c.augAssign(i, j)
		default:
			x := c.expr(j)
			c.xs = append(c.xs, x)
		}
	}
	sp := c.span(i)
	s := c.a.exprStmts.new()
	s.Span = sp
	switch n := len(c.xs) - m; n {
	case 0:
		s.X = missing(sp.Start)
	case 1:
		s.X = c.xs[m]
		c.xs = c.xs[:m]
	default:
		// `a, b` without parentheses.
		tup := c.a.sequences.new()
		*tup = Sequence{Span: Span{c.xs[m].Pos().Start, c.xs[len(c.xs)-1].Pos().End}, Kind: Tuple}
		tup.Elts = c.popExprs(m)
		s.X = tup
	}
	return s
}

// assign converts `a = b = c` (nested assignments on the right), `a: T` and
// `a: T = v`. stmt is the expression_statement holding assignment a.
func (c *conv) assign(stmt, a int32) *Assign {
	s := c.a.assigns.new()
	*s = Assign{Span: c.span(stmt), Op: "="}
	m := len(c.xs)
	defer func() { s.Targets = c.popExprs(m) }()
	for cur := a; ; {
		right := int32(-1)
		for j := cur + 1; j < c.end(cur); j = c.end(j) {
			k := c.k(j)
			switch {
			case skip(k):
			case k == kError:
				c.orphan(j)
			case c.fld(j) == fLeft:
				x := c.expr(j)
				c.xs = append(c.xs, x)
			case c.fld(j) == fType:
				s.Annotation = c.expr(j)
			case c.fld(j) == fRight:
				right = j
			default:
				c.orphanExpr(j)
			}
		}
		if right < 0 {
			return s
		}
		if c.k(right) == kAssignment {
			cur = right
			continue
		}
		s.Value = c.expr(right)
		return s
	}
}

func (c *conv) augAssign(stmt, a int32) *Assign {
	s := c.a.assigns.new()
	s.Span = c.span(stmt)
	for j := a + 1; j < c.end(a); j = c.end(j) {
		k := c.k(j)
		switch {
		case k == kOp:
			s.Op = symName[c.r[j].sym]
		case skip(k):
		case k == kError:
			c.orphan(j)
		case c.fld(j) == fLeft && s.Targets == nil:
			s.Targets = c.a.exprSlices.clone([]Expr{c.expr(j)})
		case c.fld(j) == fRight:
			s.Value = c.expr(j)
		default:
			c.orphanExpr(j)
		}
	}
	if len(s.Targets) == 0 {
		s.Targets = []Expr{missing(s.Start)}
	}
	s.Value = c.orMissing(s.Value, a)
	return s
}

// block converts a `block` record (or salvages whatever sits in its place).
func (c *conv) block(i int32) []Stmt {
	m := len(c.ss)
	c.pushStmt(i)
	return c.popStmts(m)
}

// addBlock adds the statements of block record i to *body.
func (c *conv) addBlock(body *[]Stmt, i int32) {
	if *body == nil {
		*body = c.block(i)
	} else {
		*body = append(*body, c.block(i)...)
	}
}

// clauseBody returns the statements of an else/finally clause (the children
// are the block and, in malformed trees, strays around it).
func (c *conv) clauseBody(i int32) []Stmt {
	return c.body(i)
}

func (c *conv) ifStmt(i int32) *If {
	s := c.a.ifs.new()
	s.Span = c.span(i)
	tail := &s.Else
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kElif:
			e := c.a.ifs.new()
			e.Span = Span{int32(c.r[j].start), s.End}
			for m := j + 1; m < c.end(j); m = c.end(m) {
				switch km := c.k(m); {
				case skip(km):
				case km == kError:
					c.orphan(m)
				case c.fld(m) == fCondition:
					e.Test = c.expr(m)
				default:
					c.addBlock(&e.Body, m)
				}
			}
			e.Test = c.orMissing(e.Test, j)
			*tail = []Stmt{e}
			tail = &e.Else
		case k == kElse:
			*tail = append(*tail, c.clauseBody(j)...)
		case c.fld(j) == fCondition:
			s.Test = c.expr(j)
		default:
			c.addBlock(&s.Body, j)
		}
	}
	s.Test = c.orMissing(s.Test, i)
	return s
}

func (c *conv) hasAsync(i int32) bool {
	return strings.HasPrefix(c.src(i), "async")
}

func (c *conv) forStmt(i int32) *For {
	s := &For{Span: c.span(i), Async: c.hasAsync(i)}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kElse:
			s.Else = c.clauseBody(j)
		case c.fld(j) == fLeft:
			s.Target = c.expr(j)
		case c.fld(j) == fRight:
			s.Iter = c.expr(j)
		default:
			c.addBlock(&s.Body, j)
		}
	}
	s.Target = c.orMissing(s.Target, i)
	s.Iter = c.orMissing(s.Iter, i)
	return s
}

func (c *conv) whileStmt(i int32) *While {
	s := &While{Span: c.span(i)}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kElse:
			s.Else = c.clauseBody(j)
		case c.fld(j) == fCondition:
			s.Test = c.expr(j)
		default:
			c.addBlock(&s.Body, j)
		}
	}
	s.Test = c.orMissing(s.Test, i)
	return s
}

func (c *conv) tryStmt(i int32) *Try {
	s := &Try{Span: c.span(i)}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kExcept || k == kExceptGroup:
			s.Handlers = append(s.Handlers, c.handler(j))
		case k == kElse:
			s.Else = c.clauseBody(j)
		case k == kFinally:
			s.Finally = c.clauseBody(j)
		default:
			c.addBlock(&s.Body, j)
		}
	}
	return s
}

// handler converts `except T as name:`. Several types without parentheses
// (`except A, B:`, Python 3.14; the grammar reads two as the Python 2
// `except T, name` form and wraps more in ERROR nodes) give a Tuple Type.
func (c *conv) handler(i int32) ExceptHandler {
	h := ExceptHandler{Span: c.span(i)}
	var types []Expr
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kBlock:
			c.addBlock(&h.Body, j)
		case k == kAsPattern:
			for m := j + 1; m < c.end(j); m = c.end(m) {
				switch km := c.k(m); {
				case skip(km):
				case km == kAsPatternTarget:
					h.Name = strings.TrimSpace(c.src(m))
				case km == kError:
					c.orphan(m)
				default:
					types = append(types, c.expr(m))
				}
			}
		case k == kError:
			types = c.errorExprs(types, j)
		case exprKinds[k]:
			types = append(types, c.expr(j))
		default:
			c.addBlock(&h.Body, j)
		}
	}
	switch len(types) {
	case 0:
	case 1:
		h.Type = types[0]
	default:
		h.Type = &Sequence{Span: Span{types[0].Pos().Start, types[len(types)-1].Pos().End}, Kind: Tuple, Elts: types}
	}
	return h
}

// errorExprs appends the expressions inside ERROR node i to out; anything
// else in it is salvaged as pending statements.
func (c *conv) errorExprs(out []Expr, i int32) []Expr {
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case exprKinds[k] && k != kOther:
			out = append(out, c.expr(j))
		default:
			st := c.block(j)
			c.pending = append(c.pending, st...)
		}
	}
	return out
}

func (c *conv) withStmt(i int32) *With {
	s := &With{Span: c.span(i), Async: c.hasAsync(i)}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kWithClause:
			for m := j + 1; m < c.end(j); m = c.end(m) {
				switch km := c.k(m); {
				case skip(km):
				case km == kWithItem:
					s.Items = append(s.Items, c.withItem(m))
				case km == kError:
					c.orphan(m)
				default:
					c.orphanExpr(m)
				}
			}
		default:
			c.addBlock(&s.Body, j)
		}
	}
	return s
}

func (c *conv) withItem(i int32) WithItem {
	w := WithItem{Span: c.span(i)}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kAsPattern && w.Value == nil:
			for m := j + 1; m < c.end(j); m = c.end(m) {
				switch km := c.k(m); {
				case skip(km):
				case km == kError:
					c.orphan(m)
				case km == kAsPatternTarget:
					w.Target = c.firstExpr(m)
				case w.Value == nil:
					w.Value = c.expr(m)
				default:
					c.orphanExpr(m)
				}
			}
		case w.Value == nil:
			w.Value = c.expr(j)
		default:
			c.orphanExpr(j)
		}
	}
	w.Value = c.orMissing(w.Value, i)
	return w
}

func (c *conv) decorated(i int32) Stmt {
	var def int32 = -1
	m := len(c.xs)
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kDecorator:
			x := c.firstExpr(j)
			c.xs = append(c.xs, x)
		case k == kFuncDef || k == kClassDef:
			def = j
		case k == kError:
			c.orphan(j)
		default:
			c.orphanExpr(j)
		}
	}
	decos := c.popExprs(m)
	sp := c.span(i)
	switch {
	case def < 0:
		// Decorators without a definition (error recovery).
		return &OtherStmt{Span: sp, Kind: "decorated_definition", Exprs: decos}
	case c.k(def) == kFuncDef:
		return c.funcDef(def, sp, decos)
	default:
		return c.classDef(def, sp, decos)
	}
}

func (c *conv) funcDef(i int32, sp Span, decos []Expr) *FunctionDef {
	s := &FunctionDef{Span: sp, Decorators: decos, Async: c.hasAsync(i)}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kIdentifier && c.fld(j) == fName:
			s.Name, s.NameSpan = c.src(j), c.span(j)
		case k == kParameters:
			s.Params = c.params(j)
		case c.fld(j) == fBody || k == kBlock:
			c.funcBody(s, j)
		}
		// Type parameters and the return annotation are not kept.
	}
	return s
}

// funcBody converts the block j of function s. The body of an outermost
// function that may be deferred (deferred.go) is converted in the file's
// scratch arena, so that File.DeferBodies can drop it; if it turns out to
// be pinned, or its conversion left statements for the enclosing block, it
// is converted again, in the file's arena, as every other body is.
func (c *conv) funcBody(s *FunctionDef, j int32) {
	c.funcDepth++
	defer func() { c.funcDepth-- }()
	self := firstParam(s.Params)
	if !deferBodies || c.funcDepth > 1 || s.body != nil || c.mayPin(j, self) {
		// A second block (error recovery) was not checked: the body
		// stays converted.
		s.deferrable = false
		c.addBlock(&s.body, j)
		return
	}
	fileArena, pending := c.a, len(c.pending)
	c.a = c.scratch
	body := c.block(j)
	c.scratch, c.a = c.a, fileArena
	if len(body) > 0 && len(c.pending) == pending && !bodyPinned(body, self) {
		s.body, s.deferrable = body, true
		return
	}
	c.pending = c.pending[:pending]
	c.addBlock(&s.body, j)
}

// mayPin is a fast look at the records of block j for what pins it
// (bodyPinned, which decides for the bodies this lets through): a
// definition, lambda, import or global statement, an attribute of the
// first parameter, self, inside an assignment's, a for clause's or a with
// item's target, or a name that reads or writes a namespace. Saying yes
// wrongly only keeps a body converted.
func (c *conv) mayPin(j int32, self string) bool {
	var targets [][2]int32 // the store targets around or ahead of i
	inTarget := func(i int32) bool {
		for _, t := range targets {
			if i >= t[0] && i < t[1] {
				return true
			}
		}
		return false
	}
	for i, end := j+1, c.end(j); i < end; i++ {
		for len(targets) > 0 && i >= targets[len(targets)-1][1] {
			targets = targets[:len(targets)-1]
		}
		switch c.k(i) {
		case kGlobal, kNonlocal, kFuncDef, kClassDef, kLambda, kImport, kImportFrom, kFutureImport:
			return true
		case kAttribute:
			// Not one whose value is read to store into (self.a.b = v,
			// self.a[k] = v).
			if self != "" && inTarget(i) && c.k(i+1) == kIdentifier && c.src(i+1) == self &&
				c.fld(i) != fObject && c.fld(i) != fValue {
				return true
			}
		case kIdentifier:
			if namespaceNames[c.src(i)] {
				return true
			}
		case kAsPatternTarget:
			targets = append(targets, [2]int32{i, c.end(i)})
		case kAssignment, kAugAssignment, kFor, kForInClause:
			for ch := i + 1; ch < c.end(i); ch = c.end(ch) {
				if c.fld(ch) == fLeft {
					targets = append(targets, [2]int32{ch, c.end(ch)})
				}
			}
		}
	}
	return false
}

func (c *conv) classDef(i int32, sp Span, decos []Expr) *ClassDef {
	s := &ClassDef{Span: sp, Decorators: decos}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kIdentifier && c.fld(j) == fName:
			s.Name, s.NameSpan = c.src(j), c.span(j)
		case k == kArgList:
			s.Bases = c.args(j)
		case c.fld(j) == fBody || k == kBlock:
			c.addBlock(&s.Body, j)
		}
	}
	return s
}

// params converts `parameters` or `lambda_parameters`.
func (c *conv) params(i int32) []Param {
	var ps []Param
	kwOnly := false
	normal := func() ParamKind {
		if kwOnly {
			return ParamKwOnly
		}
		return ParamNormal
	}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		sp := c.span(j)
		switch c.k(j) {
		case kIdentifier, kTuplePattern:
			ps = append(ps, Param{Span: sp, Name: c.src(j), Kind: normal()})
		case kListSplatPattern:
			ps = append(ps, Param{Span: sp, Name: c.splatName(j), Kind: ParamVarArgs})
			kwOnly = true
		case kDictSplatPattern:
			ps = append(ps, Param{Span: sp, Name: c.splatName(j), Kind: ParamKwArgs})
		case kKeywordSep:
			kwOnly = true
		case kTypedParam, kDefaultParam, kTypedDefaultParam:
			p := Param{Span: sp, Kind: normal()}
			for m := j + 1; m < c.end(j); m = c.end(m) {
				km := c.k(m)
				switch {
				case skip(km):
				case km == kError:
					c.orphan(m)
				case c.fld(m) == fValue:
					p.Default = c.expr(m)
				case c.fld(m) == fType:
					if x := c.expr(m); !isNil(x) {
						p.Annotation = x
					}
				case km == kListSplatPattern: // *args: T
					p.Name, p.Kind = c.splatName(m), ParamVarArgs
					kwOnly = true
				case km == kDictSplatPattern: // **kw: T
					p.Name, p.Kind = c.splatName(m), ParamKwArgs
				case p.Name == "":
					p.Name = c.src(m)
				}
			}
			ps = append(ps, p)
		case kError:
			c.orphan(j)
		}
	}
	return ps
}

// splatName returns the name in `*name` / `**name`.
func (c *conv) splatName(i int32) string {
	for j := i + 1; j < c.end(i); j = c.end(j) {
		if k := c.k(j); !skip(k) && k != kError {
			return c.src(j)
		}
	}
	return ""
}

func (c *conv) matchStmt(i int32) *Match {
	s := &Match{Span: c.span(i)}
	var subjects []Expr
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kBlock:
			for m := j + 1; m < c.end(j); m = c.end(m) {
				switch km := c.k(m); {
				case skip(km):
				case km == kCase:
					s.Cases = append(s.Cases, c.matchCase(m))
				default:
					st := c.block(m)
					c.pending = append(c.pending, st...)
				}
			}
		case c.fld(j) == fSubject:
			subjects = append(subjects, c.expr(j))
		default:
			c.orphanExpr(j)
		}
	}
	switch len(subjects) {
	case 0:
		s.Subject = missing(s.Start)
	case 1:
		s.Subject = subjects[0]
	default:
		s.Subject = &Sequence{Span: Span{subjects[0].Pos().Start, subjects[len(subjects)-1].Pos().End}, Kind: Tuple, Elts: subjects}
	}
	return s
}

func (c *conv) matchCase(i int32) MatchCase {
	mc := MatchCase{Span: c.span(i)}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kIfClause:
			mc.Guard = c.firstExpr(j)
		case k == kBlock:
			c.addBlock(&mc.Body, j)
		}
		// Patterns are not kept.
	}
	return mc
}
