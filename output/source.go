package output

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/cudaforklint/cudaforklint/finding"
)

// sources reads and caches files for snippets, character columns and
// fingerprints.
type sources struct {
	read  func(string) ([]byte, error)
	files map[string]*srcFile
}

type srcFile struct {
	data  []byte
	lines [][]byte // without their line ending
	err   error
}

func newSources(r *Report) *sources {
	return &sources{read: r.readSource(), files: map[string]*srcFile{}}
}

func (s *sources) get(path string) *srcFile {
	if f, ok := s.files[path]; ok {
		return f
	}
	f := &srcFile{}
	f.data, f.err = s.read(path)
	if f.err == nil {
		for _, l := range bytes.SplitAfter(f.data, []byte("\n")) {
			l = bytes.TrimSuffix(l, []byte("\n"))
			l = bytes.TrimSuffix(l, []byte("\r"))
			f.lines = append(f.lines, l)
		}
	}
	s.files[path] = f
	return f
}

// line returns the text of a 1-based line, or nil.
func (s *sources) line(path string, n int) ([]byte, bool) {
	f := s.get(path)
	if f.err != nil || n < 1 || n > len(f.lines) {
		return nil, false
	}
	return f.lines[n-1], true
}

// lineOf returns the text of the line a position of l is on. In a notebook
// lines count in cells, and the source read is the module the kernel runs,
// so the line is found by the position's offset in it.
func (s *sources) lineOf(l finding.Location, p finding.Position) ([]byte, bool) {
	if l.Cell == 0 {
		return s.line(l.Path, p.Line)
	}
	f := s.get(l.Path)
	if f.err != nil || p.Offset < 0 || p.Offset > len(f.data) {
		return nil, false
	}
	start := bytes.LastIndexByte(f.data[:p.Offset], '\n') + 1
	end := len(f.data)
	if i := bytes.IndexByte(f.data[p.Offset:], '\n'); i >= 0 {
		end = p.Offset + i
	}
	return bytes.TrimSuffix(f.data[start:end], []byte("\r")), true
}

// charColumn converts a position's byte column to a 1-based column in
// characters (code points); without the source it returns the byte column.
func (s *sources) charColumn(l finding.Location, p finding.Position) int {
	line, ok := s.lineOf(l, p)
	if !ok || p.Column < 1 || p.Column-1 > len(line) {
		return p.Column
	}
	return utf8.RuneCount(line[:p.Column-1]) + 1
}

// where names a position of l as the text formats do: "path:line:column",
// or "path:cell 3:line:column" in a notebook (ruff's form).
func (s *sources) where(l finding.Location, p finding.Position) string {
	if l.Cell > 0 {
		return fmt.Sprintf("%s:cell %d:%d:%d", l.Path, l.Cell, p.Line, s.charColumn(l, p))
	}
	return fmt.Sprintf("%s:%d:%d", l.Path, p.Line, s.charColumn(l, p))
}

const tabWidth = 4

// displayWidth is how many terminal cells b takes, with tabs expanded to
// tabWidth spaces (as ruff shows them).
func displayWidth(b []byte) int {
	w := 0
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		if r == '\t' {
			w += tabWidth
			continue
		}
		w += runeWidth(r)
	}
	return w
}

// expandTabs replaces tabs with tabWidth spaces.
func expandTabs(b []byte) string {
	return string(bytes.ReplaceAll(b, []byte("\t"), bytes.Repeat([]byte(" "), tabWidth)))
}

// runeWidth approximates a character's width in a terminal: 0 for
// combining marks and zero-width characters, 2 for East Asian wide and
// fullwidth characters and most emoji, 1 otherwise.
func runeWidth(r rune) int {
	switch {
	case r == 0x200B || r == 0x200C || r == 0x200D || r == 0xFEFF:
		return 0
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r):
		return 0
	case r >= 0x1100 && r <= 0x115F, // Hangul Jamo
		r >= 0x2E80 && r <= 0x303E, // CJK radicals, punctuation
		r >= 0x3041 && r <= 0x33FF, // kana, CJK symbols
		r >= 0x3400 && r <= 0x4DBF, // CJK extension A
		r >= 0x4E00 && r <= 0x9FFF, // CJK unified
		r >= 0xA000 && r <= 0xA4CF, // Yi
		r >= 0xAC00 && r <= 0xD7A3, // Hangul syllables
		r >= 0xF900 && r <= 0xFAFF, // CJK compatibility
		r >= 0xFE30 && r <= 0xFE4F, // CJK compatibility forms
		r >= 0xFF00 && r <= 0xFF60, // fullwidth forms
		r >= 0xFFE0 && r <= 0xFFE6,
		r >= 0x1F300 && r <= 0x1F64F, // emoji
		r >= 0x1F900 && r <= 0x1F9FF,
		r >= 0x20000 && r <= 0x3FFFD: // CJK extensions B+
		return 2
	}
	return 1
}
