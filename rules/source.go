package rules

// Where a fix's edits go in a Python source, and how they keep its style:
// lines and their breaks, the insertion point after the docstring and
// __future__ imports, the file's indentation. The fixes of both families
// (start_method.go, toplevel_cuda.go) insert and move code with these.

import (
	"bytes"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/cudaforklint/cudaforklint/model"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// insertionPoint is the offset of the start of the module's first
// statement, or of the line after its docstring and __future__ imports:
// after the byte order mark, the #! line, the coding declaration and any
// comments that open the file, where CPython needs them.
func insertionPoint(m *model.Module) int {
	at := len(m.Src)
	if len(m.File.Body) > 0 {
		at = lineStart(m.Src, int(m.File.Body[0].Pos().Start))
	} else if bytes.HasPrefix(m.Src, bom) {
		at = len(bom)
	}
	for i, s := range m.File.Body {
		switch s := s.(type) {
		case *syntax.ExprStmt:
			if _, ok := s.X.(*syntax.String); ok && i == 0 {
				at = lineEnd(m.Src, int(s.End))
				continue
			}
		case *syntax.ImportFrom:
			if s.Module == "__future__" {
				at = lineEnd(m.Src, int(s.End))
				continue
			}
		}
		break
	}
	return at
}

// bom is the UTF-8 byte order mark: code goes after it.
var bom = []byte("\xef\xbb\xbf")

// lineStart is the offset of the start of the line holding off (after a
// byte order mark on the first line).
func lineStart(src []byte, off int) int {
	start := bytes.LastIndexAny(src[:off], "\r\n") + 1
	if start == 0 && bytes.HasPrefix(src, bom) && off >= len(bom) {
		start = len(bom)
	}
	return start
}

// lineEnd is the offset just after the line break ending the line that
// holds off (\n, \r\n or \r), or the end of src.
func lineEnd(src []byte, off int) int {
	i := bytes.IndexAny(src[off:], "\r\n")
	if i < 0 {
		return len(src)
	}
	i += off
	if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
		i++
	}
	return i + 1
}

// lineIn returns the 1-based line of off in src.
func lineIn(src []byte, off int) int {
	return bytes.Count(src[:off], []byte{'\n'}) + 1
}

// lineEnding returns the file's line break, taken from its first line:
// "\r\n", "\r" or "\n" (also for a file without one).
func lineEnding(src []byte) string {
	i := bytes.IndexAny(src, "\r\n")
	switch {
	case i < 0 || src[i] == '\n':
		return "\n"
	case i+1 < len(src) && src[i+1] == '\n':
		return "\r\n"
	}
	return "\r"
}

// indentUnit is the indentation of the file's first indented line, or four
// spaces: a new block indents the way the file does.
func indentUnit(src []byte) string {
	for _, l := range splitLines(string(src)) {
		line := []byte(strings.TrimRight(l, "\r\n"))
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) == len(line) || len(bytes.TrimSpace(trimmed)) == 0 || trimmed[0] == '#' {
			continue
		}
		return string(line[:len(line)-len(trimmed)])
	}
	return "    "
}

// onlyComment reports whether b (the rest of a line) holds nothing but
// white space and a comment.
func onlyComment(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) == 0 || t[0] == '#'
}

// splitLines splits text after each line break (\r\n, \n or a lone \r),
// keeping the breaks; a last line without one is kept.
func splitLines(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			out = append(out, text)
			break
		}
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i++
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

// insertLines inserts lines at offset at of m (a line start, or the end of
// the file), each ended with the file's line break.
func (r reporter) insertLines(m *model.Module, at int, lines ...string) analysis.TextEdit {
	eol := lineEnding(m.Src)
	var text strings.Builder
	if at == len(m.Src) && at > 0 && m.Src[at-1] != '\n' && m.Src[at-1] != '\r' {
		text.WriteString(eol)
	}
	for _, l := range lines {
		text.WriteString(l + eol)
	}
	pos := r.prog.File(m).Pos(at)
	return analysis.TextEdit{Pos: pos, End: pos, NewText: []byte(text.String())}
}
