package syntax

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// str converts a string or concatenated_string record.
func (c *conv) str(i int32) *String {
	s := c.a.strs.new()
	s.Span = c.span(i)
	if c.k(i) == kString {
		s.Value = c.strPart(i, s)
		return s
	}
	var b strings.Builder
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case k == kString:
			b.WriteString(c.strPart(j, s))
		case skip(k):
		case k == kError:
			c.orphan(j)
		default:
			c.orphanExpr(j)
		}
	}
	s.Value = b.String()
	return s
}

// strPart decodes one string literal; interpolations are appended to s.Exprs.
func (c *conv) strPart(i int32, s *String) string {
	start, end := int(c.r[i].start), int(c.r[i].end)
	body := start // after the prefix and opening quote
	var prefix, quote string
	for j := i + 1; j < c.end(i); j = c.end(j) {
		if c.k(j) == kStringStart {
			open := c.src(j)
			body = int(c.r[j].end)
			q := strings.IndexAny(open, `'"`)
			if q < 0 {
				q = len(open)
			}
			prefix, quote = open[:q], open[q:]
			break
		}
	}
	if quote != "" && end-len(quote) >= body && strings.HasSuffix(c.text[start:end], quote) {
		end -= len(quote)
	}
	if end < body {
		end = body
	}
	if prefix == "" {
		if n := c.tPrefixBefore(start); n > 0 {
			if v, ok := c.tString(i, n, s); ok {
				return v
			}
		}
	}
	var raw, isBytes, interp bool
	for k := 0; k < len(prefix); k++ {
		switch prefix[k] | 0x20 {
		case 'r':
			raw = true
		case 'b':
			isBytes = true
		case 'f', 't':
			interp = true
		}
	}
	if !interp {
		return decodeLiteral(c.text[body:end], raw, isBytes, false)
	}
	s.Interpolated = true
	var b strings.Builder
	pos := body
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case k == kInterpolation:
			if st := int(c.r[j].start); st > pos && st <= end {
				b.WriteString(decodeLiteral(c.text[pos:st], raw, isBytes, true))
			}
			if e := int(c.r[j].end); e > pos {
				pos = e
			}
			s.Exprs = c.interpolation(s.Exprs, j)
		case k == kError:
			c.orphan(j)
		}
	}
	if pos < end {
		b.WriteString(decodeLiteral(c.text[pos:end], raw, isBytes, true))
	}
	return b.String()
}

// tPrefixBefore returns the length of a template-string prefix (t, T, tr,
// Rt, ...) right before a string literal at start, or 0. The grammar predates
// PEP 750 (Python 3.14): it reads t"..." as an ERROR node holding the
// identifier t, followed by a plain string.
func (c *conv) tPrefixBefore(start int) int {
	n := 0
	hasT := false
	for n < 2 && start-n > 0 {
		switch c.text[start-n-1] {
		case 't', 'T':
			hasT = true
		case 'r', 'R':
		default:
			goto done
		}
		n++
	}
done:
	if !hasT || n == 0 {
		return 0
	}
	if p := start - n; p > 0 && isIdentByte(c.text[p-1]) {
		return 0 // part of a longer identifier
	}
	if n == 2 && (c.text[start-1]|0x20) == (c.text[start-2]|0x20) {
		return 0 // tt, rr
	}
	return n
}

func isIdentByte(b byte) bool {
	return b == '_' || 'a' <= b|0x20 && b|0x20 <= 'z' || '0' <= b && b <= '9' || b >= 0x80
}

// isTPrefixError reports whether ERROR record i is just the prefix of a
// template string (see tPrefixBefore); it needs no salvaging.
func (c *conv) isTPrefixError(i int32) bool {
	end := int(c.r[i].end)
	if end >= len(c.text) || (c.text[end] != '"' && c.text[end] != '\'') {
		return false
	}
	n := c.tPrefixBefore(end)
	return n > 0 && int(c.r[i].start) == end-n
}

// tString decodes the template string whose literal (without its n-byte
// prefix) is record i: it parses the literal again as an f-string and
// converts its interpolations, whose spans fall inside record i.
func (c *conv) tString(i int32, n int, s *String) (string, bool) {
	start, end := int(c.r[i].start), int(c.r[i].end)
	snippet := make([]byte, 0, n+end-start)
	for k := start - n; k < start; k++ {
		if b := c.text[k]; b|0x20 == 't' {
			snippet = append(snippet, b-'t'+'f') // t -> f, T -> F
		} else {
			snippet = append(snippet, b)
		}
	}
	snippet = append(snippet, c.text[start:end]...)

	rb := newRecBuf(0)
	defer rb.free()
	recs, err := parseWalk(snippet, rb)
	if err != nil {
		return "", false
	}
	// Find the string; it must be the whole snippet.
	str := int32(-1)
	for j := range recs {
		if kindOf[recs[j].sym] == kString {
			str = int32(j)
			break
		}
	}
	if str < 0 || recs[str].start != 0 || int(recs[str].end) != len(snippet) {
		return "", false
	}
	for _, r := range recs {
		if r.sym == errorSymbol || r.flags&recMissing != 0 {
			return "", false
		}
	}
	// Shift the records onto the original text: the snippet is the same
	// bytes as text[start-n:end] but for t -> f, and strPart reads the
	// prefix from the text.
	shift := uint32(start - n)
	for j := range recs {
		recs[j].start += shift
		recs[j].end += shift
	}
	sub := &conv{r: recs, text: c.text, depth: c.depth}
	v := sub.strPart(str, s)
	c.pending = append(c.pending, sub.pending...)
	return v, true
}

// interpolation appends the expressions of `{expr!r:spec}`, including those
// nested in the format specifier, to out.
func (c *conv) interpolation(out []Expr, i int32) []Expr {
	for j := i + 1; j < c.end(i); j = c.end(j) {
		switch k := c.k(j); {
		case skip(k):
		case k == kError:
			c.orphan(j)
		case k == kFormatSpec:
			for m := j + 1; m < c.end(j); m = c.end(m) {
				switch c.k(m) {
				case kInterpolation:
					out = c.interpolation(out, m)
				case kError:
					c.orphan(m)
				}
			}
		default:
			out = append(out, c.expr(j))
		}
	}
	return out
}

// decodeLiteral decodes the body of a string literal: backslash escapes
// unless raw, and doubled braces in the literal parts of f-strings. \N{...}
// is left as written. For bytes, \xNN and octal escapes give raw bytes.
func decodeLiteral(s string, raw, isBytes, fstr bool) string {
	if (raw || strings.IndexByte(s, '\\') < 0) && (!fstr || !strings.ContainsAny(s, "{}")) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		ch := s[i]
		if fstr && (ch == '{' || ch == '}') {
			b = append(b, ch)
			if i+1 < len(s) && s[i+1] == ch {
				i++
			}
			i++
			continue
		}
		if ch != '\\' || raw || i+1 >= len(s) {
			b = append(b, ch)
			i++
			continue
		}
		e := s[i+1]
		i += 2
		switch e {
		case '\n':
		case '\r':
			if i < len(s) && s[i] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			b = append(b, e)
		case 'a':
			b = append(b, '\a')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'v':
			b = append(b, '\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(e - '0')
			for n := 1; n < 3 && i < len(s) && '0' <= s[i] && s[i] <= '7'; n++ {
				v = v*8 + int(s[i]-'0')
				i++
			}
			b = appendCode(b, v, isBytes)
		case 'x':
			if v, ok := hexAt(s, i, 2); ok {
				b = appendCode(b, v, isBytes)
				i += 2
			} else {
				b = append(b, '\\', e)
			}
		case 'u', 'U':
			n := 4
			if e == 'U' {
				n = 8
			}
			if v, ok := hexAt(s, i, n); ok && !isBytes {
				b = utf8.AppendRune(b, rune(v))
				i += n
			} else {
				b = append(b, '\\', e)
			}
		default:
			// \N{...} and unknown escapes stay as written.
			b = append(b, '\\', e)
		}
	}
	return string(b)
}

// appendCode appends code point v as a raw byte (bytes literals) or as UTF-8.
func appendCode(b []byte, v int, isBytes bool) []byte {
	if isBytes {
		return append(b, byte(v))
	}
	return utf8.AppendRune(b, rune(v))
}

func hexAt(s string, i, n int) (int, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v, err := strconv.ParseUint(s[i:i+n], 16, 32)
	if err != nil {
		return 0, false
	}
	return int(v), true
}
