package server

import (
	"fmt"
	"path/filepath"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// Notebooks. A client with LSP 3.17's notebook synchronization (VS Code)
// sends a Jupyter notebook through notebookDocument/*: the notebook's URI
// (a file: URI, the .ipynb), its cells in order, and each cell's text as a
// text document of its own, under a URI of the client's making
// (vscode-notebook-cell:/…/nb.ipynb#W2sZmlsZQ%3D%3D). The server keeps the
// notebook as an open document keyed by its path, like a Python file, whose
// text is its cells; a check hands those to the analyzer
// (analyzer.Options.Notebooks), which builds the kernel's module from them
// as from a file (notebook.FromCells). The findings come back located in
// cells, numbered in the order the check saw them; check turns each such
// location into one in the cell's own text document, keyed by the cell's
// URI, not its number, so that a later splice of the cells cannot move
// them. From there on a cell is like a file: its diagnostics are published
// to its URI, related locations in other cells name those cells, and code
// actions are asked for and answered per cell.
//
// The server asks for Jupyter notebooks' Python cells only (the selector's
// cells), so a client leaves markdown cells out; were they sent, they
// would not be in the module, as in a file.

// notebookDoc is the part of a document that makes it a notebook.
type notebookDoc struct {
	cells []string // the cells' URIs, in order
}

// cell is a cell of an open notebook.
type cell struct {
	// doc is the cell's text; its uri and path are both the cell's URI,
	// the key of its findings.
	doc      *document
	notebook string // the notebook's path
	kind     int
	language string
}

// cellType is what a cell is in the kernel's module: code when it is
// Python (a client that does not say is taken to send Python), otherwise
// text the kernel does not run as Python.
func (c *cell) cellType() string {
	switch {
	case c.kind == protocol.CellKindCode && (c.language == "python" || c.language == ""):
		return "code"
	case c.kind == protocol.CellKindCode:
		return "raw"
	}
	return "markdown"
}

// notebookSync is the notebook synchronization the server asks for: the
// Python cells of Jupyter notebooks, and their saves.
func notebookSync() *protocol.NotebookDocumentSyncOptions {
	return &protocol.NotebookDocumentSyncOptions{
		NotebookSelector: []protocol.NotebookSelector{{
			Notebook: &protocol.NotebookDocumentFilter{NotebookType: protocol.NotebookTypeJupyter},
			Cells:    []protocol.NotebookCellLanguage{{Language: "python"}},
		}},
		Save: true,
	}
}

// isCellKey reports whether a key of the server's maps of findings and
// diagnostics is a cell's URI rather than a file's absolute path.
func isCellKey(key string) bool { return !filepath.IsAbs(key) }

// textDocLocked returns the text document of a key: an open file that is
// not a notebook, or an open notebook's cell; nil otherwise.
func (s *session) textDocLocked(key string) *document {
	if d := s.docs[key]; d != nil {
		if d.nb != nil {
			return nil
		}
		return d
	}
	if c := s.cells[key]; c != nil {
		return c.doc
	}
	return nil
}

// ownerLocked returns the document whose check reports a key's problems:
// the notebook of a cell, else the key itself.
func (s *session) ownerLocked(key string) string {
	if c := s.cells[key]; c != nil {
		return c.notebook
	}
	return key
}

func (s *session) notebookDidOpen(p *protocol.DidOpenNotebookDocumentParams) {
	path, ok := pathOf(p.NotebookDocument.URI)
	if !ok {
		return // an untitled notebook, say: not checked, as untitled files
	}
	items := map[string]protocol.TextDocumentItem{}
	for _, it := range p.CellTextDocuments {
		items[it.URI] = it
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.docs[path]; old != nil && old.nb != nil {
		s.dropCellsLocked(old.nb.cells)
	}
	d := newDocument(p.NotebookDocument.URI, path, 0, nil)
	d.nb = &notebookDoc{}
	for _, c := range p.NotebookDocument.Cells {
		s.addCellLocked(path, c, items[c.Document])
		d.nb.cells = append(d.nb.cells, c.Document)
	}
	s.docs[path] = d
	s.cancelStaleLocked(path)
	s.enqueueLocked(path)
}

// addCellLocked records a cell of the notebook at path, with its text
// document (empty when the client sent none).
func (s *session) addCellLocked(path string, c protocol.NotebookCell, item protocol.TextDocumentItem) {
	s.cells[c.Document] = &cell{
		doc:      newDocument(c.Document, c.Document, item.Version, []byte(item.Text)),
		notebook: path,
		kind:     c.Kind,
		language: item.LanguageID,
	}
}

// dropCellsLocked forgets cells; their diagnostics are sent again (empty,
// once their findings are gone).
func (s *session) dropCellsLocked(uris []string) {
	for _, u := range uris {
		delete(s.cells, u)
		s.republish[u] = true
	}
}

func (s *session) notebookDidChange(p *protocol.DidChangeNotebookDocumentParams) error {
	path, ok := pathOf(p.NotebookDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil || d.nb == nil {
		return nil
	}
	ch := p.Change.Cells
	if ch == nil {
		return nil // the notebook's metadata: nothing the check reads
	}
	if st := ch.Structure; st != nil {
		a := st.Array
		if a.Start < 0 || a.DeleteCount < 0 || a.Start+a.DeleteCount > len(d.nb.cells) {
			return fmt.Errorf("cell array change [%d, %d+%d) is out of range (%d cells)", a.Start, a.Start, a.DeleteCount, len(d.nb.cells))
		}
		items := map[string]protocol.TextDocumentItem{}
		for _, it := range st.DidOpen {
			items[it.URI] = it
		}
		removed := append([]string(nil), d.nb.cells[a.Start:a.Start+a.DeleteCount]...)
		cells := make([]string, 0, len(d.nb.cells)-a.DeleteCount+len(a.Cells))
		cells = append(cells, d.nb.cells[:a.Start]...)
		kept := map[string]bool{}
		for _, c := range a.Cells {
			cells = append(cells, c.Document)
			kept[c.Document] = true
			if it, ok := items[c.Document]; ok || s.cells[c.Document] == nil {
				s.addCellLocked(path, c, it)
			}
		}
		cells = append(cells, d.nb.cells[a.Start+a.DeleteCount:]...)
		d.nb.cells = cells
		// A cell moved is deleted and inserted again with the same
		// document: it is dropped only if it left the notebook.
		var gone []string
		for _, u := range removed {
			if !kept[u] {
				gone = append(gone, u)
			}
		}
		for _, id := range st.DidClose {
			if !kept[id.URI] {
				gone = append(gone, id.URI)
			}
		}
		s.dropCellsLocked(gone)
	}
	for _, c := range ch.Data {
		if cl := s.cells[c.Document]; cl != nil && cl.notebook == path {
			cl.kind = c.Kind
		}
	}
	for _, tc := range ch.TextContent {
		cl := s.cells[tc.Document.URI]
		if cl == nil || cl.notebook != path {
			continue
		}
		if err := cl.doc.apply(tc.Changes, s.enc); err != nil {
			return fmt.Errorf("cell %s: %w", tc.Document.URI, err)
		}
		cl.doc.version = tc.Document.Version
	}
	// The notebook's own version counts every change the server saw: the
	// client's need not move when only a cell's text does.
	d.version++
	s.scheduleLocked(path)
	return nil
}

func (s *session) notebookDidSave(p *protocol.DidSaveNotebookDocumentParams) {
	path, ok := pathOf(p.NotebookDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[path]; d != nil && d.nb != nil {
		s.enqueueLocked(path)
	}
}

func (s *session) notebookDidClose(p *protocol.DidCloseNotebookDocumentParams) {
	path, ok := pathOf(p.NotebookDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil || d.nb == nil {
		return
	}
	s.dropCellsLocked(d.nb.cells)
	s.closeLocked(path)
}

// cellTexts are the cells of a notebook document as the analyzer takes
// them, and their URIs, in order.
func (s *session) cellTextsLocked(d *document) ([]notebook.CellText, []string) {
	texts := make([]notebook.CellText, 0, len(d.nb.cells))
	for _, u := range d.nb.cells {
		c := s.cells[u]
		if c == nil {
			texts = append(texts, notebook.CellText{Type: "markdown"})
			continue
		}
		texts = append(texts, notebook.CellText{Type: c.cellType(), Text: string(c.doc.text)})
	}
	return texts, append([]string(nil), d.nb.cells...)
}

// cellKey returns the key of a location of a run: its path, or in an open
// notebook the URI of its cell; false for a location in a notebook that
// names no cell the run saw.
func (sn *snapshot) cellKey(path string, cell int) (string, bool) {
	uris, ok := sn.cellURIs[path]
	if !ok {
		return path, true
	}
	if cell < 1 || cell > len(uris) {
		return "", false
	}
	return uris[cell-1], true
}

// inCells keys a finding's locations (paths absolute) by cell in the open
// notebooks: the finding's own (false when it names no cell: it is
// dropped), its related locations (those naming none are dropped), its
// fixes' edits (a fix with an edit naming none is dropped: it would be
// applied in part).
func (sn *snapshot) inCells(f *finding.Finding) bool {
	if len(sn.cellURIs) == 0 {
		return true
	}
	key, ok := sn.cellKey(f.Path, f.Cell)
	if !ok {
		return false
	}
	f.Path = key
	related := f.Related[:0]
	for _, r := range f.Related {
		if r.Path, ok = sn.cellKey(r.Path, r.Cell); ok {
			related = append(related, r)
		}
	}
	f.Related = related
	fixes := f.Fixes[:0]
fixes:
	for _, fx := range f.Fixes {
		for i := range fx.Edits {
			e := &fx.Edits[i]
			if e.Path, ok = sn.cellKey(e.Path, e.Cell); !ok {
				continue fixes
			}
		}
		fixes = append(fixes, fx)
	}
	f.Fixes = fixes
	return true
}

// text returns the text a run saw of an open document or cell.
func (sn *snapshot) text(key string) []byte {
	if b, ok := sn.overlay[key]; ok {
		return b
	}
	for p, uris := range sn.cellURIs {
		for i, u := range uris {
			if u == key {
				return []byte(sn.notebooks[p][i].Text)
			}
		}
	}
	return nil
}
