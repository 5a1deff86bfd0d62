package server

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// diagnostic converts a finding (its paths absolute).
func (s *session) diagnostic(f *finding.Finding) protocol.Diagnostic {
	d := protocol.Diagnostic{
		Range:    rangeOf(f.Location, s.enc),
		Severity: severity(f.Severity),
		Code:     f.Code,
		Source:   "cudaforklint",
		Message:  f.Message,
	}
	if f.URL != "" {
		d.CodeDescription = &protocol.CodeDescription{Href: f.URL}
	}
	for _, r := range f.Related {
		if r.Location == f.Location {
			// The primary location as a step of the chain: the
			// diagnostic already points there.
			continue
		}
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: s.uriLocked(r.Path), Range: rangeOf(r.Location, s.enc)},
			Message:  r.Message,
		})
	}
	return d
}

// uriLocked is the URI of a key: the client's own spelling for an open
// document; a cell's key is its URI.
func (s *session) uriLocked(key string) string {
	if d := s.docs[key]; d != nil {
		return d.uri
	}
	if isCellKey(key) {
		return key
	}
	return uriOf(key)
}

func severity(s finding.Severity) int {
	switch s {
	case finding.Error:
		return protocol.SeverityError
	case finding.Warning:
		return protocol.SeverityWarning
	}
	return protocol.SeverityInformation
}

// rangeOf converts a finding's span: LSP lines and characters are 0-based;
// characters count UTF-16 code units or bytes, as negotiated.
func rangeOf(l finding.Location, enc string) protocol.Range {
	return protocol.Range{Start: positionOf(l.Start, enc), End: positionOf(l.End, enc)}
}

func positionOf(p finding.Position, enc string) protocol.Position {
	col := p.UTF16Column
	if enc == protocol.EncodingUTF8 {
		col = p.Column
	}
	return protocol.Position{Line: max(p.Line-1, 0), Character: max(col-1, 0)}
}

// Problems: syntax errors and tool errors about the checked document, as
// diagnostics. Their positions are lines and character columns; the
// snapshot's text makes them ranges that hold for the version checked.

// toolError is a tool error about the checked document (why it was not
// checked), a warning at the start of its line.
func (sn *snapshot) toolError(e finding.ToolError) problem {
	key := sn.problemKey(e)
	pos := linePosition(sn.text(key), max(e.Line, 1), 1, false)
	return problem{
		Location: finding.Location{Path: key, Start: pos, End: pos},
		severity: protocol.SeverityWarning,
		message:  "not checked: " + e.Message,
	}
}

// syntaxError is code the parser could not read: an error from there to
// the end of the line, coded "SyntaxError" as ruff codes them.
func (sn *snapshot) syntaxError(e finding.SyntaxError) problem {
	key := sn.problemKey(e)
	return problem{
		Location: lineSpan(key, sn.text(key), max(e.Line, 1), max(e.Column, 1), true),
		severity: protocol.SeverityError,
		code:     "SyntaxError",
		message:  e.Message,
	}
}

// syntaxAt reads the position of a notebook cell's syntax error from the
// notice that leaves the cell out (analyzer/notebook.go); the column counts
// bytes.
var syntaxAt = regexp.MustCompile(`syntax error at line (\d+), column (\d+)`)

// skippedCell turns the notice of a notebook cell the analysis left out
// into a diagnostic on the cell: a syntax error where the notice says (or
// at the end of a cell that ends inside a bracket), anything else a
// warning on its first line.
func (sn *snapshot) skippedCell(n finding.Notice) (problem, bool) {
	key := sn.problemKey(n)
	if key == sn.path {
		return problem{}, false
	}
	text := sn.text(key)
	if m := syntaxAt.FindStringSubmatch(n.Message); m != nil {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		return problem{
			Location: lineSpan(key, text, line, col, false),
			severity: protocol.SeverityError,
			code:     "SyntaxError",
			message:  "SyntaxError: cannot parse this code (the kernel would run none of this cell: it was not analyzed)",
		}, true
	}
	if strings.Contains(n.Message, "ends inside") {
		last := len(finding.LineStarts(bytes.TrimRight(text, " \t\r\n")))
		return problem{
			Location: lineSpan(key, text, last, 1, false),
			severity: protocol.SeverityError,
			code:     "SyntaxError",
			message:  "SyntaxError: " + n.Message,
		}, true
	}
	return problem{Location: lineSpan(key, text, 1, 1, false), severity: protocol.SeverityWarning, message: n.Message}, true
}

// problemKey is the key of an error about the checked document: in a
// notebook, its cell's URI (the first cell's when it names none).
func (sn *snapshot) problemKey(e finding.ToolError) string {
	uris := sn.cellURIs[sn.path]
	if len(uris) == 0 {
		return sn.path
	}
	if key, ok := sn.cellKey(sn.path, e.Cell); ok {
		return key
	}
	return uris[0]
}

// lineSpan is the span of text from a column of a 1-based line to the
// line's end; col counts bytes, or characters when chars is set.
func lineSpan(key string, text []byte, line, col int, chars bool) finding.Location {
	start := linePosition(text, line, col, chars)
	end := linePosition(text, line, len(text)+1, false)
	return finding.Location{Path: key, Start: start, End: end}
}

// linePosition is the position of a 1-based column of a 1-based line of
// text, kept within the line; col counts bytes, or characters when chars
// is set.
func linePosition(text []byte, line, col int, chars bool) finding.Position {
	starts := finding.LineStarts(text)
	line = min(max(line, 1), len(starts))
	ls := starts[line-1]
	le := len(text)
	if line < len(starts) {
		le = starts[line] - 1
	}
	if le > ls && text[le-1] == '\r' {
		le--
	}
	off := ls
	for n := 1; n < col && off < le; n++ {
		if chars {
			_, size := utf8.DecodeRune(text[off:le])
			off += size
		} else {
			off++
		}
	}
	d := document{text: text}
	return finding.Position{
		Offset:      off,
		Line:        line,
		Column:      off - ls + 1,
		UTF16Column: d.position(off, protocol.EncodingUTF16).Character + 1,
	}
}
