package syntax

import "bytes"

// PEP 810 (Python 3.15) adds explicit lazy imports: the soft keyword `lazy`
// before an import statement, `lazy import a.b as c` and
// `lazy from a import b`. The bundled grammar predates it and reads `lazy`
// as a stray identifier (an ERROR node) in front of an ordinary import. So
// Parse finds the keyword first (lazyKeywords), hands tree-sitter a copy of
// the source in which it is replaced by "0;  " (a statement of its own, of
// the same length, so that the indentation and every offset stay as they
// are, which blanking it would not: an indented import would open a block),
// and the conversion drops that stand-in statement and marks the import
// after it Lazy, its Span starting at the keyword.
//
// `lazy` stays an ordinary name everywhere else (`lazy = 1`, `lazy.x`,
// `print(lazy)`): it is the keyword only where a statement starts and the
// next token is `import` or `from`, which no other statement can begin with.

// lazyMark is one `lazy` soft keyword: its offset and that of the import
// statement after it.
type lazyMark struct {
	kw, stmt int
}

// lazyKeywords finds the `lazy` soft keywords of src.
func lazyKeywords(src []byte) []lazyMark {
	if !bytes.Contains(src, []byte("lazy")) {
		return nil
	}
	var out []lazyMark
	lx := &lexer{src: src}
	atStart := true // the next token starts a statement
	var pending *token
	for {
		t, ok := lx.next()
		if !ok {
			return out
		}
		if pending != nil {
			if t.kind == tokName {
				if w := t.text(src); w == "import" || w == "from" {
					out = append(out, lazyMark{kw: pending.start, stmt: t.start})
				}
			}
			pending = nil
		}
		switch {
		case t.kind == tokNewline:
			atStart = true
			continue
		case t.kind == tokOp && lx.depth == 0 && (src[t.start] == ';' || src[t.start] == ':' && t.end == t.start+1):
			// After `;`, and after the colon of a compound statement's
			// header (`if x: lazy import y`).
			atStart = true
			continue
		case atStart && t.kind == tokName && t.end-t.start == 4 && t.text(src) == "lazy":
			tt := t
			pending = &tt
		}
		atStart = false
	}
}

// lazyStandIn is what tree-sitter reads in place of the keyword.
const lazyStandIn = "0;  "

// withoutLazy returns a copy of src with each `lazy` keyword replaced by
// lazyStandIn.
func withoutLazy(src []byte, marks []lazyMark) []byte {
	out := bytes.Clone(src)
	for _, m := range marks {
		copy(out[m.kw:], lazyStandIn)
	}
	return out
}
