package syntax

// A small Python tokenizer, for the two places where Parse looks at the
// source before tree-sitter does: finding PEP 810's `lazy` soft keyword
// (lazy.go) and finding the starred elements the bundled grammar cannot read
// (splat.go). It knows what it must to never mistake the inside of a string
// or a comment for code: string prefixes, triple quotes, escapes, f-string
// and t-string replacement fields (PEP 701 lets them nest quotes of their
// own kind), comments, backslash continuations and bracket depth. Everything
// else is a name, a number or an operator character.

type tokKind uint8

const (
	tokName    tokKind = iota // an identifier or keyword
	tokNumber                 // a numeric literal
	tokString                 // a string literal, prefix included
	tokOp                     // an operator or delimiter: one byte, or "**", "*=", "==" ...
	tokNewline                // the end of a logical line (outside brackets)
)

type token struct {
	kind       tokKind
	start, end int
}

// lexer walks src one token at a time; next returns false at the end.
type lexer struct {
	src   []byte
	pos   int
	depth int // bracket nesting: newlines inside brackets do not end a line
	// st collects the stand-ins of the strings scanned (fstrings.go); nil
	// when no one asks for them.
	st *standIns
}

func (lx *lexer) next() (token, bool) {
	src := lx.src
	for lx.pos < len(src) {
		c := src[lx.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f' || c == '\r':
			lx.pos++
		case c == '\\' && lx.pos+1 < len(src) && (src[lx.pos+1] == '\n' || src[lx.pos+1] == '\r'):
			lx.pos += 2 // a continuation line
		case c == '#':
			for lx.pos < len(src) && src[lx.pos] != '\n' {
				lx.pos++
			}
		case c == '\n':
			lx.pos++
			if lx.depth == 0 {
				return token{tokNewline, lx.pos - 1, lx.pos}, true
			}
		case isNameStart(c):
			start := lx.pos
			for lx.pos < len(src) && isNameByte(src[lx.pos]) {
				lx.pos++
			}
			if lx.pos < len(src) && (src[lx.pos] == '"' || src[lx.pos] == '\'') && isStringPrefix(src[start:lx.pos]) {
				lx.pos = stringEnd(src, start, lx.pos, lx.st)
				return token{tokString, start, lx.pos}, true
			}
			return token{tokName, start, lx.pos}, true
		case c == '"' || c == '\'':
			start := lx.pos
			lx.pos = stringEnd(src, start, start, lx.st)
			return token{tokString, start, lx.pos}, true
		case '0' <= c && c <= '9' || c == '.' && lx.pos+1 < len(src) && '0' <= src[lx.pos+1] && src[lx.pos+1] <= '9':
			start := lx.pos
			for lx.pos < len(src) && (isNameByte(src[lx.pos]) || src[lx.pos] == '.' ||
				(src[lx.pos] == '+' || src[lx.pos] == '-') && (src[lx.pos-1]|0x20) == 'e' && !isHex(src[start:lx.pos])) {
				lx.pos++
			}
			return token{tokNumber, start, lx.pos}, true
		default:
			start := lx.pos
			lx.pos++
			switch c {
			case '(', '[', '{':
				lx.depth++
			case ')', ']', '}':
				lx.depth = max(0, lx.depth-1)
			case '*', '/', '<', '>', '=', '!', '+', '-', '%', '&', '|', '^', '@', ':':
				// Two-character operators ("**", "*=", "==", ":=", "->"); the
				// three-character ones ("**=", "//=") only need their start.
				if lx.pos < len(src) && (src[lx.pos] == '=' || src[lx.pos] == c && (c == '*' || c == '/' || c == '<' || c == '>') || c == '-' && src[lx.pos] == '>') {
					lx.pos++
				}
			}
			return token{tokOp, start, lx.pos}, true
		}
	}
	return token{}, false
}

func isNameStart(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= 0x80
}

func isNameByte(c byte) bool { return isNameStart(c) || '0' <= c && c <= '9' }

func isHex(num []byte) bool { return len(num) > 1 && num[0] == '0' && (num[1]|0x20) == 'x' }

// isStringPrefix reports whether p (letters before a quote) is a string
// prefix: r, b, u, f, t and their combinations, in either case.
func isStringPrefix(p []byte) bool {
	if len(p) > 2 {
		return false
	}
	for _, c := range p {
		switch c | 0x20 {
		case 'r', 'b', 'u', 'f', 't':
		default:
			return false
		}
	}
	return true
}

// stringEnd returns the offset just past the string literal whose prefix
// starts at start and whose opening quote is at q (or the end of the line
// or source, for an unterminated one). st, when not nil, collects the
// string's stand-ins.
func stringEnd(src []byte, start, q int, st *standIns) int {
	interp, raw := false, false
	for _, c := range src[start:q] {
		interp = interp || c|0x20 == 'f' || c|0x20 == 't'
		raw = raw || c|0x20 == 'r'
	}
	if st != nil {
		st.prefix(src, start, q)
	}
	s := enclosing{quote: src[q], raw: raw}
	n := 1
	if q+2 < len(src) && src[q+1] == s.quote && src[q+2] == s.quote {
		n, s.triple = 3, true
	}
	i := q + n
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\' && interp && !raw && namedEscape(src, i):
			if i = namedEscapeEnd(src, i); i < len(src) && src[i] == '}' {
				i++
			}
			continue
		case c == '\\':
			i += 2 // an escape; in raw strings too, the quote after a backslash does not end the string
			continue
		case c == '\n' && n == 1:
			return i // unterminated
		case c == s.quote && (n == 1 || i+2 < len(src) && src[i+1] == s.quote && src[i+2] == s.quote):
			return i + n
		case interp && c == '{':
			if i+1 < len(src) && src[i+1] == '{' {
				i += 2
				continue
			}
			i = fieldEnd(src, i+1, s, st)
			continue
		}
		i++
	}
	return len(src)
}

// enclosing is what a replacement field needs to know of its f-string.
type enclosing struct {
	quote       byte
	triple, raw bool
}

// namedEscape reports whether the backslash at i starts a \N{NAME}
// escape, whose braces are not a replacement field's.
func namedEscape(src []byte, i int) bool {
	return i+2 < len(src) && src[i+1] == 'N' && src[i+2] == '{'
}

// namedEscapeEnd returns the offset of the `}` that closes the \N{NAME}
// escape at i, or of the line break or end that comes first.
func namedEscapeEnd(src []byte, i int) int {
	for i < len(src) && src[i] != '}' && src[i] != '\n' {
		i++
	}
	return i
}

// fieldEnd returns the offset just past the `}` that closes the f-string
// replacement field whose expression starts at i: nested brackets,
// strings (which may reuse the enclosing quote, PEP 701) and the comments
// of triple-quoted strings are skipped, and the format specifier after
// the first `:` outside brackets is read as the literal text it is (a
// quote there is a fill character).
func fieldEnd(src []byte, i int, s enclosing, st *standIns) int {
	depth := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"' || c == '\'':
			i = stringEnd(src, i, i, st)
			continue
		case isNameStart(c):
			j := i
			for j < len(src) && isNameByte(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '"' || src[j] == '\'') && isStringPrefix(src[i:j]) {
				i = stringEnd(src, i, j, st)
			} else {
				i = j
			}
			continue
		case c == '#' && s.triple:
			// A comment, in a field that spans lines (Python 3.12).
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']':
			depth = max(0, depth-1)
		case c == '}':
			if depth == 0 {
				return i + 1
			}
			depth--
		case c == ':' && depth == 0:
			if st != nil && i+1 < len(src) && src[i+1] == '=' {
				st.add(i+1, specEqualsStandIn)
			}
			return specEnd(src, i+1, s, st)
		}
		i++
	}
	return len(src)
}

// specEnd returns the offset just past the `}` that closes a replacement
// field whose format specifier starts at i, or that of the quote or line
// break that ends the string first (an unterminated field).
func specEnd(src []byte, i int, s enclosing, st *standIns) int {
	for i < len(src) {
		switch c := src[i]; {
		case c == '\\' && !s.raw && namedEscape(src, i):
			end := namedEscapeEnd(src, i)
			if end < len(src) && src[end] == '}' {
				if st != nil {
					st.add(i+2, namedEscapeStandIns[0])
					st.add(end, namedEscapeStandIns[1])
				}
				end++
			}
			i = end
			continue
		case c == '\\':
			i += 2
			continue
		case c == '{':
			i = fieldEnd(src, i+1, s, st)
			continue
		case c == '}':
			return i + 1
		case c == '\n' && !s.triple:
			return i
		case c == s.quote && (!s.triple || i+2 < len(src) && src[i+1] == s.quote && src[i+2] == s.quote):
			return i
		}
		i++
	}
	return len(src)
}

// text returns the token's source.
func (t token) text(src []byte) string { return string(src[t.start:t.end]) }
