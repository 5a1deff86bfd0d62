package finding

// Positions are counted here once for every package that turns offsets
// into lines and columns: the driver, the notebook mapping, the language
// server, the verifier.

// UTF16Len counts the UTF-16 code units of UTF-8 text (Position's
// UTF16Column, LSP's default encoding): two for a rune outside the Basic
// Multilingual Plane, one for any other and for each invalid byte, as the
// replacement character it decodes to.
func UTF16Len[T string | []byte](s T) int {
	n := 0
	for _, r := range string(s) {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// LineStarts returns the offsets where the lines of b begin: 0, and one
// past every '\n' (so text ending in a newline has an empty last line).
func LineStarts[T string | []byte](b T) []int {
	n := 1
	for i := range len(b) {
		if b[i] == '\n' {
			n++
		}
	}
	out := make([]int, 1, n)
	for i := range len(b) {
		if b[i] == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}
