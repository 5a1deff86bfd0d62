// Package tokcheck finds what CPython's tokenizer rejects in Python source
// that tree-sitter parses without an error: a byte order mark that is not at
// byte 0 ("invalid non-printable character U+FEFF"), indentation that mixes
// tabs and spaces inconsistently (TabError), and a dedent to no enclosing
// level (IndentationError). It also says where the string literals are, so
// that the fixer can refuse an edit that lands inside one (which parses, but
// turns code into text), and where the comments are, so that a scan can
// read the code alone.
//
// It is a tokenizer's first pass, not a parser: strings (every prefix,
// triple quotes, escapes, the nested replacement fields of f- and
// t-strings), comments, brackets, line continuations and the indentation of
// each logical line. On python3's standard library, site-packages and
// Debian's Python packages (about 15,000 files that CPython compiles) it
// reports nothing.
package tokcheck

import (
	"bytes"
	"fmt"
	"sort"
)

// Kind is what CPython rejects.
type Kind uint8

const (
	StrayBOM  Kind = iota // U+FEFF after byte 0, outside strings and comments
	TabError              // indentation inconsistent under tab sizes 8 and 1
	BadDedent             // a dedent that matches no enclosing indentation
)

// Problem is one place CPython's tokenizer rejects.
type Problem struct {
	Offset int // byte offset in the source
	Kind   Kind
}

// Message is CPython's message for the problem.
func (p Problem) Message() string {
	switch p.Kind {
	case StrayBOM:
		return "SyntaxError: invalid non-printable character U+FEFF"
	case TabError:
		return "TabError: inconsistent use of tabs and spaces in indentation"
	}
	return "IndentationError: unindent does not match any outer indentation level"
}

func (p Problem) String() string { return fmt.Sprintf("%d: %s", p.Offset, p.Message()) }

// Span is a half-open byte range [Start, End).
type Span struct{ Start, End int }

// Result is what Scan found.
type Result struct {
	// Strings are the string literals, prefix and quotes included, in
	// the order they close (a string nested in an f-string's replacement
	// field comes before the f-string).
	Strings []Span
	// Comments are the comments, from '#' to the end of the line, in
	// source order (those in f-string replacement fields included).
	Comments []Span
	// Problems are in source order.
	Problems []Problem
}

// Count returns how many problems of kind k there are.
func (r *Result) Count(k Kind) int {
	n := 0
	for _, p := range r.Problems {
		if p.Kind == k {
			n++
		}
	}
	return n
}

// Scan scans src. It never fails: source it cannot make sense of yields
// fewer answers, not wrong ones.
func Scan(src []byte) *Result {
	l := lexer{src: src}
	if bytes.HasPrefix(src, bom) {
		l.i = len(bom)
	}
	l.stack = []indentLevel{{}}
	l.top()
	l.strayBOMs()
	sortProblems(l.out.Problems)
	return &l.out
}

func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Offset < ps[j].Offset })
}

// bom is the UTF-8 byte order mark, which CPython accepts only at byte 0.
var bom = []byte("\xef\xbb\xbf")

type indentLevel struct{ col, alt int }

type lexer struct {
	src   []byte
	i     int
	depth int // open brackets
	stack []indentLevel
	out   Result
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

// stringPrefix reports whether word (letters read right before a quote) is
// a string prefix, and whether it makes an f- or t-string.
func stringPrefix(word []byte) (ok, interpolated bool) {
	if len(word) > 2 {
		return false, false
	}
	seen := map[byte]bool{}
	for _, c := range word {
		c |= 0x20
		switch c {
		case 'r', 'u', 'b', 'f', 't':
		default:
			return false, false
		}
		if seen[c] {
			return false, false
		}
		seen[c] = true
	}
	if seen['u'] && len(word) > 1 || seen['b'] && (seen['f'] || seen['t']) || seen['f'] && seen['t'] {
		return false, false
	}
	return true, seen['f'] || seen['t']
}

// top scans the file as a sequence of lines at bracket depth 0.
func (l *lexer) top() {
	atLineStart := true
	for l.i < len(l.src) {
		if atLineStart && l.depth == 0 {
			l.indentation()
			atLineStart = false
			continue
		}
		c := l.src[l.i]
		switch {
		case c == '\n' || c == '\r':
			l.newline()
			atLineStart = l.depth == 0
		case c == '\\' && l.i+1 < len(l.src) && (l.src[l.i+1] == '\n' || l.src[l.i+1] == '\r'):
			// An explicit line join: the next line continues this one.
			l.i++
			l.newline()
		case c == '#':
			l.comment()
		default:
			l.token()
		}
	}
}

// newline skips one line break (\n, \r\n or \r).
func (l *lexer) newline() {
	if l.src[l.i] == '\r' && l.i+1 < len(l.src) && l.src[l.i+1] == '\n' {
		l.i++
	}
	l.i++
}

func (l *lexer) comment() {
	start := l.i
	for l.i < len(l.src) && l.src[l.i] != '\n' && l.src[l.i] != '\r' {
		l.i++
	}
	l.out.Comments = append(l.out.Comments, Span{start, l.i})
}

// token scans one token that is not a line break or a comment: a string,
// a name (which may be a string's prefix), a bracket, or any other byte.
func (l *lexer) token() {
	c := l.src[l.i]
	switch {
	case c == '"' || c == '\'':
		l.str(l.i, false)
	case isIdentByte(c):
		start := l.i
		for l.i < len(l.src) && isIdentByte(l.src[l.i]) {
			l.i++
		}
		if l.i < len(l.src) && (l.src[l.i] == '"' || l.src[l.i] == '\'') {
			if ok, interp := stringPrefix(l.src[start:l.i]); ok {
				l.str(start, interp)
			}
		}
	case c == '(' || c == '[' || c == '{':
		l.depth++
		l.i++
	case c == ')' || c == ']' || c == '}':
		if l.depth > 0 {
			l.depth--
		}
		l.i++
	default:
		l.i++
	}
}

// str scans a string literal whose prefix starts at start and whose quote
// is at l.i, and records it.
func (l *lexer) str(start int, interpolated bool) {
	q := l.src[l.i]
	n := 1
	if l.i+2 < len(l.src) && l.src[l.i+1] == q && l.src[l.i+2] == q {
		n = 3
	}
	l.i += n
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '\\':
			l.i += 2
			if l.i > len(l.src) {
				l.i = len(l.src)
			}
			continue
		case c == q && (n == 1 || l.i+2 < len(l.src) && l.src[l.i+1] == q && l.src[l.i+2] == q):
			l.i += n
			l.out.Strings = append(l.out.Strings, Span{start, l.i})
			return
		case n == 1 && (c == '\n' || c == '\r'):
			// Unterminated: CPython rejects it; tree-sitter reports it too.
			l.out.Strings = append(l.out.Strings, Span{start, l.i})
			return
		case interpolated && c == '{':
			if l.i+1 < len(l.src) && l.src[l.i+1] == '{' {
				l.i += 2
				continue
			}
			l.field()
			continue
		}
		l.i++
	}
	l.out.Strings = append(l.out.Strings, Span{start, l.i})
}

// field scans an f-string replacement field from its '{' to the matching
// '}': an expression, which may hold strings and brackets of its own.
func (l *lexer) field() {
	l.i++ // '{'
	depth := 0
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '}' && depth == 0:
			l.i++
			return
		case c == '(' || c == '[' || c == '{':
			depth++
			l.i++
		case c == ')' || c == ']' || c == '}':
			depth--
			l.i++
		case c == '"' || c == '\'' || isIdentByte(c):
			l.token()
		case c == '#':
			l.comment()
		default:
			l.i++
		}
	}
}

// indentation reads the indentation of the line at l.i and, when the line
// holds a token (it is not blank or a comment), checks it against the
// indentation stack as CPython's tokenizer does: columns with tabs to the
// next multiple of 8 and, as "alternate" columns, with tabs counting 1; the
// two must order the same way against the enclosing level.
func (l *lexer) indentation() {
	col, alt := 0, 0
	for l.i < len(l.src) {
		switch l.src[l.i] {
		case ' ':
			col++
			alt++
		case '\t':
			col = (col/8 + 1) * 8
			alt++
		case '\f':
			col, alt = 0, 0
		default:
			goto done
		}
		l.i++
	}
done:
	if l.i >= len(l.src) {
		return
	}
	switch l.src[l.i] {
	case '\n', '\r', '#':
		return // a blank or comment-only line does not count
	case '\\':
		if l.i+1 < len(l.src) && (l.src[l.i+1] == '\n' || l.src[l.i+1] == '\r') {
			return
		}
	}
	top := l.stack[len(l.stack)-1]
	problem := func(k Kind) { l.out.Problems = append(l.out.Problems, Problem{l.i, k}) }
	switch {
	case col == top.col:
		if alt != top.alt {
			problem(TabError)
		}
	case col > top.col:
		if alt <= top.alt {
			problem(TabError)
		}
		l.stack = append(l.stack, indentLevel{col, alt})
	default:
		for len(l.stack) > 1 && col < l.stack[len(l.stack)-1].col {
			l.stack = l.stack[:len(l.stack)-1]
		}
		top = l.stack[len(l.stack)-1]
		if col != top.col {
			problem(BadDedent)
		} else if alt != top.alt {
			problem(TabError)
		}
		if col != top.col || alt != top.alt {
			// Resynchronise on this line, as if it were a new level.
			if col > top.col {
				l.stack = append(l.stack, indentLevel{col, alt})
			}
		}
	}
}

// InsideString returns the string literal that strictly contains offset
// off (a position between two of its bytes), if any.
func (r *Result) InsideString(off int) (Span, bool) {
	lo, hi := 0, len(r.Strings)
	for lo < hi {
		m := (lo + hi) / 2
		if r.Strings[m].End <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(r.Strings) && r.Strings[lo].Start < off && off < r.Strings[lo].End {
		return r.Strings[lo], true
	}
	return Span{}, false
}

// strayBOMs records the byte order marks that are not at byte 0 and not
// inside a string literal or a comment.
func (l *lexer) strayBOMs() {
	src := l.src
	for off := 1; off < len(src); {
		i := bytes.Index(src[off:], bom)
		if i < 0 {
			return
		}
		at := off + i
		if _, in := l.out.InsideString(at); !in && !inComment(src, at) {
			l.out.Problems = append(l.out.Problems, Problem{at, StrayBOM})
		}
		off = at + len(bom)
	}
}

// inComment reports whether off is inside a comment: a '#' before it on
// its line, outside strings. (Only used for byte order marks, which are
// rare; a '#' inside a string on the same line errs towards "comment", that
// is, towards reporting nothing.)
func inComment(src []byte, off int) bool {
	start := bytes.LastIndexAny(src[:off], "\r\n") + 1
	return bytes.IndexByte(src[start:off], '#') >= 0
}
