package fix

import (
	"bytes"
	"fmt"

	"github.com/cudaforklint/cudaforklint/tokcheck"
)

// verify returns why out, src with edits applied, must not be written, or
// nil. It is the safety net under every fix: tree-sitter recovers from
// errors that CPython rejects and parses some text CPython reads
// differently, so besides comparing the parse errors before and after it
// checks what CPython's tokenizer checks and tree-sitter does not. Each test
// compares the two versions, so a construct the checks misjudge in the
// original does not block a fix elsewhere.
func (opt *Options) verify(src, out []byte, edits []span) error {
	if opt.NoSyntaxCheck {
		return nil
	}
	count := opt.ParseErrors
	if count == nil {
		count = SyntaxErrors
	}
	if before, after := count(src), count(out); after > before {
		return fmt.Errorf("the fixes would introduce a syntax error (%d parse errors before, %d after)", before, after)
	}
	if p := prologue(src); !bytes.HasPrefix(out, p) {
		return fmt.Errorf("the fixes would move the byte order mark, the #! line or the coding declaration away from the start of the file")
	}
	xs, xo := tokcheck.Scan(src), tokcheck.Scan(out)
	for _, e := range edits {
		for _, off := range []int{e.start, e.end} {
			if s, in := xs.InsideString(off); in {
				return fmt.Errorf("an edit lands inside the string literal at line %d", lineOf(src, s.Start))
			}
		}
	}
	if xo.Count(tokcheck.StrayBOM) > xs.Count(tokcheck.StrayBOM) {
		return fmt.Errorf("the fixes would leave a byte order mark (U+FEFF) after the start of the file, which CPython rejects")
	}
	if xo.Count(tokcheck.TabError)+xo.Count(tokcheck.BadDedent) > xs.Count(tokcheck.TabError)+xs.Count(tokcheck.BadDedent) {
		return fmt.Errorf("the fixes would break the indentation in a way CPython rejects (TabError or IndentationError)")
	}
	return nil
}

// prologue is the part of src a fix must leave at its start: the byte
// order mark, and the first two lines while they are comments (a #! line
// only works on line 1, and CPython reads a coding declaration only on line
// 1 or 2).
func prologue(src []byte) []byte {
	n := 0
	if bytes.HasPrefix(src, utf8BOM) {
		n = len(utf8BOM)
	}
	for line := 0; line < 2 && n < len(src); line++ {
		rest := src[n:]
		if !bytes.HasPrefix(bytes.TrimLeft(rest, " \t\f"), []byte("#")) {
			break
		}
		end := bytes.IndexAny(rest, "\r\n")
		if end < 0 {
			return src
		}
		if rest[end] == '\r' && end+1 < len(rest) && rest[end+1] == '\n' {
			end++
		}
		n += end + 1
	}
	return src[:n]
}

// lineOf returns the 1-based line of byte offset off.
func lineOf(src []byte, off int) int {
	return bytes.Count(src[:off], []byte{'\n'}) + 1
}

// utf8BOM is the UTF-8 byte order mark.
var utf8BOM = []byte("\xef\xbb\xbf")
