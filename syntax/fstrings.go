package syntax

import "bytes"

// Valid f-strings and t-strings the bundled grammar reads wrong, and the
// stand-ins Parse hands tree-sitter instead (bytes of the same length, so
// that every offset stays as it is; the conversion reads the original
// source, so no name, string or span changes):
//
//   - A format specifier that starts with `=` (a fill character, or the
//     `=` alignment: f"{title:=^{width}}", f"{n:=10}"). In a replacement
//     field CPython ends the expression at the first `:` outside brackets
//     (an assignment expression must be parenthesized there), but the
//     grammar's lexer takes `:=` as the walrus operator: an ERROR, or, for
//     f"{n:=10}", an assignment to n that the program never makes. The `=`
//     becomes a space, which the grammar reads as the specifier's text.
//   - A \N{NAME} escape in the format specifier of an f-string that is not
//     raw (f"{x:\N{BULLET}^10}"): the grammar reads its braces as a nested
//     replacement field holding the name. They become parentheses.
//   - A template string (t"...", PEP 750, Python 3.14), whose prefix the
//     grammar predates: it reads t as a stray name before a plain string.
//     The prefix's t becomes f: a template string has an f-string's syntax,
//     and the conversion reads the prefix from the source, so the String
//     is still the template it is.
//
// The strings are found by the small tokenizer (lex.go), which reads
// replacement fields and format specifiers as CPython does.

// standIn is one byte tree-sitter reads in place of the source's.
type standIn struct {
	off int
	b   byte
}

// standIns collects the stand-ins of the strings a lexer scans.
type standIns []standIn

// specEqualsStandIn replaces the `=` that starts a format specifier.
const specEqualsStandIn = ' '

// namedEscapeStandIns replace the braces of a \N{NAME} escape in a format
// specifier.
var namedEscapeStandIns = [2]byte{'(', ')'}

func (st *standIns) add(off int, b byte) { *st = append(*st, standIn{off, b}) }

// prefix records the stand-ins of a string prefix src[start:q]: t becomes
// f in the prefixes of template strings (t, rt, tr, in either case).
func (st *standIns) prefix(src []byte, start, q int) {
	t := -1
	for k := start; k < q; k++ {
		switch src[k] | 0x20 {
		case 't':
			t = k
		case 'r':
		default:
			return
		}
	}
	if t >= 0 {
		st.add(t, src[t]-'t'+'f') // t -> f, T -> F
	}
}

// fstringStandIns returns the stand-ins of src's strings, or nil. Only a
// source that holds `:=`, a quote after a t, or `\N{` is tokenized.
func fstringStandIns(src []byte) standIns {
	if !bytes.Contains(src, []byte(":=")) && !hasTPrefix(src) && !bytes.Contains(src, []byte(`\N{`)) {
		return nil
	}
	var st standIns
	lx := &lexer{src: src, st: &st}
	for {
		if _, ok := lx.next(); !ok {
			return st
		}
	}
}

// hasTPrefix reports whether src may hold a template string: a t or T
// right before a quote.
func hasTPrefix(src []byte) bool {
	for i := 1; i < len(src); i++ {
		if (src[i] == '"' || src[i] == '\'') && src[i-1]|0x20 == 't' {
			return true
		}
	}
	return false
}

// apply writes the stand-ins into in, a copy of the source.
func (st standIns) apply(in []byte) {
	for _, s := range st {
		in[s.off] = s.b
	}
}
