package syntax

import (
	"bytes"
	"sort"
)

// Starred elements the bundled grammar cannot read. In a bare expression
// list (`return a, *rest`, `x = a, *rest`, `for x in a, *rest:`,
// `yield a, *rest`) and in a subscript (`t[*rest]`, Python 3.11) it accepts
// `*` only before a name, an attribute or a subscript (its
// list_splat_pattern), so valid code since Python 3.8 such as
//
//	return a, *((None,) * 30)
//
// becomes an ERROR node. Parse works around it in two steps:
//
//   - When a parse has errors, retrySplats looks, on the lines with errors,
//     for a `*` that can only be a star (after `,`, `=`, an opening bracket,
//     `return`, `yield`, `in` or at the start of a statement) before
//     something other than a name (a bracket, a literal, a sign), replaces
//     it by a space and parses again; if that leaves fewer bytes in errors,
//     the result is kept and each element after a replaced star is wrapped
//     back in a Starred (or becomes a `*` call argument).
//   - Where the grammar does accept the star, it can bind it to the name
//     alone (`*f(x)` as a call of `*f`, `*a.b` as the attribute b of `*a`);
//     the conversion moves the star out to the whole primary (hoistStar).

// retrySplats is Parse's second attempt for a file f with errors, parsed
// from in (src with the lazy keywords replaced).
func retrySplats(f *File, in, src []byte, marks []lazyMark) (*File, error) {
	stars := splatStars(src, f.Errors)
	if len(stars) == 0 {
		return f, nil
	}
	retry := bytes.Clone(in)
	for _, p := range stars {
		retry[p] = ' '
	}
	// The retry's tree has arenas of its own: f's, shared with the trees
	// parsed beside it, stay where they are (when g replaces f, f's nodes
	// in the chunks it shares are not freed until the others are: a
	// file with stars in its errors is rare).
	g, err := parseInto(retry, src, marks, NewArenas())
	if err != nil || errorBytes(g) >= errorBytes(f) {
		return f, nil
	}
	restoreStars(g, src, stars)
	return g, nil
}

func errorBytes(f *File) int {
	n := 0
	for _, e := range f.Errors {
		n += max(e.Len(), 1) // a MISSING node is empty but an error all the same
	}
	return n
}

// maxSplatError is the longest error span whose lines splatStars searches.
// A star the grammar cannot read makes an error of its statement; a longer
// error is the parser losing the file's structure (an unclosed bracket or
// string, after which tree-sitter may make the rest of the file, or all of
// it, one ERROR node), which no star undoes: a 10 MB file with one
// unclosed parenthesis was parsed a second time for its 11 stars, 12.7 of
// its 22.6 s.
const maxSplatError = 64 << 10

// splatStars returns the offsets of the stars retrySplats replaces: on the
// lines of errs no longer than maxSplatError, stars in a place only a star
// can be, before an operand that is not a name.
func splatStars(src []byte, errs []Span) []int {
	if !bytes.Contains(src, []byte("*")) {
		return nil
	}
	local := make([]Span, 0, len(errs))
	for _, e := range errs {
		if e.Len() <= maxSplatError {
			local = append(local, e)
		}
	}
	if len(local) == 0 {
		return nil
	}
	lines := errorLines(src, local)
	var out []int
	lx := &lexer{src: src}
	prev := token{kind: tokNewline}
	var star *token // a star waiting for the token after it
	for {
		t, ok := lx.next()
		if !ok {
			return out
		}
		if star != nil {
			if operandNotName(src, t) && onLines(lines, star.start) {
				out = append(out, star.start)
			}
			star = nil
		}
		if t.kind == tokOp && t.end == t.start+1 && src[t.start] == '*' && starPlace(src, prev) {
			tt := t
			star = &tt
		}
		prev = t
	}
}

// starPlace reports whether a `*` after prev can only be a star: nothing
// before it could be a left operand.
func starPlace(src []byte, prev token) bool {
	switch prev.kind {
	case tokNewline:
		return true
	case tokOp:
		if prev.end != prev.start+1 {
			return false
		}
		switch src[prev.start] {
		case ',', '=', '(', '[', '{', ';', ':':
			return true
		}
	case tokName:
		switch prev.text(src) {
		case "return", "yield", "in":
			return true
		}
	}
	return false
}

// operandNotName reports whether t starts an operand the grammar's
// list_splat_pattern does not take: a bracket, a literal, a sign, `...`.
func operandNotName(src []byte, t token) bool {
	switch t.kind {
	case tokString, tokNumber:
		return true
	case tokOp:
		switch src[t.start] {
		case '(', '[', '{', '-', '+', '~', '.':
			return t.end == t.start+1
		}
	}
	return false
}

// errorLines returns the [start, end) byte ranges of the lines errs touch.
func errorLines(src []byte, errs []Span) []Span {
	out := make([]Span, 0, len(errs))
	for _, e := range errs {
		start := bytes.LastIndexByte(src[:e.Start], '\n') + 1
		end := len(src)
		if i := bytes.IndexByte(src[e.End:], '\n'); i >= 0 {
			end = int(e.End) + i
		}
		out = append(out, Span{int32(start), int32(end)})
	}
	return out
}

func onLines(lines []Span, p int) bool {
	for _, l := range lines {
		if int(l.Start) <= p && p < int(l.End) {
			return true
		}
	}
	return false
}

// restoreStars wraps, in f parsed with the stars at offsets stars replaced
// by spaces, each element that followed one of them back in a Starred: an
// element of a list, tuple or set, a subscript's index, a call argument.
func restoreStars(f *File, src []byte, stars []int) {
	sort.Ints(stars)
	used := make(map[int]bool, len(stars))
	// starBefore returns the replaced star the expression e follows, if
	// only spaces and opening parentheses lie between them. The walk is in
	// pre-order, so the first element that qualifies is the outermost one
	// (`*((None,) * 30)` is the star of the product, not of None).
	starBefore := func(e Expr) (int, bool) {
		start := int(e.Pos().Start)
		i := sort.SearchInts(stars, start) - 1
		if i < 0 || used[stars[i]] {
			return 0, false
		}
		p := stars[i]
		for _, c := range src[p+1 : start] {
			if c != ' ' && c != '\t' && c != '(' {
				return 0, false
			}
		}
		used[p] = true
		return p, true
	}
	// The stack of nodes being visited: a star restored before the start
	// of its container (`return *(a), b`, where the tuple started after the
	// blank) widens the container and its ancestors.
	var stack []Node
	widen := func(p int) {
		for _, n := range stack {
			if w, ok := n.(interface{ widenTo(int) }); ok {
				w.widenTo(p)
			}
		}
	}
	wrap := func(e Expr, limit int) Expr {
		p, ok := starBefore(e)
		if !ok {
			return e
		}
		widen(p)
		return &Starred{Span: Span{int32(p), int32(closingParens(src, p, e.Pos(), limit))}, X: e}
	}
	for _, s := range f.Body {
		Inspect(s, func(n Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			switch n := n.(type) {
			case *Sequence:
				for i, e := range n.Elts {
					n.Elts[i] = wrap(e, int(n.End))
				}
			case *Subscript:
				for i, e := range n.Index {
					n.Index[i] = wrap(e, int(n.End))
				}
			case *Call:
				for i := range n.Args {
					a := &n.Args[i]
					if a.Star != 0 || a.Keyword != "" {
						continue
					}
					if p, ok := starBefore(a.Value); ok {
						widen(p)
						a.Star = 1
						a.Span = Span{int32(p), int32(closingParens(src, p, a.Value.Pos(), int(n.End)))}
					}
				}
			}
			return true
		})
	}
}

// widenTo moves s's start back to p if it starts after it.
func (s *Span) widenTo(p int) {
	if p < int(s.Start) {
		s.Start = int32(p)
	}
}

// closingParens returns the end of e extended over the closing parentheses
// matching the opening ones between the star at p and e, up to limit, the
// end of the container: the end of the last one found, never the blanks
// after it. In broken code the parentheses may not close, or the container
// (as tree-sitter's recovery made it) may end first, and the Starred must
// not reach past it; in code that parses, the container ends after them.
func closingParens(src []byte, p int, e Span, limit int) int {
	open := bytes.Count(src[p+1:e.Start], []byte("("))
	end := int(e.End)
	for i := int(e.End); open > 0 && i < min(limit, len(src)); i++ {
		switch src[i] {
		case ')':
			open--
			end = i + 1
		case ' ', '\t':
		default:
			return end
		}
	}
	return end
}

// hoistStar moves a star the grammar bound to the start of a primary
// expression (`*f(x)` read as a call of `*f`, `*a.b` as the attribute b of
// `*a`, `*a[0]`) out to the whole primary: a call, attribute or subscript
// whose function or object is a Starred starting where it starts is the
// Starred of that call, attribute or subscript. Python has no other reading.
func hoistStar(e Expr) Expr {
	var inner *Expr
	var span *Span
	switch e := e.(type) {
	case *Call:
		inner, span = &e.Func, &e.Span
	case *Attribute:
		inner, span = &e.X, &e.Span
	case *Subscript:
		inner, span = &e.X, &e.Span
	default:
		return e
	}
	st, ok := (*inner).(*Starred)
	if !ok || st.Start != span.Start {
		return e
	}
	whole := *span
	*inner = st.X
	span.Start = st.X.Pos().Start
	return &Starred{Span: whole, X: e}
}
