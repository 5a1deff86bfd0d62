package syntax

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unicode/utf8"
)

// Sentinel errors, matched with errors.Is on the *SourceError Parse returns.
var (
	ErrNUL         = errors.New("source contains a NUL byte")
	ErrInvalidUTF8 = errors.New("source is not valid UTF-8")
	ErrEncoding    = errors.New("unsupported source encoding")
	ErrTooLarge    = errors.New("source too large")
	ErrInternal    = errors.New("internal error")
)

// SourceError is the error Parse returns for source it cannot analyse at all.
// Its message is a single line.
type SourceError struct {
	Kind error  // one of the sentinel errors above
	Line int    // 1-based line of the offending byte, 0 if not tied to a line
	Msg  string // the full one-line message
}

func (e *SourceError) Error() string { return e.Msg }

// Unwrap returns the sentinel, so errors.Is(err, ErrNUL) works.
func (e *SourceError) Unwrap() error { return e.Kind }

// maxSource is the largest source Parse accepts; record indices and Span
// offsets are int32.
const maxSource = 1<<31 - 1

// Idle record buffers and parse arenas are kept on free lists rather than
// in a sync.Pool: a Pool is emptied by every garbage collection. An idle
// arena holds up to 4 MB (walk.go), so fewer of them are kept: about one
// per parse running at once.
var (
	idleRecs   = make(chan *recBuf, freeListSize())
	idleArenas = make(chan *tsArena, runtime.GOMAXPROCS(0)+1)
)

func freeListSize() int { return max(8, 2*runtime.GOMAXPROCS(0)) }

// getRecs returns a record buffer, preferably an idle one.
func getRecs(n int) *recBuf {
	select {
	case rb := <-idleRecs:
		return rb
	default:
		return newRecBuf(n)
	}
}

// putRecs keeps rb for reuse, or frees it.
func putRecs(rb *recBuf) {
	if rb.cap() <= maxPooledRecs {
		select {
		case idleRecs <- rb:
			return
		default:
		}
	}
	rb.free()
}

// Parse parses Python source and converts it into a File. It is safe to call
// from many goroutines at once.
//
// Syntax errors are not fatal: the returned File lists the regions
// tree-sitter could not parse in Errors and holds everything around them.
// Parse returns a *SourceError (and no File) only for source it cannot
// analyse at all: source containing NUL bytes, source that is not valid
// UTF-8, a PEP 263 coding declaration naming an encoding other than UTF-8
// (unless the source is pure ASCII, which every such encoding reads the
// same), and source of 2 GiB or more.
//
// A UTF-8 byte order mark is accepted; tree-sitter treats it as white space
// and all offsets stay relative to src.
//
// The File's strings (identifiers, literals, comments) share src's memory
// rather than copying it: src must not be changed while the File is in use.
func Parse(src []byte) (*File, error) { return ParseIn(src, nil) }

// ParseIn is Parse, allocating the tree in arenas, which trees that live
// and die with it share (arena.go); nil gives the tree arenas of its own.
func ParseIn(src []byte, arenas *Arenas) (*File, error) {
	if arenas == nil {
		arenas = NewArenas()
	}
	if err := checkSource(src); err != nil {
		return nil, err
	}
	// What tree-sitter reads: src, or a copy without the `lazy` keywords
	// the grammar does not know (lazy.go) and with stand-ins where it
	// reads valid f-strings and t-strings wrong (fstrings.go). The
	// conversion reads src.
	in := src
	marks := lazyKeywords(src)
	if len(marks) > 0 {
		in = withoutLazy(src, marks)
	}
	if st := fstringStandIns(src); len(st) > 0 {
		if len(marks) == 0 {
			in = bytes.Clone(src)
		}
		st.apply(in)
	}
	f, err := parseInto(in, src, marks, arenas)
	if err != nil || len(f.Errors) == 0 {
		return f, err
	}
	if f, in = retryJoins(f, in, src, marks); len(f.Errors) == 0 {
		return f, nil
	}
	return retrySplats(f, in, src, marks)
}

// parseInto parses in (src, or src with some bytes replaced by stand-ins
// of the same length) and converts the tree, reading text from src.
func parseInto(in, src []byte, marks []lazyMark, arenas *Arenas) (*File, error) {
	if n := chunkCount(len(in)); n > 1 {
		if starts := chunkStarts(in, len(in)/n); len(starts) > 0 {
			if recs, rb, ok := parseChunked(in, starts); ok {
				defer putRecs(rb)
				return convertSafely(recs, src, marks, arenas)
			}
		}
	}
	// Python source yields about one recorded node per 4 to 7 bytes; the
	// walker grows the buffer when needed.
	rb := getRecs(len(in)/6 + 256)
	defer putRecs(rb)
	recs, err := parseWalk(in, rb)
	if err != nil {
		return nil, &SourceError{Kind: ErrInternal, Msg: fmt.Sprintf("internal error: %v; please report", err)}
	}
	return convertSafely(recs, src, marks, arenas)
}

// maxPooledRecs bounds the record buffers kept for reuse (20 bytes each).
const maxPooledRecs = 1 << 18

// convertSafely converts the records, turning a panic (a bug) into an error.
func convertSafely(recs []rec, src []byte, marks []lazyMark, arenas *Arenas) (f *File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f = nil
			err = &SourceError{Kind: ErrInternal, Msg: fmt.Sprintf("internal error converting the syntax tree (%v at %s); please report", r, PanicSite())}
		}
	}()
	return convert(recs, src, marks, arenas), nil
}

// CheckSource returns the *SourceError Parse would return for source it
// cannot analyse at all, without parsing; nil if Parse would parse it.
func CheckSource(src []byte) error {
	if err := checkSource(src); err != nil {
		return err
	}
	return nil
}

// checkSize rejects a source of n bytes, too long for Span's int32 offsets.
func checkSize(n int) error {
	if n > maxSource {
		return &SourceError{Kind: ErrTooLarge, Msg: fmt.Sprintf("source too large (%d bytes; at most %d are supported)", n, maxSource)}
	}
	return nil
}

// checkSource rejects source Parse cannot analyse.
func checkSource(src []byte) error {
	if err := checkSize(len(src)); err != nil {
		return err
	}
	if err := checkCoding(src); err != nil {
		return err
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		line := lineAt(src, i)
		return &SourceError{Kind: ErrNUL, Line: line, Msg: fmt.Sprintf("source contains a NUL byte at line %d", line)}
	}
	if !utf8.Valid(src) {
		i := firstInvalidUTF8(src)
		line := lineAt(src, i)
		return &SourceError{Kind: ErrInvalidUTF8, Line: line, Msg: fmt.Sprintf("source is not valid UTF-8: invalid byte 0x%02x at line %d", src[i], line)}
	}
	return nil
}

// lineAt returns the 1-based line number of byte offset off.
func lineAt(src []byte, off int) int {
	return bytes.Count(src[:off], []byte{'\n'}) + 1
}

func firstInvalidUTF8(src []byte) int {
	for i := 0; i < len(src); {
		if src[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return 0 // not reached for invalid input
}

// checkCoding looks for a PEP 263 coding declaration on the first two lines
// and rejects names CPython does not know, and encodings other than UTF-8 (and ASCII, a subset), unless the
// whole source is ASCII: every encoding CPython accepts for source files
// that is not UTF-16/32 reads pure ASCII the same.
func checkCoding(src []byte) error {
	name, line := codingCookie(src)
	if name == "" {
		return nil
	}
	if !knownEncoding(name) {
		return &SourceError{Kind: ErrEncoding, Line: line, Msg: fmt.Sprintf("source encoding %q (declared at line %d) is unknown: Python refuses to run this file (SyntaxError: encoding problem)", name, line)}
	}
	norm := strings.ReplaceAll(strings.ToLower(name), "_", "-")
	switch {
	case norm == "utf-8" || norm == "utf8" || strings.HasPrefix(norm, "utf-8-"),
		norm == "ascii" || norm == "us-ascii":
		return nil
	}
	if isASCII(src) && !strings.HasPrefix(norm, "utf-16") && !strings.HasPrefix(norm, "utf-32") &&
		!strings.HasPrefix(norm, "utf16") && !strings.HasPrefix(norm, "utf32") {
		return nil
	}
	return &SourceError{Kind: ErrEncoding, Line: line, Msg: fmt.Sprintf("source encoding %q (declared at line %d) is not supported; only UTF-8 source can be analysed", name, line)}
}

func isASCII(src []byte) bool {
	for _, b := range src {
		if b >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// codingCookie returns the encoding named by a PEP 263 declaration and its
// line, or "" if there is none. Like CPython it reads the first line, and the
// second only when the first is blank or a comment; the declaration must be
// in a comment matching `coding[:=]\s*([-\w.]+)`.
func codingCookie(src []byte) (string, int) {
	rest := src
	if bytes.HasPrefix(rest, []byte("\xef\xbb\xbf")) {
		rest = rest[3:]
	}
	for line := 1; line <= 2 && len(rest) > 0; line++ {
		var l []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			l, rest = rest, nil
		}
		t := bytes.TrimLeft(l, " \t\f")
		if len(t) == 0 || t[0] != '#' {
			if len(bytes.TrimSpace(t)) == 0 {
				continue // a blank first line still lets line 2 count
			}
			return "", 0
		}
		if name := cookieIn(t); name != "" {
			return name, line
		}
	}
	return "", 0
}

// cookieIn finds `coding[:=]\s*([-\w.]+)` in a comment line.
func cookieIn(comment []byte) string {
	for s := comment; ; {
		i := bytes.Index(s, []byte("coding"))
		if i < 0 {
			return ""
		}
		s = s[i+len("coding"):]
		if len(s) == 0 || (s[0] != ':' && s[0] != '=') {
			continue
		}
		s = bytes.TrimLeft(s[1:], " \t\f")
		j := 0
		for j < len(s) && (s[j] == '-' || s[j] == '_' || s[j] == '.' ||
			'a' <= s[j]|0x20 && s[j]|0x20 <= 'z' || '0' <= s[j] && s[j] <= '9') {
			j++
		}
		if j > 0 {
			return string(s[:j])
		}
	}
}

// PanicSite returns file:line of the innermost non-runtime frame of the
// panicking goroutine, for an internal error's one-line message. Call it
// from the deferred function that recovers.
func PanicSite() string {
	pc := make([]uintptr, 32)
	n := runtime.Callers(3, pc)
	frames := runtime.CallersFrames(pc[:n])
	for {
		fr, more := frames.Next()
		if !strings.HasPrefix(fr.Function, "runtime.") {
			return fmt.Sprintf("%s:%d", fr.File, fr.Line)
		}
		if !more {
			return "unknown location"
		}
	}
}
