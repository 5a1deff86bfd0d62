package server

import (
	"path/filepath"
	"testing"

	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// TestOffset: LSP positions to byte offsets in both encodings, with the
// specification's clamping.
func TestOffset(t *testing.T) {
	// Line 1 is `é😀x` (é: 2 bytes, 1 unit; 😀: 4 bytes, 2 units); line 2
	// ends in CRLF.
	text := "ab\n\u00e9\U0001F600x\nc\r\nlast"
	d := newDocument("", "", 0, []byte(text))
	for _, tc := range []struct {
		line, char int
		enc        string
		want       int
	}{
		{0, 0, protocol.EncodingUTF16, 0},
		{0, 2, protocol.EncodingUTF16, 2},
		{0, 9, protocol.EncodingUTF16, 2}, // past the end of the line: its end
		{1, 1, protocol.EncodingUTF16, 5}, // after é
		{1, 3, protocol.EncodingUTF16, 9}, // after 😀
		{1, 4, protocol.EncodingUTF16, 10},
		{1, 2, protocol.EncodingUTF16, 9}, // inside the surrogate pair: after it
		{1, 2, protocol.EncodingUTF8, 5},
		{1, 6, protocol.EncodingUTF8, 9},
		{2, 1, protocol.EncodingUTF16, 12},
		{2, 5, protocol.EncodingUTF16, 12}, // the CR is not part of the line
		{3, 4, protocol.EncodingUTF16, len(text)},
		{9, 0, protocol.EncodingUTF16, len(text)}, // past the last line: the end
	} {
		if got := d.offset(protocol.Position{Line: tc.line, Character: tc.char}, tc.enc); got != tc.want {
			t.Errorf("%s %d:%d = %d, want %d", tc.enc, tc.line, tc.char, got, tc.want)
		}
	}
	for _, tc := range []struct {
		offset    int
		enc       string
		line, chr int
	}{
		{10, protocol.EncodingUTF16, 1, 4},
		{10, protocol.EncodingUTF8, 1, 7},
		{3, protocol.EncodingUTF16, 1, 0},
		{len(text), protocol.EncodingUTF16, 3, 4},
	} {
		if got := d.position(tc.offset, tc.enc); got != (protocol.Position{Line: tc.line, Character: tc.chr}) {
			t.Errorf("%s position(%d) = %+v, want %d:%d", tc.enc, tc.offset, got, tc.line, tc.chr)
		}
	}
}

// TestApply: incremental changes apply in order, each against the text the
// previous one left; a change without a range replaces everything.
func TestApply(t *testing.T) {
	d := newDocument("", "", 0, []byte("import os\nx = 1\n"))
	r := func(l1, c1, l2, c2 int) *protocol.Range {
		return &protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
	}
	err := d.apply([]protocol.TextDocumentContentChangeEvent{
		{Range: r(1, 4, 1, 5), Text: "2"},
		{Range: r(0, 0, 0, 0), Text: "import sys\n"},
		{Range: r(2, 5, 3, 0), Text: "\ny = 3\n"},
	}, protocol.EncodingUTF16)
	if want := "import sys\nimport os\nx = 2\ny = 3\n"; err != nil || string(d.text) != want {
		t.Errorf("got %q (%v), want %q", d.text, err, want)
	}
	if err := d.apply([]protocol.TextDocumentContentChangeEvent{{Range: r(1, 0, 0, 0), Text: ""}}, protocol.EncodingUTF16); err == nil {
		t.Error("a range ending before its start was accepted")
	}
	if err := d.apply([]protocol.TextDocumentContentChangeEvent{{Text: "new"}}, protocol.EncodingUTF16); err != nil || string(d.text) != "new" {
		t.Errorf("full replacement: %q (%v)", d.text, err)
	}
}

// TestURIs: file URIs to paths and back (POSIX paths), with characters
// URIs escape; other schemes are not files.
func TestURIs(t *testing.T) {
	for _, tc := range []struct{ uri, path string }{
		{"file:///home/u/proj/train.py", "/home/u/proj/train.py"},
		{"file:///home/u/my%20proj/a%23b.py", "/home/u/my proj/a#b.py"},
		{"file:///home/u/x/../y.py", "/home/u/y.py"},
	} {
		p, ok := pathOf(tc.uri)
		if !ok || p != filepath.FromSlash(tc.path) {
			t.Errorf("pathOf(%q) = %q, %v; want %q", tc.uri, p, ok, tc.path)
		}
		if back, _ := pathOf(uriOf(p)); back != p {
			t.Errorf("uriOf(%q) = %q, which is %q", p, uriOf(p), back)
		}
	}
	for _, uri := range []string{"untitled:Untitled-1", "file://", "https://example.com/x.py", "::"} {
		if p, ok := pathOf(uri); ok {
			t.Errorf("pathOf(%q) = %q, want not a file", uri, p)
		}
	}
}
