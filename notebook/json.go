package notebook

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A notebook is JSON, and edits must be spliced back into it without
// disturbing a byte of what they do not change, so this file parses JSON
// into a tree of values that know their byte spans in the file rather than
// decoding it into Go values. Strings are decoded only when asked for.

// kind is a JSON value's type.
type kind uint8

const (
	kObject kind = iota
	kArray
	kString
	kNumber
	kLiteral // true, false, null
)

// value is one JSON value and where it is written.
type value struct {
	kind       kind
	start, end int // byte span in the file (strings include their quotes)
	// keys and vals are an object's members in order; elems an array's.
	keys  []*value
	vals  []*value
	elems []*value
}

// field returns the value of an object's member named name (the last one,
// as Python's json module keeps it), or nil.
func (v *value) field(src []byte, name string) *value {
	if v == nil || v.kind != kObject {
		return nil
	}
	for i := len(v.keys) - 1; i >= 0; i-- {
		if isString(src[v.keys[i].start:v.keys[i].end], name) {
			return v.vals[i]
		}
	}
	return nil
}

// isString reports whether a scanned string (quotes included) decodes to
// s, without decoding it when it has no escape.
func isString(raw []byte, s string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return len(raw) == len(s)+2 && string(raw[1:len(raw)-1]) == s
	}
	d, ok := decodeString(raw)
	return ok && d == s
}

// str returns a string value's decoded text.
func (v *value) str(src []byte) (string, bool) {
	if v == nil || v.kind != kString {
		return "", false
	}
	return decodeString(src[v.start:v.end])
}

// maxDepth bounds nesting, so that hostile input cannot exhaust the stack.
const maxDepth = 512

// syntaxError is a JSON error at a byte offset.
type syntaxError struct {
	off int
	msg string
}

// parser is a recursive-descent JSON parser (RFC 8259, as strict as
// encoding/json) that records spans.
type parser struct {
	src []byte
	pos int
	err *syntaxError
	// skipping counts the unread members being scanned (unread): their
	// values are checked as strictly as the others but not kept, and all
	// share scratch.
	skipping int
	scratch  value
}

// newValue returns a value of kind k starting at the current position.
func (p *parser) newValue(k kind) *value {
	if p.skipping > 0 {
		p.scratch = value{kind: k, start: p.pos}
		return &p.scratch
	}
	return &value{kind: k, start: p.pos}
}

// unread reports whether an object member's name (quotes included) is one
// nothing reads: a cell's outputs and attachments, most of a notebook's
// bytes and values. Only their spans are kept.
func unread(name []byte) bool {
	return string(name) == `"outputs"` || string(name) == `"attachments"`
}

// ended closes a container that began at start and ends here. While
// skipping, v is the scratch value, which its members have overwritten.
func (p *parser) ended(v *value, k kind, start int) *value {
	if p.skipping > 0 {
		v = &p.scratch
		*v = value{kind: k, start: start}
	}
	v.end = p.pos
	return v
}

// spanOnly keeps a skipped value's kind and span, without its members.
func (p *parser) spanOnly(skipped *value) *value {
	v := p.newValue(skipped.kind)
	v.start, v.end = skipped.start, skipped.end
	return v
}

func parseJSON(src []byte, start int) (*value, *syntaxError) {
	p := &parser{src: src, pos: start}
	p.space()
	v := p.value(0)
	if p.err == nil {
		p.space()
		if p.pos < len(p.src) {
			p.fail("unexpected %s after the top-level value", p.what())
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return v, nil
}

func (p *parser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = &syntaxError{off: p.pos, msg: fmt.Sprintf(format, args...)}
	}
}

// what describes the byte at pos for an error message.
func (p *parser) what() string {
	if p.pos >= len(p.src) {
		return "end of file"
	}
	c := p.src[p.pos]
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (p *parser) space() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) *value {
	if depth > maxDepth {
		p.fail("values nested more than %d deep", maxDepth)
		return nil
	}
	if p.pos >= len(p.src) {
		p.fail("unexpected end of file")
		return nil
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.string()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	}
	p.fail("unexpected %s where a value should be", p.what())
	return nil
}

func (p *parser) object(depth int) *value {
	v := p.newValue(kObject)
	start := v.start
	p.pos++
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		return p.ended(v, kObject, start)
	}
	for p.err == nil {
		p.space()
		if p.pos >= len(p.src) || p.src[p.pos] != '"' {
			p.fail("unexpected %s where a member name should be", p.what())
			return nil
		}
		k := p.string()
		if p.err != nil {
			// A malformed name (a raw control character in it): stop
			// here, not at the ':' that may follow it.
			return nil
		}
		p.space()
		if p.pos >= len(p.src) || p.src[p.pos] != ':' {
			p.fail("unexpected %s after a member name (want ':')", p.what())
			return nil
		}
		p.pos++
		p.space()
		if p.skipping > 0 {
			p.value(depth + 1)
		} else if unread(p.src[k.start:k.end]) {
			p.skipping++
			skipped := p.value(depth + 1)
			p.skipping--
			if p.err == nil {
				v.keys = append(v.keys, k)
				v.vals = append(v.vals, p.spanOnly(skipped))
			}
		} else {
			val := p.value(depth + 1)
			v.keys = append(v.keys, k)
			v.vals = append(v.vals, val)
		}
		if p.err != nil {
			return nil
		}
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == '}' {
			p.pos++
			return p.ended(v, kObject, start)
		}
		p.fail("unexpected %s in an object (want ',' or '}')", p.what())
	}
	return nil
}

func (p *parser) array(depth int) *value {
	v := p.newValue(kArray)
	start := v.start
	p.pos++
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		return p.ended(v, kArray, start)
	}
	for p.err == nil {
		p.space()
		el := p.value(depth + 1)
		if p.err != nil {
			return nil
		}
		if p.skipping == 0 {
			v.elems = append(v.elems, el)
		}
		p.space()
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.src) && p.src[p.pos] == ']' {
			p.pos++
			return p.ended(v, kArray, start)
		}
		p.fail("unexpected %s in an array (want ',' or ']')", p.what())
	}
	return nil
}

// plainString marks the bytes a string holds as they are: not a quote, a
// backslash or a control character.
var plainString = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// string scans a string, checking its escapes, without decoding it.
func (p *parser) string() *value {
	v := p.newValue(kString)
	p.pos++
	for p.pos < len(p.src) {
		for p.pos < len(p.src) && plainString[p.src[p.pos]] {
			p.pos++
		}
		if p.pos >= len(p.src) {
			break
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			v.end = p.pos
			return v
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				p.pos++
				p.fail("unexpected end of file in a string")
				return nil
			}
			switch p.src[p.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos += 2
			case 'u':
				if p.pos+6 > len(p.src) || !isHex4(p.src[p.pos+2:p.pos+6]) {
					p.fail("invalid \\u escape in a string")
					return nil
				}
				p.pos += 6
			default:
				p.pos++
				p.fail("invalid escape %s in a string", p.what())
				return nil
			}
		case c < 0x20:
			p.fail("control character 0x%02x in a string (it must be escaped)", c)
			return nil
		default:
			p.pos++
		}
	}
	p.fail("unexpected end of file in a string")
	return nil
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func (p *parser) number() *value {
	v := p.newValue(kNumber)
	digits := func() int {
		n := 0
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.src[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.src) && p.src[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		p.fail("invalid number")
		return nil
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			p.fail("invalid number")
			return nil
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			p.fail("invalid number")
			return nil
		}
	}
	v.end = p.pos
	return v
}

func (p *parser) literal(word string) *value {
	if !bytes.HasPrefix(p.src[p.pos:], []byte(word)) {
		p.fail("unexpected %s where a value should be", p.what())
		return nil
	}
	v := p.newValue(kLiteral)
	v.end = p.pos + len(word)
	p.pos += len(word)
	return v
}

// decodeString decodes a scanned string (quotes included) as Python's json
// module would, except that a lone surrogate escape becomes U+FFFD (Go
// strings hold UTF-8). It reports false for malformed input.
func decodeString(raw []byte) (string, bool) {
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw[1:len(raw)-1], '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var b []byte
	ok := walkString(raw, func(_ int, r []byte) { b = append(b, r...) })
	return string(b), ok
}

// walkString decodes a scanned string, calling emit with the offset (in
// raw) where each decoded piece starts and its UTF-8 bytes: a run of
// unescaped bytes, or one escape. It is the one decoder: the cell text and
// every position mapped back to the file come from it.
func walkString(raw []byte, emit func(rawOff int, text []byte)) bool {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return false
	}
	var buf [utf8.UTFMax]byte
	i, end := 1, len(raw)-1
	for i < end {
		if raw[i] != '\\' {
			j := i
			for j < end && raw[j] != '\\' {
				j++
			}
			emit(i, raw[i:j])
			i = j
			continue
		}
		if i+1 >= end {
			return false
		}
		var r rune
		n := 2
		switch raw[i+1] {
		case '"':
			r = '"'
		case '\\':
			r = '\\'
		case '/':
			r = '/'
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'u':
			if i+6 > end {
				return false
			}
			u, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
			if err != nil {
				return false
			}
			r, n = rune(u), 6
			if utf16.IsSurrogate(r) {
				r = utf8.RuneError
				if u < 0xdc00 && i+12 <= end && raw[i+6] == '\\' && raw[i+7] == 'u' {
					if lo, err := strconv.ParseUint(string(raw[i+8:i+12]), 16, 16); err == nil && lo >= 0xdc00 && lo < 0xe000 {
						r, n = utf16.DecodeRune(rune(u), rune(lo)), 12
					}
				}
			}
		default:
			return false
		}
		w := utf8.EncodeRune(buf[:], r)
		emit(i, buf[:w])
		i += n
	}
	return true
}
