// Package notebook turns a Jupyter notebook (an .ipynb file, nbformat 4)
// into the Python module its kernel runs, and maps back: positions in that
// module to cells, lines and columns, and to where they are written in the
// notebook's JSON; edits of the module to a new notebook file that differs
// from the old one only in the `source` of the cells they change.
//
// The module ("the virtual source") is every code cell's source in order,
// each ending in a newline, as ruff builds it. A kernel runs a notebook as
// __main__, cell after cell, so that is what the analysis sees. IPython's
// own syntax (line magics `%pip`, shell escapes `!ls`, `x = !cmd`, help
// `obj?`, automagics `pip install x`, cell magics `%%bash`) is not Python:
// each such line is replaced by a placeholder of the same length (magic.go),
// so that every other line keeps its bytes, its line number and its columns,
// and the cell's offsets in the module equal its offsets in its own text.
// Cell magics whose body IPython runs as Python in the kernel (`%%time`,
// `%%timeit`, `%%capture`, `%%prun`, `%%debug`) lose only their first line;
// other cell magics blank the whole cell.
//
// Cells are numbered from 1 counting every cell, markdown and raw ones too,
// as ruff numbers them (crates/ruff_notebook: NotebookIndex keeps the
// "absolute" cell index), so `nb.ipynb:cell 3:2:5` names the third cell
// Jupyter shows.
package notebook

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cudaforklint/cudaforklint/finding"
)

// Ext is a notebook's file name extension.
const Ext = ".ipynb"

// IsPath reports whether path names a notebook, by its extension.
func IsPath(path string) bool { return strings.EqualFold(filepath.Ext(path), Ext) }

// Notebook is a parsed notebook, or one built from an editor's cells
// (FromCells).
type Notebook struct {
	// Raw is the file's bytes; nil for a notebook built from cells, which
	// has no file form: Apply refuses it and FilePos means nothing.
	Raw []byte
	// Cells are every cell, in order.
	Cells []*Cell
	// Language is the kernel's language as the metadata declares it
	// (language_info.name, else kernelspec.language); "" when undeclared.
	Language string
	// Source is the module the kernel runs: the code cells' text, magics
	// neutralised, each cell ending in "\n". Empty for a notebook that is
	// not Python.
	Source []byte
	// LFSPointer is set for a Git LFS pointer file in the notebook's place
	// (a clone made without `git lfs pull`, as CI checkouts are by
	// default): it has no cells, and nothing of the notebook can be read.
	LFSPointer bool

	code []*Cell // the code cells in Source, in order
	// rawLines are the offsets where the lines of Raw start, computed when
	// first needed (most notebooks never need them).
	rawLines     []int
	rawLinesOnce sync.Once
	// asciiOnly is set when the file writes non-ASCII text as \u escapes
	// (json.dumps' ensure_ascii), so that rewritten sources do the same.
	asciiOnly bool
}

// Cell is one cell.
type Cell struct {
	// Number is the cell's 1-based position among all cells.
	Number int
	// Type is cell_type: "code", "markdown" or "raw".
	Type string
	// Text is the cell's source, decoded.
	Text string
	// Start is the offset of Text in the notebook's Source; -1 for a cell
	// that is not in it (not code, or the notebook is not Python).
	Start int
	// CellMagic names the cell magic of the cell's first line ("%%time"),
	// if any.
	CellMagic string
	// Skipped says why a code cell is not analyzed ("" when it is): it
	// ends inside a bracket, a string or a continued line, it is written
	// with interpreter prompts, or SkipCell was told of a syntax error.
	// Source has spaces in its place.
	Skipped string

	// source is the cell's `source` value (a string or an array of
	// strings; nil when absent) and elems its strings, in order.
	source *value
	elems  []*value
	// elemStarts are the offsets in Text where each of elems begins.
	elemStarts []int
	// magic marks the lines (0-based) that are not Python and were
	// neutralised in Source.
	magic []bool
	// lineStarts are the offsets in Text where its lines begin.
	lineStarts []int
}

// Error is a notebook that cannot be read. Line is the 1-based line of the
// file where the problem is, 0 when it is not tied to one.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("invalid notebook: line %d: %s", e.Line, e.Msg)
	}
	return "invalid notebook: " + e.Msg
}

// Python reports whether the kernel runs Python: the metadata says so, or
// says nothing (ruff's rule).
func (nb *Notebook) Python() bool {
	l := strings.ToLower(strings.TrimSpace(nb.Language))
	return l == "" || strings.HasPrefix(l, "python") || l == "ipython"
}

// CodeCells returns the cells whose text is in Source, in order.
func (nb *Notebook) CodeCells() []*Cell { return nb.code }

// IsLFSPointer says whether raw is a Git LFS pointer file: a small text
// file whose first line names the LFS specification and which gives the
// object's oid (https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md).
func IsLFSPointer(raw []byte) bool {
	return len(raw) < 1024 &&
		bytes.HasPrefix(raw, []byte("version https://git-lfs.github.com/spec/")) &&
		bytes.Contains(raw, []byte("\noid sha256:"))
}

// Parse reads a notebook. It fails, with an *Error, on input that is not
// UTF-8 JSON, not a notebook, or not nbformat 4.
func Parse(raw []byte) (*Notebook, error) {
	if !utf8.Valid(raw) {
		i := 0
		for i < len(raw) {
			r, n := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return nil, &Error{Line: bytes.Count(raw[:i], []byte{'\n'}) + 1, Msg: fmt.Sprintf("not valid UTF-8 (byte 0x%02x)", raw[i])}
	}
	if IsLFSPointer(raw) {
		return &Notebook{Raw: raw, LFSPointer: true}, nil
	}
	nb := &Notebook{Raw: raw}
	start := 0
	if bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		start = 3
	}
	if len(bytes.TrimSpace(raw[start:])) == 0 {
		return nil, &Error{Msg: "the file is empty"}
	}
	top, serr := parseJSON(raw, start)
	if serr != nil {
		return nil, &Error{Line: nb.rawLine(serr.off), Msg: "not valid JSON: " + serr.msg}
	}
	if top.kind != kObject {
		return nil, &Error{Line: nb.rawLine(top.start), Msg: "the top-level JSON value is not an object"}
	}
	if err := nb.checkFormat(top); err != nil {
		return nil, err
	}
	nb.Language = nb.language(top)
	cells := top.field(raw, "cells")
	if cells == nil || cells.kind != kArray {
		return nil, &Error{Line: nb.lineOf(cells, top), Msg: `"cells" is missing or not a list`}
	}
	for i, cv := range cells.elems {
		c, err := nb.cell(i+1, cv)
		if err != nil {
			return nil, err
		}
		nb.Cells = append(nb.Cells, c)
	}
	nb.asciiOnly = nb.escapesNonASCII()
	nb.build()
	return nb, nil
}

// CellText is a cell as an editor holds it (the Language Server
// Protocol's notebook synchronization sends cells, not the file): its
// cell_type ("code", "markdown" or "raw") and its text.
type CellText struct {
	Type, Text string
}

// FromCells builds the notebook of a Python kernel whose cells an editor
// holds, numbered from 1 in the order given, with the module Parse would
// build from a file holding the same cells: the same placeholders for
// IPython's lines, the same cells left out. Edits of its module are
// located (Check) as in a parsed notebook, but the notebook has no file
// to rewrite: the editor applies them to its cells.
func FromCells(cells []CellText) *Notebook {
	nb := &Notebook{}
	for i, ct := range cells {
		nb.Cells = append(nb.Cells, &Cell{Number: i + 1, Type: ct.Type, Text: ct.Text, Start: -1,
			lineStarts: finding.LineStarts(ct.Text)})
	}
	nb.build()
	return nb
}

// checkFormat accepts nbformat 4 only. A notebook without "nbformat"
// whose "cells" is a list is read as nbformat 4, as Jupyter's tools read
// the notebooks Meta's Bento writes (their cells are nbformat 4 cells);
// with neither, the file is not a notebook.
func (nb *Notebook) checkFormat(top *value) error {
	f := top.field(nb.Raw, "nbformat")
	if f == nil {
		if cells := top.field(nb.Raw, "cells"); cells != nil && cells.kind == kArray {
			return nil
		}
		return &Error{Msg: `not a Jupyter notebook: no "nbformat" field`}
	}
	if f.kind != kNumber {
		return &Error{Line: nb.rawLine(f.start), Msg: `"nbformat" is not a number`}
	}
	if n := string(nb.Raw[f.start:f.end]); n != "4" {
		return &Error{Line: nb.rawLine(f.start), Msg: fmt.Sprintf("nbformat %s is not supported (only nbformat 4: convert it with `jupyter nbconvert --to notebook --nbformat 4`)", n)}
	}
	return nil
}

// language reads the kernel's language from the metadata.
func (nb *Notebook) language(top *value) string {
	md := top.field(nb.Raw, "metadata")
	if s, ok := md.field(nb.Raw, "language_info").field(nb.Raw, "name").str(nb.Raw); ok && s != "" {
		return s
	}
	if s, ok := md.field(nb.Raw, "kernelspec").field(nb.Raw, "language").str(nb.Raw); ok {
		return s
	}
	return ""
}

// cell reads one cell.
func (nb *Notebook) cell(number int, cv *value) (*Cell, error) {
	c := &Cell{Number: number, Start: -1}
	if cv.kind != kObject {
		return nil, &Error{Line: nb.rawLine(cv.start), Msg: fmt.Sprintf("cell %d is not an object", number)}
	}
	t, ok := cv.field(nb.Raw, "cell_type").str(nb.Raw)
	if !ok {
		return nil, &Error{Line: nb.rawLine(cv.start), Msg: fmt.Sprintf(`cell %d has no "cell_type"`, number)}
	}
	c.Type = t
	src := cv.field(nb.Raw, "source")
	c.source = src
	var text strings.Builder
	switch {
	case src == nil:
		return nil, &Error{Line: nb.rawLine(cv.start), Msg: fmt.Sprintf(`cell %d has no "source"`, number)}
	case src.kind == kString:
		c.elems = []*value{src}
	case src.kind == kArray:
		for _, el := range src.elems {
			if el.kind != kString {
				return nil, &Error{Line: nb.rawLine(el.start), Msg: fmt.Sprintf(`cell %d: "source" holds something other than strings`, number)}
			}
		}
		c.elems = src.elems
	default:
		return nil, &Error{Line: nb.rawLine(src.start), Msg: fmt.Sprintf(`cell %d: "source" is neither a string nor a list of strings`, number)}
	}
	size := 0
	for _, el := range c.elems {
		size += el.end - el.start
	}
	text.Grow(size) // a string's text is never longer than its JSON
	c.elemStarts = make([]int, 0, len(c.elems))
	for _, el := range c.elems {
		c.elemStarts = append(c.elemStarts, text.Len())
		if !walkString(nb.Raw[el.start:el.end], func(_ int, b []byte) { text.Write(b) }) {
			return nil, &Error{Line: nb.rawLine(el.start), Msg: fmt.Sprintf("cell %d: malformed string", number)}
		}
	}
	c.Text = text.String()
	c.lineStarts = finding.LineStarts(c.Text)
	return c, nil
}

// build makes Source from the code cells of a Python notebook.
func (nb *Notebook) build() {
	if !nb.Python() {
		return
	}
	var b bytes.Buffer
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		c.Start = b.Len()
		text, magic, cellMagic, skipped := neutralise(c.Text)
		c.magic, c.CellMagic, c.Skipped = magic, cellMagic, skipped
		b.WriteString(text)
		if !strings.HasSuffix(text, "\n") {
			b.WriteByte('\n')
		}
		nb.code = append(nb.code, c)
	}
	nb.Source = b.Bytes()
}

// CellSource returns the part of Source that holds a code cell.
func (nb *Notebook) CellSource(c *Cell) []byte {
	if c.Start < 0 {
		return nil
	}
	return nb.Source[c.Start:c.end()]
}

// SkipCell replaces a code cell by spaces in Source, as a cell that cannot
// compile, for the given reason. A kernel runs none of a cell with a
// syntax error, and in the joined module the error could swallow the cells
// after it.
func (nb *Notebook) SkipCell(c *Cell, reason string) {
	if c.Start < 0 || c.Skipped != "" {
		return
	}
	c.Skipped = reason
	src := nb.CellSource(c)
	for i, b := range src {
		if b != '\n' && b != '\r' {
			src[i] = ' '
		}
	}
	for i := range c.magic {
		c.magic[i] = true
	}
}

// Matches reports whether module is the notebook's Source, or was, but for
// cells it left out that SkipCell has since left out too (spaces there):
// whether positions and edits computed on module hold for nb.
func (nb *Notebook) Matches(module []byte) bool {
	if len(nb.Source) != len(module) {
		return false
	}
	for _, c := range nb.code {
		now := nb.CellSource(c)
		was := module[c.Start : c.Start+len(now)]
		if !bytes.Equal(now, was) && len(bytes.Trim(was, " \r\n")) > 0 {
			return false
		}
	}
	return true
}

// escapesNonASCII reports whether the file writes its non-ASCII text as
// \u escapes: it has such escapes in cell sources and no raw non-ASCII
// byte anywhere.
func (nb *Notebook) escapesNonASCII() bool {
	if !isASCII(nb.Raw) {
		return false
	}
	for _, c := range nb.Cells {
		for _, el := range c.elems {
			raw := nb.Raw[el.start:el.end]
			found := false
			walkString(raw, func(off int, text []byte) {
				found = found || raw[off] == '\\' && raw[off+1] == 'u' && text[0] >= 0x80
			})
			if found {
				return true
			}
		}
	}
	return false
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// rawLine is the 1-based line of the file at byte offset off.
func (nb *Notebook) rawLine(off int) int {
	return searchLine(nb.lines(), off) + 1
}

// lines returns the offsets where the lines of Raw start.
func (nb *Notebook) lines() []int {
	nb.rawLinesOnce.Do(func() { nb.rawLines = finding.LineStarts(nb.Raw) })
	return nb.rawLines
}

// lineOf is the line of v, or of its parent when v is missing.
func (nb *Notebook) lineOf(v, parent *value) int {
	if v != nil {
		return nb.rawLine(v.start)
	}
	return nb.rawLine(parent.start)
}

// searchLine returns the 0-based index of the line containing off.
func searchLine(starts []int, off int) int {
	lo, hi := 0, len(starts)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
