package syntax

import "bytes"

// Continuation lines inside brackets that are indented less than their
// statement. Python ignores indentation inside brackets, but the bundled
// grammar's scanner emits a dedent for such a line wherever the grammar
// cannot take a closing bracket next: after an operator, a `.`, a `=` of a
// keyword argument, a dict's `:`, a keyword (`not`, `if`, `lambda`):
//
//	def f():
//	    x = foo(a=
//	1)
//
// and the whole function becomes one ERROR (CPython's own test_compile.py
// has such lines). When a parse has errors, retryJoins replaces the line
// breaks before those lines by spaces (the lines are joined as Python
// joins them; every offset stays) and parses again, keeping the result if
// it has fewer bytes in errors. A break after a comment is left alone:
// joining would comment out the next line.

// retryJoins is Parse's second attempt for a file f with errors, parsed
// from in; it returns the new tree and what it was parsed from, or f and
// in.
func retryJoins(f *File, in, src []byte, marks []lazyMark) (*File, []byte) {
	breaks := dedentedBreaks(in)
	if len(breaks) == 0 {
		return f, in
	}
	retry := bytes.Clone(in)
	for _, p := range breaks {
		retry[p] = ' '
	}
	// Arenas of its own, as in retrySplats.
	g, err := parseInto(retry, src, marks, NewArenas())
	if err != nil || errorBytes(g) >= errorBytes(f) {
		return f, in
	}
	return g, retry
}

// dedentedBreaks returns the offsets of the line break bytes (\n and \r)
// inside brackets that come before a token indented less than the first
// token of its statement, with nothing but blanks between the token
// before and the next; none in a source whose brackets do not all close.
func dedentedBreaks(src []byte) []int {
	var out []int
	lx := &lexer{src: src}
	atStart, indent := true, 0
	var prev token
	for {
		inside := lx.depth > 0
		t, ok := lx.next()
		if !ok {
			if lx.depth > 0 {
				// A bracket never closes: the error is that, which no
				// join undoes, and the rest of the file, all "inside",
				// would be parsed again for nothing.
				return nil
			}
			return out
		}
		switch {
		case t.kind == tokNewline:
			atStart = true
			continue
		case atStart:
			atStart, indent = false, column(src, t.start)
		case inside && column(src, t.start) < indent:
			gap := src[prev.end:t.start]
			if bytes.IndexByte(gap, '\n') >= 0 && bytes.IndexAny(gap, "#\\") < 0 {
				for i, c := range gap {
					if c == '\n' || c == '\r' {
						out = append(out, prev.end+i)
					}
				}
			}
		}
		prev = t
	}
}

// column is the byte offset of off in its line.
func column(src []byte, off int) int {
	return off - (bytes.LastIndexByte(src[:off], '\n') + 1)
}
