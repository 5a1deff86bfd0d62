package syntax

// expr converts an expression record. Kinds without a model become Opaque
// with their converted sub-expressions.
func (c *conv) expr(i int32) Expr {
	if c.depth >= maxDepth {
		return &Opaque{Span: c.span(i), Kind: nodeType(c.r[i].sym)}
	}
	c.depth++
	e := c.expr1(i)
	c.depth--
	return e
}

func (c *conv) expr1(i int32) Expr {
	sp := c.span(i)
	switch c.k(i) {
	case kIdentifier:
		n := c.a.names.new()
		*n = Name{Span: sp, ID: c.src(i)}
		return n
	case kAttribute:
		return hoistStar(c.attribute(i))
	case kCall:
		return hoistStar(c.call(i))
	case kString, kConcatString:
		return c.str(i)
	case kInteger, kFloat:
		n := c.a.numbers.new()
		*n = Number{Span: sp, Text: c.src(i)}
		return n
	case kTrue:
		return c.constant(sp, ConstTrue)
	case kFalse:
		return c.constant(sp, ConstFalse)
	case kNoneLit:
		return c.constant(sp, ConstNone)
	case kEllipsis:
		return c.constant(sp, ConstEllipsis)
	case kList, kListPattern:
		return c.sequence(i, List)
	case kTuple, kExprList, kPatternList, kTuplePattern:
		return c.sequence(i, Tuple)
	case kSet:
		return c.sequence(i, Set)
	case kDict:
		return c.dict(i)
	case kLambda:
		return c.lambda(i)
	case kCompare:
		return c.compare(i)
	case kBoolOp:
		b := c.a.boolOps.new()
		b.Span = sp
		b.Op, b.X, b.Y = c.binary(i)
		return b
	case kBinOp:
		b := c.a.binOps.new()
		b.Span = sp
		b.Op, b.X, b.Y = c.binary(i)
		return b
	case kNotOp:
		x := c.firstExpr(i)
		u := c.a.unaryOps.new()
		*u = UnaryOp{Span: sp, Op: "not", X: x}
		return u
	case kUnaryOp:
		u := c.a.unaryOps.new()
		u.Span = sp
		for j := i + 1; j < c.end(i); j = c.end(j) {
			switch k := c.k(j); {
			case k == kOp && u.Op == "":
				u.Op = symName[c.r[j].sym]
			case skip(k):
			case k == kError:
				c.orphan(j)
			case u.X == nil:
				u.X = c.expr(j)
			default:
				c.orphanExpr(j)
			}
		}
		u.X = c.orMissing(u.X, i)
		return u
	case kCondExpr:
		var xs [3]Expr
		n := 0
		for j := i + 1; j < c.end(i); j = c.end(j) {
			switch k := c.k(j); {
			case skip(k):
			case k == kError:
				c.orphan(j)
			case n < 3:
				xs[n] = c.expr(j)
				n++
			default:
				c.orphanExpr(j)
			}
		}
		return &IfExp{Span: sp, Body: c.orMissing(xs[0], i), Test: c.orMissing(xs[1], i), Else: c.orMissing(xs[2], i)}
	case kSubscript:
		s := c.a.subscripts.new()
		s.Span = sp
		m := len(c.xs)
		for j := i + 1; j < c.end(i); j = c.end(j) {
			switch k := c.k(j); {
			case skip(k):
			case k == kError:
				c.orphan(j)
			case s.X == nil && c.fld(j) == fValue:
				s.X = c.expr(j)
			default:
				x := c.expr(j)
				c.xs = append(c.xs, x)
			}
		}
		s.Index = c.popExprs(m)
		s.X = c.orMissing(s.X, i)
		return hoistStar(s)
	case kListComp:
		return c.comprehension(i, ListComp)
	case kSetComp:
		return c.comprehension(i, SetComp)
	case kDictComp:
		return c.comprehension(i, DictComp)
	case kGenExp:
		return c.comprehension(i, GeneratorExp)
	case kAwait:
		return &Await{Span: sp, X: c.firstExpr(i)}
	case kNamedExpr:
		n := &NamedExpr{Span: sp}
		for j := i + 1; j < c.end(i); j = c.end(j) {
			switch k := c.k(j); {
			case skip(k):
			case k == kError:
				c.orphan(j)
			case c.fld(j) == fName:
				n.Target = c.expr(j)
			case c.fld(j) == fValue:
				n.Value = c.expr(j)
			default:
				c.orphanExpr(j)
			}
		}
		n.Target, n.Value = c.orMissing(n.Target, i), c.orMissing(n.Value, i)
		return n
	case kParenExpr:
		return c.firstExpr(i)
	case kListSplat, kListSplatPattern:
		return &Starred{Span: sp, X: c.firstExpr(i)}
	case kType:
		// An annotation or type alias side: usually a plain expression.
		if j := i + 1; j < c.end(i) && c.end(j) == c.end(i) && exprKinds[c.k(j)] {
			return c.expr(j)
		}
	case kGenericType:
		// In annotations the grammar reads list[int] as a generic type
		// (identifier + type_parameter); it is a subscript.
		var tp int32 = -1
		var x Expr
		for j := i + 1; j < c.end(i); j = c.end(j) {
			switch k := c.k(j); {
			case k == kTypeParameter && tp < 0:
				tp = j
			case skip(k) || k == kError:
			case x == nil:
				x = c.expr(j)
			}
		}
		if x == nil || tp < 0 {
			break
		}
		s := c.a.subscripts.new()
		*s = Subscript{Span: sp, X: x, Index: c.elts(tp)}
		return s
	case kMemberType:
		// T.attr in an annotation.
		var x Expr
		for j := i + 1; j < c.end(i); j = c.end(j) {
			switch k := c.k(j); {
			case skip(k) || k == kError:
			case x == nil:
				x = c.expr(j)
			case k == kIdentifier:
				a := c.a.attributes.new()
				*a = Attribute{Span: sp, X: x, Attr: c.src(j), AttrSpan: c.span(j)}
				return a
			}
		}
	case kUnionType:
		b := c.a.binOps.new()
		b.Span = sp
		for j := i + 1; j < c.end(i); j = c.end(j) {
			switch k := c.k(j); {
			case k == kOp:
				b.Op = symName[c.r[j].sym]
			case skip(k):
			case k == kError:
				c.orphan(j)
			case b.X == nil:
				b.X = c.expr(j)
			case b.Y == nil:
				b.Y = c.expr(j)
			default:
				c.orphanExpr(j)
			}
		}
		b.X, b.Y = c.orMissing(b.X, i), c.orMissing(b.Y, i)
		return b
	case kSplatType:
		// *Ts (a Starred); **P stays Opaque.
		if j := i + 1; j < c.end(i) && c.k(j) == kOp && symName[c.r[j].sym] == "*" {
			return &Starred{Span: sp, X: c.firstExpr(i)}
		}
	}
	return c.opaque(i)
}

// opaque converts any node as an Opaque holding its sub-expressions.
func (c *conv) opaque(i int32) *Opaque {
	o := c.a.opaques.new()
	*o = Opaque{Span: c.span(i), Kind: nodeType(c.r[i].sym)}
	m := len(c.xs)
	for j := i + 1; j < c.end(i); j = c.end(j) {
		if !skip(c.k(j)) {
			x := c.expr(j)
			c.xs = append(c.xs, x)
		}
	}
	o.Children = c.popExprs(m)
	return o
}

func (c *conv) constant(sp Span, k ConstantKind) *Constant {
	n := c.a.constants.new()
	*n = Constant{Span: sp, Kind: k}
	return n
}

func (c *conv) sequence(i int32, k SequenceKind) *Sequence {
	s := c.a.sequences.new()
	*s = Sequence{Span: c.span(i), Kind: k}
	s.Elts = c.elts(i)
	return s
}

// firstExpr converts the first expression child of record i (await x, *x,
// (x), @decorator, ...); ERROR children are salvaged.
func (c *conv) firstExpr(i int32) Expr {
	var x Expr
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case x == nil:
			x = c.expr(j)
		default:
			c.orphanExpr(j)
		}
	}
	return c.orMissing(x, i)
}

// binary converts boolean and binary operators: left, operator, right.
func (c *conv) binary(i int32) (op string, x, y Expr) {
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case k == kOp && op == "":
			op = symName[c.r[j].sym]
		case skip(k):
		case k == kError:
			c.orphan(j)
		case x == nil && c.fld(j) == fLeft:
			x = c.expr(j)
		case y == nil && c.fld(j) == fRight:
			y = c.expr(j)
		default:
			c.orphanExpr(j)
		}
	}
	return op, c.orMissing(x, i), c.orMissing(y, i)
}

func (c *conv) attribute(i int32) *Attribute {
	a := c.a.attributes.new()
	a.Span = c.span(i)
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case a.X == nil && c.fld(j) == fObject:
			a.X = c.expr(j)
		case k == kIdentifier && c.fld(j) == fAttribute:
			a.Attr, a.AttrSpan = c.src(j), c.span(j)
		default:
			c.orphanExpr(j)
		}
	}
	a.X = c.orMissing(a.X, i)
	if a.AttrSpan == (Span{}) {
		a.AttrSpan = Span{a.End, a.End}
	}
	return a
}

func (c *conv) call(i int32) *Call {
	call := c.a.calls.new()
	call.Span = c.span(i)
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case call.Func == nil && c.fld(j) == fFunction:
			call.Func = c.expr(j)
		case k == kArgList:
			call.ArgsSpan = c.span(j)
			call.Args = c.args(j)
		case k == kGenExp && c.fld(j) == fArguments:
			// f(x for x in y): the generator is the only argument.
			call.ArgsSpan = c.span(j)
			x := c.expr(j)
			call.Args = c.a.argSlices.clone([]Arg{{Span: c.span(j), Value: x}})
		default:
			c.orphanExpr(j)
		}
	}
	call.Func = c.orMissing(call.Func, i)
	if call.ArgsSpan == (Span{}) {
		call.ArgsSpan = Span{call.End, call.End}
	}
	return call
}

// args converts an argument_list (call arguments, class bases).
func (c *conv) args(i int32) []Arg {
	m := len(c.as)
	for j := i + 1; j < c.end(i); j = c.end(j) {
		sp := c.span(j)
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kKeywordArg:
			a := Arg{Span: sp}
			for m := j + 1; m < c.end(j); m = c.end(m) {
				km := c.k(m)
				switch {
				case skip(km):
				case km == kError:
					c.orphan(m)
				case a.Keyword == "" && c.fld(m) == fName:
					a.Keyword, a.KeywordSpan = c.src(m), c.span(m)
				case a.Value == nil && c.fld(m) == fValue:
					a.Value = c.expr(m)
				default:
					c.orphanExpr(m)
				}
			}
			a.Value = c.orMissing(a.Value, j)
			c.as = append(c.as, a)
		case k == kListSplat:
			x := c.firstExpr(j)
			c.as = append(c.as, Arg{Span: sp, Star: 1, Value: x})
		case k == kDictSplat:
			x := c.firstExpr(j)
			c.as = append(c.as, Arg{Span: sp, Star: 2, Value: x})
		default:
			x := c.expr(j)
			c.as = append(c.as, Arg{Span: sp, Value: x})
		}
	}
	return c.popArgs(m)
}

// elts converts the elements of a list, tuple, set or target list.
func (c *conv) elts(i int32) []Expr {
	m := len(c.xs)
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		default:
			x := c.expr(j)
			c.xs = append(c.xs, x)
		}
	}
	return c.popExprs(m)
}

func (c *conv) dict(i int32) *Dict {
	d := &Dict{Span: c.span(i)}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kPair:
			key, val := c.pair(j)
			d.Keys = append(d.Keys, key)
			d.Values = append(d.Values, val)
		case k == kDictSplat:
			d.Keys = append(d.Keys, nil)
			d.Values = append(d.Values, c.firstExpr(j))
		default:
			c.orphanExpr(j)
		}
	}
	return d
}

// pair converts `key: value`.
func (c *conv) pair(i int32) (key, val Expr) {
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case key == nil && c.fld(j) == fKey:
			key = c.expr(j)
		case val == nil && c.fld(j) == fValue:
			val = c.expr(j)
		default:
			c.orphanExpr(j)
		}
	}
	return c.orMissing(key, i), c.orMissing(val, i)
}

func (c *conv) lambda(i int32) *Lambda {
	l := &Lambda{Span: c.span(i)}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kLambdaParameters:
			l.Params = c.params(j)
		case l.Body == nil && c.fld(j) == fBody:
			l.Body = c.expr(j)
		default:
			c.orphanExpr(j)
		}
	}
	l.Body = c.orMissing(l.Body, i)
	return l
}

func (c *conv) compare(i int32) *Compare {
	cmp := c.a.compares.new()
	cmp.Span = c.span(i)
	m := len(c.xs)
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case k == kOp:
			op := symName[c.r[j].sym]
			if op == "<>" {
				op = "!="
			}
			cmp.Ops = append(cmp.Ops, op)
		case skip(k):
		case k == kError:
			c.orphan(j)
		case cmp.Left == nil:
			cmp.Left = c.expr(j)
		default:
			x := c.expr(j)
			c.xs = append(c.xs, x)
		}
	}
	cmp.Comparators = c.popExprs(m)
	cmp.Left = c.orMissing(cmp.Left, i)
	// Keep Ops and Comparators the same length even in malformed trees.
	for len(cmp.Comparators) < len(cmp.Ops) {
		cmp.Comparators = append(cmp.Comparators, missing(cmp.End))
	}
	for len(cmp.Ops) < len(cmp.Comparators) {
		cmp.Ops = append(cmp.Ops, "")
	}
	return cmp
}

func (c *conv) comprehension(i int32, kind ComprehensionKind) *Comprehension {
	cp := &Comprehension{Span: c.span(i), Kind: kind}
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kForInClause:
			cp.Generators = append(cp.Generators, c.compFor(j))
		case k == kIfClause:
			cond := c.firstExpr(j)
			if n := len(cp.Generators); n > 0 {
				cp.Generators[n-1].Ifs = append(cp.Generators[n-1].Ifs, cond)
				cp.Generators[n-1].End = int32(c.r[j].end)
			} else {
				c.pending = append(c.pending, &OtherStmt{Span: c.span(j), Kind: "if_clause", Exprs: []Expr{cond}})
			}
		case cp.Elt == nil && c.fld(j) == fBody:
			if k == kPair {
				cp.Elt, cp.Value = c.pair(j)
			} else {
				cp.Elt = c.expr(j)
			}
		default:
			c.orphanExpr(j)
		}
	}
	cp.Elt = c.orMissing(cp.Elt, i)
	if kind == DictComp {
		cp.Value = c.orMissing(cp.Value, i)
	}
	return cp
}

// compFor converts `[async] for Target in Iter` (the if clauses that follow
// are added by the caller; CompFor's span grows to cover them).
func (c *conv) compFor(i int32) CompFor {
	cf := CompFor{Span: c.span(i)}
	var iters []Expr
	for j := i + 1; j < c.end(i); j = c.end(j) {
		k := c.k(j)
		switch {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case cf.Target == nil && c.fld(j) == fLeft:
			cf.Target = c.expr(j)
		case c.fld(j) == fRight:
			iters = append(iters, c.expr(j))
		default:
			c.orphanExpr(j)
		}
	}
	cf.Target = c.orMissing(cf.Target, i)
	switch len(iters) {
	case 0:
		cf.Iter = missing(cf.End)
	case 1:
		cf.Iter = iters[0]
	default:
		// `for x in a, b` (Python 2 style) iterates over a tuple.
		cf.Iter = &Sequence{Span: Span{iters[0].Pos().Start, iters[len(iters)-1].Pos().End}, Kind: Tuple, Elts: iters}
	}
	return cf
}
