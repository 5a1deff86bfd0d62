package output

import (
	"strconv"
	"unicode/utf16"
)

// LineHashes computes, for every line of src, the value GitHub's
// upload-sarif action stores as partialFingerprints.primaryLocationLineHash
// for a result starting on that line: the same rolling hash as
// github/codeql-action's src/fingerprints.ts (function hash), ported here.
// Index 0 is line 1. When the tool's value differs from the one upload-sarif
// computes, the action keeps the tool's and logs a warning, and alerts are
// matched across runs by it, so this must agree exactly.
//
// The algorithm, as the action runs it on a file read as UTF-8 by Node:
//   - the input is a sequence of UTF-16 code units (a character outside the
//     BMP counts twice; a malformed UTF-8 sequence is one U+FFFD per maximal
//     subpart, as WHATWG decoders do);
//   - spaces and tabs are skipped, and so is an LF right after a CR; a CR
//     becomes an LF; lines are counted at every LF or CR (lines here may
//     therefore differ from Python's only on a file with lone CRs);
//   - a line's hash covers the 100 code units starting at the line's first
//     kept code unit (so it reaches into the lines after it), padded at the
//     end of the file by the value 65535 and then zeros;
//   - the hash is h = 37·h + c − 37¹⁰⁰·c₋₁₀₀ in 64-bit wraparound
//     arithmetic, written as unsigned lowercase hex without leading zeros;
//   - ":n" is appended, n counting how many lines so far in the file had the
//     same hash (1 for the first).
func LineHashes(src []byte) []string {
	const (
		blockSize = 100
		mod       = 37
		eof       = 65535
	)
	firstMod := uint64(1)
	for i := 0; i < blockSize; i++ {
		firstMod *= mod
	}
	var (
		window      [blockSize]uint64
		lineNumbers [blockSize]int
		hash        uint64
		index       int
		lineNumber  int
		lineStart   = true
		prevCR      bool
		counts      = map[uint64]int{}
		out         []string
	)
	for i := range lineNumbers {
		lineNumbers[i] = -1
	}
	output := func() {
		counts[hash]++
		ln := lineNumbers[index]
		for len(out) < ln {
			out = append(out, "")
		}
		out[ln-1] = strconv.FormatUint(hash, 16) + ":" + strconv.Itoa(counts[hash])
		lineNumbers[index] = -1
	}
	update := func(c uint64) {
		begin := window[index]
		window[index] = c
		hash = mod*hash + c - firstMod*begin
		index = (index + 1) % blockSize
	}
	process := func(c uint64) {
		if c == ' ' || c == '\t' || (prevCR && c == '\n') {
			prevCR = false
			return
		}
		if c == '\r' {
			c = '\n'
			prevCR = true
		} else {
			prevCR = false
		}
		if lineNumbers[index] != -1 {
			output()
		}
		if lineStart {
			lineStart = false
			lineNumber++
			lineNumbers[index] = lineNumber
		}
		if c == '\n' {
			lineStart = true
		}
		update(c)
	}
	decodeUTF16(src, func(u uint16) { process(uint64(u)) })
	process(eof)
	for i := 0; i < blockSize; i++ {
		if lineNumbers[index] != -1 {
			output()
		}
		update(0)
	}
	return out
}

// decodeUTF16 decodes UTF-8 as a WHATWG decoder (and so Node's
// fs.createReadStream(..., "utf8")) does, calling emit with each UTF-16 code
// unit. Each maximal subpart of an ill-formed sequence becomes one U+FFFD.
// A byte order mark is kept, as Node keeps it.
func decodeUTF16(b []byte, emit func(uint16)) {
	const repl = 0xFFFD
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			emit(uint16(c))
			i++
			continue
		}
		var need int
		var cp rune
		lower, upper := byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need, cp = 1, rune(c&0x1F)
		case c == 0xE0:
			need, cp, lower = 2, rune(c&0x0F), 0xA0
		case c == 0xED:
			need, cp, upper = 2, rune(c&0x0F), 0x9F
		case c >= 0xE1 && c <= 0xEF:
			need, cp = 2, rune(c&0x0F)
		case c == 0xF0:
			need, cp, lower = 3, rune(c&0x07), 0x90
		case c == 0xF4:
			need, cp, upper = 3, rune(c&0x07), 0x8F
		case c >= 0xF1 && c <= 0xF3:
			need, cp = 3, rune(c&0x07)
		default:
			emit(repl)
			i++
			continue
		}
		j := i + 1
		ok := true
		for k := 0; k < need; k++ {
			if j >= len(b) || b[j] < lower || b[j] > upper {
				ok = false
				break
			}
			cp = cp<<6 | rune(b[j]&0x3F)
			lower, upper = 0x80, 0xBF
			j++
		}
		i = j
		if !ok {
			emit(repl)
			continue
		}
		if cp > 0xFFFF {
			r1, r2 := utf16.EncodeRune(cp)
			emit(uint16(r1))
			emit(uint16(r2))
		} else {
			emit(uint16(cp))
		}
	}
}
