package server

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// document is an open text document as the editor holds it.
type document struct {
	uri     string // as the client spelled it
	path    string // absolute, clean
	version int
	text    []byte // never modified in place: runs share it
	lines   []int  // byte offset of each line's start; nil until needed
	// nb is set for a notebook, whose text is its cells' (notebook.go);
	// its version counts the changes the server saw.
	nb *notebookDoc
}

func newDocument(uri, path string, version int, text []byte) *document {
	return &document{uri: uri, path: path, version: version, text: text}
}

// lineStarts returns the byte offset of each line's first byte.
func (d *document) lineStarts() []int {
	if d.lines == nil {
		d.lines = finding.LineStarts(d.text)
	}
	return d.lines
}

// apply applies didChange's content changes in order. A change without a
// range replaces the whole text.
func (d *document) apply(changes []protocol.TextDocumentContentChangeEvent, enc string) error {
	for _, c := range changes {
		if c.Range == nil {
			d.text, d.lines = []byte(c.Text), nil
			continue
		}
		start, end := d.offset(c.Range.Start, enc), d.offset(c.Range.End, enc)
		if start > end {
			return fmt.Errorf("change range ends before it starts (%d:%d-%d:%d)",
				c.Range.Start.Line, c.Range.Start.Character, c.Range.End.Line, c.Range.End.Character)
		}
		text := make([]byte, 0, len(d.text)-(end-start)+len(c.Text))
		text = append(text, d.text[:start]...)
		text = append(text, c.Text...)
		text = append(text, d.text[end:]...)
		d.text, d.lines = text, nil
	}
	return nil
}

// offset returns the byte offset of an LSP position. As the specification
// says, a character past the end of its line means the end of the line,
// and a line past the end of the text means the end of the text.
func (d *document) offset(p protocol.Position, enc string) int {
	starts := d.lineStarts()
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(starts) {
		return len(d.text)
	}
	start := starts[p.Line]
	end := len(d.text)
	if p.Line+1 < len(starts) {
		end = starts[p.Line+1] - 1 // the '\n'
		if end > start && d.text[end-1] == '\r' {
			end--
		}
	}
	line := d.text[start:end]
	if enc == protocol.EncodingUTF8 {
		return start + min(max(p.Character, 0), len(line))
	}
	units := 0
	for i := 0; i < len(line); {
		if units >= p.Character {
			return start + i
		}
		r, size := utf8.DecodeRune(line[i:])
		units += utf16Units(r)
		i += size
	}
	return start + len(line)
}

// position returns the LSP position of a byte offset.
func (d *document) position(offset int, enc string) protocol.Position {
	starts := d.lineStarts()
	offset = min(max(offset, 0), len(d.text))
	line := sort.Search(len(starts), func(i int) bool { return starts[i] > offset }) - 1
	col := d.text[starts[line]:offset]
	if enc == protocol.EncodingUTF8 {
		return protocol.Position{Line: line, Character: len(col)}
	}
	units := 0
	for len(col) > 0 {
		r, size := utf8.DecodeRune(col)
		units += utf16Units(r)
		col = col[size:]
	}
	return protocol.Position{Line: line, Character: units}
}

// edit is the edit replacing d.text[start:end] with text, its positions
// d's own (the finding's lines and columns are those of the text a run
// read, which must be d's).
func (d *document) edit(start, end int, text string) finding.Edit {
	pos := func(off int) finding.Position {
		p := d.position(off, protocol.EncodingUTF8)
		return finding.Position{Offset: off, Line: p.Line + 1, Column: p.Character + 1,
			UTF16Column: d.position(off, protocol.EncodingUTF16).Character + 1}
	}
	return finding.Edit{Location: finding.Location{Path: d.path, Start: pos(start), End: pos(end)}, NewText: text}
}

// utf16Units is the number of UTF-16 code units of r; an invalid byte
// counts as one, as the replacement character it decodes to.
func utf16Units(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// pathOf returns the absolute path of a file: URI, or false for another
// scheme (an unsaved "untitled:" buffer, say), which the server does not
// check.
func pathOf(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		// file:///C:/x → C:/x
		p = strings.TrimPrefix(p, "/")
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		return "", false
	}
	return filepath.Clean(p), true
}

// uriOf returns the file: URI of an absolute path.
func uriOf(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}
