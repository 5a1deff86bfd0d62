// Package noqa reads suppression comments and answers, for a finding's code
// and line, whether one of them covers it. It records which directives were
// used, so that stale ones (ruff's RUF100, "unused-noqa") can be reported.
//
// Two forms exist, following ruff's docs/linter.md ("Error suppression"):
//
//   - Line directives, in a comment on the finding's line, or at the end of
//     its logical line when that spans lines (after a backslash
//     continuation, a multi-line string or brackets close: place.go): `# noqa` (blanket:
//     every code) and `# noqa: CFL001, CFL002`. `#noqa` is matched
//     case-insensitively and the `#` may be followed by whitespace; the
//     directive may follow other comment text (`# type: ignore  # noqa: CFL002`).
//     Codes are letters followed by digits, separated by commas and/or
//     whitespace; the list ends at the first word that is not a code, so
//     `# noqa: CFL001 because the pool uses spawn` names CFL001 only.
//   - File directives, a comment on a line of its own anywhere in the file:
//     `# cudaforklint: noqa` (every code) and `# cudaforklint: noqa: CFL001`.
//     The `cudaforklint:` prefix is case-sensitive, as ruff's `ruff:` is.
//
// Comments come from the parser (syntax.File.Comments), so a `# noqa` inside a
// string literal is never a directive.
//
// Most `# noqa` comments are other linters' (flake8, ruff, pycodestyle), in
// their own dialects: `# noqa: E501`, `# noqa:E501,W291`, `# noqa: 501`,
// `# noqa:e501`, `# NOQA`, `# noqa : E501`. They are never this tool's
// business: their codes are parsed and kept but never reported as stale (only
// codes that start with "CFL" are ours to judge), and a comment that is not a
// directive in this package's grammar (`# noqa:` with no code, `# noqa-foo`,
// `# noqa: see below`) is simply not a directive, silently. Only a malformed
// comment that names one of our codes (`# noqa: cfl001`, lowercase;
// `# noqa:CFL001x`) or a malformed `# cudaforklint: noqa` is reported as
// invalid. An uppercase code must be written as such to count: `cfl001` is
// not CFL001, as in ruff.
package noqa

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cudaforklint/cudaforklint/syntax"
	"github.com/cudaforklint/cudaforklint/tokcheck"
)

// OurPrefix is the prefix of the codes this tool owns; other codes in a
// directive are other tools' business.
const OurPrefix = "CFL"

// Kind tells line directives from file directives.
type Kind uint8

const (
	Line Kind = iota // `# noqa[: codes]` covering its own line
	File             // `# cudaforklint: noqa[: codes]` covering the whole file
)

func (k Kind) String() string {
	if k == File {
		return "file"
	}
	return "line"
}

// Directive is one parsed suppression comment.
type Directive struct {
	Kind Kind
	// Line is the 1-based line of the comment.
	Line int
	// Span is the directive's bytes in the source: from its '#' to the end of
	// its last code (or of the word "noqa" for a blanket directive).
	Span syntax.Span
	// Comment is the whole comment the directive sits in.
	Comment syntax.Comment
	// Codes are the codes named, in order, as written; nil for a blanket
	// directive.
	Codes []string
	// codeSpans are the byte spans of Codes.
	codeSpans []syntax.Span

	used      bool            // suppressed at least one finding
	usedCodes map[string]bool // codes that suppressed a finding
}

// Blanket reports whether d names no codes and so covers every code.
func (d *Directive) Blanket() bool { return d.Codes == nil }

// Invalid is a comment that looks like a directive but cannot be one; it
// suppresses nothing. The driver may show it as a warning.
type Invalid struct {
	Line    int
	Span    syntax.Span
	Message string
}

// Set holds a file's directives. Suppresses is not safe for concurrent use.
type Set struct {
	src       []byte
	lineStart []int // byte offset of each line's first byte; lineStart[0] = 0
	lines     map[int][]*Directive
	files     []*Directive
	all       []*Directive
	invalid   []Invalid
	// last maps each line (index line-1) to the last line of its logical
	// line; nil until needed (logicalLast).
	last []int
}

// Parse reads the directives in a file's comments. src is the file's source
// (used for line numbers and to tell own-line comments from trailing ones);
// comments are the parser's, in any order, each with Text starting at '#'.
func Parse(src []byte, comments []syntax.Comment) *Set {
	s := &Set{src: src, lines: map[int][]*Directive{}}
	s.lineStart = append(s.lineStart, 0)
	for i, b := range src {
		if b == '\n' {
			s.lineStart = append(s.lineStart, i+1)
		}
	}
	sorted := append([]syntax.Comment(nil), comments...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	for _, c := range sorted {
		s.parseComment(c)
	}
	return s
}

// LineOf returns the 1-based line of a byte offset.
func (s *Set) LineOf(offset int) int {
	return sort.Search(len(s.lineStart), func(i int) bool { return s.lineStart[i] > offset })
}

// ownLine reports whether only whitespace precedes offset on its line.
func (s *Set) ownLine(offset int) bool {
	start := s.lineStart[s.LineOf(offset)-1]
	if offset > len(s.src) {
		return false
	}
	for _, b := range s.src[start:offset] {
		if b != ' ' && b != '\t' && b != '\f' {
			return false
		}
	}
	return true
}

func (s *Set) parseComment(c syntax.Comment) {
	text := c.Text
	line := s.LineOf(int(c.Start))
	if d, bad, ok := parseFileDirective(text); ok {
		if bad != "" {
			s.invalid = append(s.invalid, Invalid{Line: line, Span: c.Span, Message: bad})
		}
		if d == nil {
			return
		}
		if s.ownLine(int(c.Start)) {
			d.Kind, d.Line, d.Comment = File, line, c
			d.shift(c.Start)
			s.files = append(s.files, d)
			s.all = append(s.all, d)
			return
		}
		// Misplaced: reported and ignored, and a `# noqa` later in the
		// comment is still read, the one --add-noqa appends included.
		s.invalid = append(s.invalid, Invalid{Line: line, Span: c.Span,
			Message: "`# cudaforklint: noqa` must be on a line of its own; use `# noqa` to suppress findings on one line"})
	}
	// A comment may hold several '#'; ruff looks for `#\s*noqa` after each.
	for i := 0; i < len(text); i++ {
		if text[i] != '#' {
			continue
		}
		d, bad, ok := parseLineDirective(text, i)
		if !ok {
			continue
		}
		if bad != "" {
			s.invalid = append(s.invalid, Invalid{Line: line, Span: syntax.Span{Start: c.Start + int32(i), End: c.End}, Message: bad})
		}
		if d == nil {
			return
		}
		d.Kind, d.Line, d.Comment = Line, line, c
		d.shift(c.Start)
		s.lines[line] = append(s.lines[line], d)
		s.all = append(s.all, d)
		return
	}
}

func (d *Directive) shift(base int32) {
	d.Span.Start += base
	d.Span.End += base
	for i := range d.codeSpans {
		d.codeSpans[i].Start += base
		d.codeSpans[i].End += base
	}
}

// isSpace: '\r' counts, since a comment node of a CRLF file may end in it.
func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\f' || b == '\r' }

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// parseLineDirective parses `#\s*noqa` at text[hash:]. ok is false when
// there is no directive there, ours or another tool's; bad is set for a
// malformed directive that names one of our codes.
func parseLineDirective(text string, hash int) (d *Directive, bad string, ok bool) {
	i := skipSpace(text, hash+1)
	if len(text)-i < 4 || !strings.EqualFold(text[i:i+4], "noqa") {
		return nil, "", false
	}
	return parseAfterNoqa(text, hash, i+4, false)
}

// parseAfterNoqa parses what follows the word noqa (which ends at end):
// nothing or whitespace (blanket) or `:` and a code list. A line directive
// (own false) that does not parse is reported only when it names one of our
// codes; a `# cudaforklint: noqa` (own) always is.
func parseAfterNoqa(text string, start, end int, own bool) (*Directive, string, bool) {
	j := skipSpace(text, end)
	if j < len(text) && text[j] == ':' {
		codes, spans, last, bad := parseCodes(text, j+1)
		if len(codes) == 0 {
			if bad != "" {
				return nil, bad, true
			}
			if own || namesOurs(text[j+1:]) {
				return nil, "invalid `# noqa` directive: expected a list of codes after `:` (e.g. CFL001)", true
			}
			return nil, "", false // `# noqa:` or `# noqa: see below`, someone else's
		}
		// With a lowercase code of ours among valid ones, the valid ones
		// still count and the bad one is reported.
		return &Directive{Span: syntax.Span{Start: int32(start), End: int32(last)}, Codes: codes, codeSpans: spans}, bad, true
	}
	if end < len(text) && !isSpace(text[end]) && text[end] != '#' {
		// `# noqa123`, `# noqa-foo`: not a directive in our grammar.
		if own || namesOurs(text[end:]) {
			return nil, "invalid `# noqa` directive: expected `:` followed by codes, or nothing, after `noqa`", true
		}
		return nil, "", false
	}
	return &Directive{Span: syntax.Span{Start: int32(start), End: int32(end)}}, "", true
}

// parseCodes reads codes separated by commas and/or whitespace from text[i:],
// stopping at the first word that is not a code. A code is letters then
// digits: ours (CFL001) and other tools' (E501, W291, e501, and flake8's
// bare 501). It returns the codes, their spans and the end of the last one;
// bad is set when one of them is ours in lowercase (`cfl001`), which counts
// for nothing.
func parseCodes(text string, i int) (codes []string, spans []syntax.Span, last int, bad string) {
	for {
		k := i
		for k < len(text) && (isSpace(text[k]) || text[k] == ',') {
			k++
		}
		n, letters := codeLen(text[k:])
		if n == 0 {
			return codes, spans, last, bad
		}
		code := text[k : k+n]
		if letters != OurPrefix && strings.EqualFold(letters, OurPrefix) {
			bad = fmt.Sprintf("invalid `# noqa` directive: `%s` is not a code; codes are uppercase (%s)", code, strings.ToUpper(code))
		} else {
			codes = append(codes, code)
			spans = append(spans, syntax.Span{Start: int32(k), End: int32(k + n)})
		}
		last = k + n
		i = k + n
	}
}

// codeLen returns the length of the code at the start of s, or 0, and its
// letters. A code is ASCII letters (none, for flake8's `501`) then one or
// more digits, not followed by another letter, digit or underscore.
func codeLen(s string) (int, string) {
	i := 0
	for i < len(s) && (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z') {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i {
		return 0, ""
	}
	if j < len(s) && (isAlnum(s[j]) || s[j] == '_') {
		return 0, ""
	}
	return j, s[:i]
}

// namesOurs reports whether s mentions one of our codes, in any case:
// "CFL" then a digit.
func namesOurs(s string) bool {
	for i := 0; i+len(OurPrefix) < len(s); i++ {
		if strings.EqualFold(s[i:i+len(OurPrefix)], OurPrefix) && s[i+len(OurPrefix)] >= '0' && s[i+len(OurPrefix)] <= '9' {
			return true
		}
	}
	return false
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// parseFileDirective parses `#\s*cudaforklint:\s*noqa[: codes]` covering the
// whole comment text. ok is false when the comment is not a file directive.
func parseFileDirective(text string) (d *Directive, bad string, ok bool) {
	const tool = "cudaforklint:"
	i := skipSpace(text, 1)
	if !strings.HasPrefix(text[i:], tool) {
		return nil, "", false
	}
	i = skipSpace(text, i+len(tool))
	if len(text)-i < 4 || !strings.EqualFold(text[i:i+4], "noqa") {
		return nil, "", false
	}
	d, bad, _ = parseAfterNoqa(text, 0, i+4, true)
	if bad != "" {
		bad = strings.Replace(bad, "`# noqa`", "`# cudaforklint: noqa`", 1)
	}
	return d, bad, true
}

// Suppresses reports whether a directive covers code on line (1-based): a
// file directive naming the code or blanket, or a line directive naming the
// code or blanket on that line or at the end of its logical line (place.go:
// where Place puts one). Every directive that covers it is marked used.
func (s *Set) Suppresses(code string, line int) bool {
	hit := false
	for _, d := range s.files {
		if d.covers(code) {
			hit = true
		}
	}
	for _, d := range s.lines[line] {
		if d.covers(code) {
			hit = true
		}
	}
	if len(s.lines) == 0 || line < 1 || line > len(s.lineStart) {
		return hit
	}
	// Scanned only in a file with line directives, once.
	var scan *tokcheck.Result
	if s.last == nil {
		scan = tokcheck.Scan(s.src)
	}
	if end := s.logicalLast(scan)[line-1]; end != line {
		for _, d := range s.lines[end] {
			if d.covers(code) {
				hit = true
			}
		}
	}
	return hit
}

// covers reports whether d covers code, and records the use.
func (d *Directive) covers(code string) bool {
	if d.Blanket() {
		d.used = true
		return true
	}
	for _, c := range d.Codes {
		if c == code {
			d.used = true
			if d.usedCodes == nil {
				d.usedCodes = map[string]bool{}
			}
			d.usedCodes[c] = true
			return true
		}
	}
	return false
}

// Directives returns every valid directive in source order.
func (s *Set) Directives() []*Directive { return s.all }

// Invalid returns the comments that looked like directives but were not
// valid ones, in source order.
func (s *Set) Invalid() []Invalid { return s.invalid }

// Unused is a directive, or the codes of one, that suppressed nothing.
type Unused struct {
	*Directive
	// Blanket is true for a blanket directive that suppressed nothing.
	Blanket bool
	// Unmatched: enabled codes of ours that suppressed nothing here.
	Unmatched []string
	// Disabled: known codes of ours whose rule is not enabled for the file
	// (ruff's "non-enabled"); they could not have matched.
	Disabled []string
	// Unknown: codes with our prefix that name no rule (ruff's "unknown").
	Unknown []string
	// Edit removes the stale part of the directive; see Directive.removal.
	Edit Edit
}

// Edit replaces Source[Start:End] with NewText (byte offsets).
type Edit struct {
	Start, End int
	NewText    string
}

// UnusedOptions say which codes exist and which are enabled for the file.
// A nil Known treats every code with our prefix as known; a nil Enabled
// treats every known code as enabled.
type UnusedOptions struct {
	Known   func(code string) bool
	Enabled func(code string) bool
	// IgnoreBlanket leaves unused blanket `# noqa` comments out: they are
	// often there for other tools (flake8, ruff) and are not ours to judge.
	IgnoreBlanket bool
}

// Unused lists, after every finding has gone through Suppresses, the
// directives that suppressed nothing (or the codes in them that did not),
// in source order. Codes without our prefix are never reported.
func (s *Set) Unused(opt UnusedOptions) []Unused {
	var out []Unused
	for _, d := range s.all {
		if d.Blanket() {
			if !d.used && !opt.IgnoreBlanket {
				u := Unused{Directive: d, Blanket: true}
				u.Edit = s.removal(d, nil)
				out = append(out, u)
			}
			continue
		}
		u := Unused{Directive: d}
		var keep []int
		for i, c := range d.Codes {
			switch {
			case !strings.HasPrefix(c, OurPrefix) || d.usedCodes[c]:
				keep = append(keep, i)
			case opt.Known != nil && !opt.Known(c):
				u.Unknown = append(u.Unknown, c)
			case opt.Enabled != nil && !opt.Enabled(c):
				u.Disabled = append(u.Disabled, c)
			default:
				u.Unmatched = append(u.Unmatched, c)
			}
		}
		if len(u.Unmatched)+len(u.Disabled)+len(u.Unknown) == 0 {
			continue
		}
		u.Edit = s.removal(d, keep)
		out = append(out, u)
	}
	return out
}

// removal builds the edit that drops the stale codes of d, keeping the codes
// at indexes keep. With codes left, the directive is rewritten as
// `# noqa: A, B` (file directives keep their prefix). With none left, the
// directive is deleted: together with the whitespace before it when it ends
// its comment and something precedes it on the line; as the whole line when
// it is alone there; and, when comment text follows it (a reason), leaving
// `#` and that text so the reason stays a comment.
func (s *Set) removal(d *Directive, keep []int) Edit {
	if len(keep) > 0 {
		codes := make([]string, len(keep))
		for i, k := range keep {
			codes[i] = d.Codes[k]
		}
		prefix := "# noqa: "
		if d.Kind == File {
			prefix = "# cudaforklint: noqa: "
		}
		return Edit{Start: int(d.Span.Start), End: int(d.Span.End), NewText: prefix + strings.Join(codes, ", ")}
	}
	start, end := int(d.Span.Start), int(d.Span.End)
	rest := strings.TrimLeft(string(s.src[end:d.Comment.End]), " \t\f\r")
	if rest != "" {
		// `# noqa: CFL001 reason` → `# reason`; `# noqa: CFL001 # other` → `# other`.
		if strings.HasPrefix(rest, "#") {
			return Edit{Start: start, End: int(d.Comment.End) - len(rest)}
		}
		return Edit{Start: start, End: int(d.Comment.End) - len(rest), NewText: "# "}
	}
	// The directive ends the comment: also eat the whitespace before it.
	for start > 0 && isSpace(s.src[start-1]) {
		start--
	}
	lineStart := s.lineStart[d.Line-1]
	if start == lineStart {
		// Alone on its line: delete the whole line with its newline.
		if end < len(s.src) && s.src[end] == '\r' {
			end++
		}
		if end < len(s.src) && s.src[end] == '\n' {
			end++
		}
	}
	return Edit{Start: start, End: end}
}
