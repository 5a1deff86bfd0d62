package analyzer

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Notebooks. The reader hands every pass the Python module a notebook's
// kernel runs (notebook.Notebook.Source) instead of the file's JSON, so the
// parse, the model, noqa and every position work on it as on a Python
// file; Result.ReadFile returns it too. Once the findings are final
// (suppressed, deduplicated), inCells rewrites their locations, and the
// lines of the errors and notices, from that module to the cells
// (finding.Location.Cell, lines and columns in the cell, File in the JSON),
// and turns a fix the notebook cannot take (it would cross cells or edit a
// magic line) into a display-only one that says why.

// notebookSource parses a notebook read from path and returns its module.
// A cell with a syntax error is left out of it, as the kernel would run
// none of it: in the joined module the error could swallow the next cells.
// d is the file's read from disk (nil for bytes from elsewhere).
func (r *reader) notebookSource(path string, raw []byte, d *diskRead) ([]byte, error) {
	if r.memo != nil && d != nil {
		if b, ok := r.memo.NotebookRead(d.sum); ok {
			if module, notices, ok := decodeNotebookRead(b); ok {
				r.mu.Lock()
				r.unparsed[path] = &unparsedNotebook{raw: raw, notices: notices}
				r.mu.Unlock()
				return module, nil
			}
		}
	}
	nb, err := notebook.Parse(raw)
	if err != nil {
		return nil, err
	}
	module := r.addNotebook(path, nb)
	if r.memo != nil && d != nil {
		r.memo.StoreNotebookRead(d.sum, encodeNotebookRead(module, noticesOf(nb)))
	}
	return module, nil
}

// NotebookMemo keeps, by a notebook file's SHA-256, what reading it gave
// a run: its module and its notices. An Options.Trees that is one
// (cache.Trees) spares a run after an edit the JSON parse of every
// unchanged notebook, and the parse of its module that finds the cells
// that do not compile: most of such a run in a repository of notebooks.
// The cells are parsed only for a notebook whose findings or notices name
// them (reader.notebook). What a read gives depends on the file's bytes
// and the build alone; the implementation keys it by both.
type NotebookMemo interface {
	NotebookRead(sum [sha256.Size]byte) ([]byte, bool)
	StoreNotebookRead(sum [sha256.Size]byte, memo []byte)
}

// unparsedNotebook is a notebook whose read the memo gave: its module is
// in the reader's cache and its notices here; its cells are parsed from
// raw when first asked for.
type unparsedNotebook struct {
	raw     []byte
	notices []cellNotice
	once    sync.Once
}

// cellNotice is a notice of a notebook's: cell 0 for the whole notebook.
type cellNotice struct {
	cell int
	msg  string
}

// noticesOf says whether nb is not checked because its kernel is not
// Python, and which of its cells are not because they cannot compile.
func noticesOf(nb *notebook.Notebook) []cellNotice {
	var out []cellNotice
	if nb.LFSPointer {
		out = append(out, cellNotice{msg: "a Git LFS pointer, not the notebook: its content is not checked out (`git lfs pull` fetches it); not checked"})
	}
	if !nb.Python() {
		out = append(out, cellNotice{msg: fmt.Sprintf("the notebook's kernel runs %s, not Python: not checked", nb.Language)})
	}
	for _, c := range nb.CodeCells() {
		if c.Skipped != "" {
			out = append(out, cellNotice{cell: c.Number, msg: c.Skipped + "; not analyzed"})
		}
	}
	return out
}

// notebookReadFormat starts an encoded notebook read; the build is in the
// memo's key, so only a bug could meet another layout.
const notebookReadFormat = 1

// encodeNotebookRead encodes a notebook's module and notices: the format,
// then each field as a uvarint length (or number) and its bytes.
func encodeNotebookRead(module []byte, notices []cellNotice) []byte {
	b := make([]byte, 0, len(module)+16)
	b = append(b, notebookReadFormat)
	b = binary.AppendUvarint(b, uint64(len(module)))
	b = append(b, module...)
	b = binary.AppendUvarint(b, uint64(len(notices)))
	for _, n := range notices {
		b = binary.AppendUvarint(b, uint64(n.cell))
		b = binary.AppendUvarint(b, uint64(len(n.msg)))
		b = append(b, n.msg...)
	}
	return b
}

// decodeNotebookRead decodes encodeNotebookRead's bytes; ok is false for
// anything else.
func decodeNotebookRead(b []byte) (module []byte, notices []cellNotice, ok bool) {
	if len(b) == 0 || b[0] != notebookReadFormat {
		return nil, nil, false
	}
	b = b[1:]
	next := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	field := func() ([]byte, bool) {
		n, ok := next()
		if !ok || n > uint64(len(b)) {
			return nil, false
		}
		f := b[:n:n]
		b = b[n:]
		return f, true
	}
	if module, ok = field(); !ok {
		return nil, nil, false
	}
	count, ok := next()
	if !ok || count > uint64(len(b)) {
		return nil, nil, false
	}
	for range count {
		cell, ok := next()
		if !ok {
			return nil, nil, false
		}
		msg, ok := field()
		if !ok {
			return nil, nil, false
		}
		notices = append(notices, cellNotice{cell: int(cell), msg: string(msg)})
	}
	return module, notices, len(b) == 0
}

// keepCells caches the module of a notebook an editor holds
// (Options.Notebooks), built from its cells as from a file's.
func (r *reader) keepCells(path string, cells []notebook.CellText) ([]byte, error) {
	size := 0
	for _, c := range cells {
		size += len(c.Text)
	}
	if int64(size) > r.max {
		return nil, r.tooLarge(int64(size))
	}
	src := r.addNotebook(path, notebook.FromCells(cells))
	r.mu.Lock()
	r.cache[path] = src
	r.mu.Unlock()
	return src, nil
}

// addNotebook records a notebook read from path and returns its module,
// less the cells with a syntax error. The module is parsed through the
// run's tree cache: when it has no error, the passes parse the same bytes,
// and an unchanged notebook's tree is decoded, not parsed again, in a run
// after an edit (most of a run's time in a repository of notebooks).
func (r *reader) addNotebook(path string, nb *notebook.Notebook) []byte {
	if f, err := syntax.ParseCached(nb.Source, r.trees, nil); err == nil && len(f.Errors) > 0 {
		for _, c := range nb.CodeCells() {
			src := nb.CellSource(c)
			if f, err := syntax.ParseCached(src, r.trees, nil); err == nil && len(f.Errors) > 0 && c.Skipped == "" {
				at := int(f.Errors[0].Start)
				line := bytes.Count(src[:at], []byte("\n")) + 1
				col := at - (bytes.LastIndexByte(src[:at], '\n') + 1) + 1
				nb.SkipCell(c, fmt.Sprintf("the cell has a syntax error at line %d, column %d: the kernel would run none of it", line, col))
			}
		}
	}
	r.mu.Lock()
	r.notebooks[path] = nb
	r.mu.Unlock()
	return nb.Source
}

// notebook returns the notebook read from path, or nil; one the memo gave
// is parsed now, as it was when its read was stored.
func (r *reader) notebook(path string) *notebook.Notebook {
	r.mu.Lock()
	nb, u := r.notebooks[path], r.unparsed[path]
	r.mu.Unlock()
	if nb != nil || u == nil {
		return nb
	}
	u.once.Do(func() {
		if nb, err := notebook.Parse(u.raw); err == nil {
			r.addNotebook(path, nb)
		}
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.notebooks[path]
}

// notebookNotices says which notebooks were not checked because their
// kernel is not Python, and which cells because they cannot compile.
func (r *reader) notebookNotices() []finding.Notice {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []finding.Notice
	add := func(path string, notices []cellNotice) {
		for _, n := range notices {
			out = append(out, finding.Notice{Path: path, Cell: n.cell, Message: n.msg})
		}
	}
	for path, nb := range r.notebooks {
		add(path, noticesOf(nb))
	}
	for path, u := range r.unparsed {
		if _, parsed := r.notebooks[path]; !parsed {
			add(path, u.notices)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// inCells rewrites the locations in notebooks of a run's findings, errors
// and notices (whose paths are still absolute) as locations in cells.
func (r *reader) inCells(conv *converter, res *Result) {
	if len(r.notebooks) == 0 && len(r.unparsed) == 0 {
		return
	}
	for i := range res.Findings {
		f := &res.Findings[i]
		nb := r.notebook(conv.abs(f.Path))
		if nb != nil {
			f.Location = cellLocation(nb, f.Location)
		}
		for j := range f.Related {
			if nb := r.notebook(conv.abs(f.Related[j].Path)); nb != nil {
				f.Related[j].Location = cellLocation(nb, f.Related[j].Location)
			}
		}
		for j := range f.Fixes {
			r.fixInCells(conv, f, &f.Fixes[j])
		}
	}
	for _, list := range [][]finding.ToolError{res.Errors, res.Notices, res.SyntaxErrors} {
		for i := range list {
			if nb := r.notebook(list[i].Path); nb != nil {
				list[i] = problemInCell(nb, list[i])
			}
		}
	}
}

// fixInCells rewrites a fix's edits; a fix with an edit the notebook cannot
// take becomes display-only, saying why.
func (r *reader) fixInCells(conv *converter, f *finding.Finding, fx *finding.Fix) {
	why := ""
	for k := range fx.Edits {
		e := &fx.Edits[k]
		path := e.Path
		if path == "" {
			path = f.Path
		}
		nb := r.notebook(conv.abs(path))
		if nb == nil {
			continue
		}
		if w := nb.Check(notebook.Edit{Start: e.Start.Offset, End: e.End.Offset, Text: e.NewText}); w != "" && why == "" {
			why = w
		}
		e.Location = cellLocation(nb, e.Location)
	}
	if why != "" && fx.Applicability != finding.DisplayOnly {
		fx.Applicability = finding.DisplayOnly
		fx.Message += " (not applied to the notebook: " + why + ")"
	}
}

// cellLocation turns a location in a notebook's module into one in a cell.
// A span that runs into the next cell (it cannot in a kernel, which runs
// cells one by one) is cut at the end of its first cell.
func cellLocation(nb *notebook.Notebook, l finding.Location) finding.Location {
	s, ok := nb.At(l.Start.Offset)
	if !ok {
		return l
	}
	endOff := l.End.Offset
	e, ok := nb.At(endOff)
	if !ok || e.Cell != s.Cell {
		e = s.Cell.At(len(s.Cell.Text))
		endOff = s.Cell.Start + len(s.Cell.Text)
	}
	loc := finding.Location{
		Path:  l.Path,
		Cell:  s.Cell.Number,
		Start: finding.Position{Offset: l.Start.Offset, Line: s.Line, Column: s.Column, UTF16Column: s.UTF16Column},
		End:   finding.Position{Offset: endOff, Line: e.Line, Column: e.Column, UTF16Column: e.UTF16Column},
	}
	if nb.Raw != nil {
		// A notebook built from an editor's cells has no file to point into.
		fs, fe := nb.FilePos(s.Cell, s.Offset), nb.FilePos(e.Cell, e.Offset)
		loc.File = &finding.FileSpan{
			Start: finding.FilePosition{Line: fs.Line, Column: fs.Column, UTF16Column: fs.UTF16Column},
			End:   finding.FilePosition{Line: fe.Line, Column: fe.Column, UTF16Column: fe.UTF16Column},
		}
	}
	return loc
}

// problemInCell turns the line of an error or notice in a notebook's module
// into a cell and a line in it, in its message too ("at line 57, column 3"
// becomes "at line 2, column 3": columns are the same in the cell).
func problemInCell(nb *notebook.Notebook, e finding.ToolError) finding.ToolError {
	if e.Line < 1 || e.Cell > 0 {
		return e
	}
	off, line := 0, 1
	for line < e.Line && off < len(nb.Source) {
		i := bytes.IndexByte(nb.Source[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		line++
	}
	p, ok := nb.At(off)
	if !ok || line != e.Line {
		return e
	}
	e.Message = strings.Replace(e.Message, fmt.Sprintf("line %d,", e.Line), fmt.Sprintf("line %d,", p.Line), 1)
	e.Cell, e.Line = p.Cell.Number, p.Line
	return e
}
