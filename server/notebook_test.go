package server

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// cellURI is the URI VS Code gives the i-th cell of the notebook at path.
func cellURI(path string, i int) string {
	return fmt.Sprintf("vscode-notebook-cell:%s#W%dsZmlsZQ%%3D%%3D", filepath.ToSlash(path), i)
}

// openNotebook sends notebookDocument/didOpen for a notebook whose cells
// are code cells but for those starting with "#md ", markdown; it returns
// the notebook's URI and its cells'.
func (c *testClient) openNotebook(path string, cells ...string) (string, []string) {
	c.t.Helper()
	uri := uriOf(path)
	p := protocol.DidOpenNotebookDocumentParams{NotebookDocument: protocol.NotebookDocument{
		URI: uri, NotebookType: protocol.NotebookTypeJupyter, Version: 1,
	}}
	var uris []string
	for i, text := range cells {
		u := cellURI(path, i)
		uris = append(uris, u)
		kind, lang := protocol.CellKindCode, "python"
		if strings.HasPrefix(text, "#md ") {
			kind, lang = protocol.CellKindMarkup, "markdown"
		}
		p.NotebookDocument.Cells = append(p.NotebookDocument.Cells, protocol.NotebookCell{Kind: kind, Document: u})
		p.CellTextDocuments = append(p.CellTextDocuments, protocol.TextDocumentItem{URI: u, LanguageID: lang, Version: 1, Text: text})
		c.mu.Lock()
		c.versions[u] = 1
		c.mu.Unlock()
	}
	c.notify(protocol.MethodNotebookDidOpen, p)
	return uri, uris
}

// changeNotebook sends notebookDocument/didChange.
func (c *testClient) changeNotebook(uri string, cells protocol.NotebookDocumentCellChanges) {
	c.t.Helper()
	c.mu.Lock()
	c.versions[uri]++
	v := c.versions[uri]
	c.mu.Unlock()
	c.notify(protocol.MethodNotebookDidChange, protocol.DidChangeNotebookDocumentParams{
		NotebookDocument: protocol.VersionedNotebookDocumentIdentifier{URI: uri, Version: v},
		Change:           protocol.NotebookDocumentChangeEvent{Cells: &cells},
	})
}

// setCell replaces a cell's text, as a notebook change.
func (c *testClient) setCell(nbURI, cell, text string) {
	c.t.Helper()
	c.mu.Lock()
	c.versions[cell]++
	v := c.versions[cell]
	c.mu.Unlock()
	c.changeNotebook(nbURI, protocol.NotebookDocumentCellChanges{TextContent: []protocol.NotebookCellTextChange{{
		Document: protocol.VersionedTextDocumentIdentifier{URI: cell, Version: v},
		Changes:  []protocol.TextDocumentContentChangeEvent{{Text: text}},
	}}})
}

// withCodes matches a publish whose diagnostics have exactly these codes.
func withCodes(want ...string) func(protocol.PublishDiagnosticsParams) bool {
	if want == nil {
		want = []string{}
	}
	return func(p protocol.PublishDiagnosticsParams) bool { return reflect.DeepEqual(codes(p.Diagnostics), want) }
}

// The notebook: cell 1 initializes CUDA, cell 2 forks a pool whose workers
// run helper.work, which uses CUDA (CFL001 at cell 1's `.cuda()` line, 0-based
// line 4, from character 8; "fork" at cell 2's line 0, characters 20–26).
const (
	helperPy = "import torch\n\n\ndef work(x):\n    return torch.ones(1, device=\"cuda\") * x\n"
	cellInit = "import multiprocessing as mp\nimport torch\nfrom helper import work\n\nmodel = torch.nn.Linear(8, 8).cuda()\n"
	cellFork = "ctx = mp.get_context(\"fork\")\nwith ctx.Pool(2) as pool:\n    print(pool.map(work, range(4)))\n"
)

// TestNotebookSync: a notebook synchronized through notebookDocument/*
// gets its diagnostics per cell, in cell coordinates, with related
// locations in the other cells; code actions asked on a cell edit the
// cells; text and structure changes re-check it, and closing it clears
// every cell.
func TestNotebookSync(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nb.ipynb")
	// The file on disk is clean: the server must read the cells.
	writeFiles(t, dir, map[string]string{"helper.py": helperPy,
		"nb.ipynb": `{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`})
	c := startServer(t, clientOptions{folders: []string{dir}, documentChanges: true})
	nb, cells := c.openNotebook(path, "#md A markdown cell", cellInit, cellFork)
	md, initCell, forkCell := cells[0], cells[1], cells[2]

	p := c.waitPublish(initCell, 0, withCodes("CFL001"))
	d := p.Diagnostics[0]
	if d.Range.Start != (protocol.Position{Line: 4, Character: 8}) || d.Range.End.Line != 4 {
		t.Errorf("CFL001 at %s, want line 4 from character 8 of the cell", mustJSON(d.Range))
	}
	if !strings.Contains(d.Message, "(cell 3, line 2:") {
		t.Errorf("message %q does not name the forking cell as cell 3, line 2", d.Message)
	}
	inFork := false
	for _, r := range d.RelatedInformation {
		if r.Location.URI == forkCell && r.Location.Range == rng(0, 21, 0, 27) {
			inFork = true
		}
		if r.Location.URI == nb || r.Location.URI == md {
			t.Errorf("related location in %s", r.Location.URI)
		}
	}
	if !inFork {
		t.Errorf("no related location at \"fork\" in the forking cell: %s", mustJSON(d.RelatedInformation))
	}
	if ps := c.publishesOf(nb, 0); len(ps) != 0 {
		t.Errorf("diagnostics published for the notebook's own URI: %s", mustJSON(ps))
	}

	// Code actions on the finding, in its cell.
	actions := c.codeActions(initCell, rng(4, 8, 4, 8))
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
	}
	if want := []string{`Use the "spawn" start method; the children's arguments must pickle (unsafe)`, "Disable CFL001 for this line"}; !reflect.DeepEqual(titles, want) {
		t.Fatalf("actions %q, want %q", titles, want)
	}
	spawn := actions[0].Edit
	if len(spawn.DocumentChanges) != 1 || spawn.DocumentChanges[0].TextDocument.URI != forkCell || *spawn.DocumentChanges[0].TextDocument.Version != 1 {
		t.Fatalf("the spawn fix edits %s, want the forking cell at version 1", mustJSON(spawn))
	}
	spawned, err := applyEdits(cellFork, editsFor(spawn, forkCell), c.enc)
	if want := strings.Replace(cellFork, `"fork"`, `"spawn"`, 1); err != nil || spawned != want {
		t.Errorf("the spawn fix gives %q (%v), want %q", spawned, err, want)
	}
	noqa, err := applyEdits(cellInit, editsFor(actions[1].Edit, initCell), c.enc)
	if want := strings.Replace(cellInit, ".cuda()\n", ".cuda()  # noqa: CFL001\n", 1); err != nil || noqa != want {
		t.Errorf("the noqa fix gives %q (%v), want %q", noqa, err, want)
	}
	if got := c.codeActions(md, rng(0, 0, 0, 5)); len(got) != 0 {
		t.Errorf("actions in the markdown cell: %s", mustJSON(got))
	}

	// A cell's text changes: applying the fix clears the other cell.
	n := c.published()
	c.setCell(nb, forkCell, spawned)
	c.waitPublish(initCell, n, withCodes())

	// A cell with a syntax error is added: an error on it, and the cells
	// around it are analyzed still.
	n = c.published()
	broken := cellURI(path, 3)
	c.changeNotebook(nb, protocol.NotebookDocumentCellChanges{Structure: &protocol.NotebookCellStructureChange{
		Array:   protocol.NotebookCellArrayChange{Start: 2, Cells: []protocol.NotebookCell{{Kind: protocol.CellKindCode, Document: broken}}},
		DidOpen: []protocol.TextDocumentItem{{URI: broken, LanguageID: "python", Version: 1, Text: "y = 2 +* 3\n"}},
	}})
	p = c.waitPublish(broken, n, withCodes("SyntaxError"))
	if d := p.Diagnostics[0]; d.Severity != protocol.SeverityError || d.Range.Start.Line != 0 || d.Source != "cudaforklint" {
		t.Errorf("syntax error diagnostic %s", mustJSON(d))
	}
	n = c.published()
	c.setCell(nb, forkCell, cellFork)
	p = c.waitPublish(initCell, n, withCodes("CFL001"))
	if !strings.Contains(p.Diagnostics[0].Message, "(cell 4, line 2:") {
		t.Errorf("message %q does not name the forking cell as cell 4 now", p.Diagnostics[0].Message)
	}

	// The forking cell is deleted.
	n = c.published()
	c.changeNotebook(nb, protocol.NotebookDocumentCellChanges{Structure: &protocol.NotebookCellStructureChange{
		Array:    protocol.NotebookCellArrayChange{Start: 3, DeleteCount: 1},
		DidClose: []protocol.TextDocumentIdentifier{{URI: forkCell}},
	}})
	c.waitPublish(initCell, n, withCodes())

	// Closing the notebook clears what is left.
	n = c.published()
	c.notify(protocol.MethodNotebookDidClose, protocol.DidCloseNotebookDocumentParams{
		NotebookDocument:  protocol.NotebookDocumentIdentifier{URI: nb},
		CellTextDocuments: []protocol.TextDocumentIdentifier{{URI: md}, {URI: initCell}, {URI: broken}},
	})
	c.waitPublish(broken, n, withCodes())
}

// TestNotebookCapability: the server asks for the Python cells of Jupyter
// notebooks, and their saves.
func TestNotebookCapability(t *testing.T) {
	got := notebookSync()
	b := mustJSON(got)
	for _, want := range []string{`"notebookType": "jupyter-notebook"`, `"language": "python"`, `"save": true`} {
		if !strings.Contains(b, want) {
			t.Errorf("notebookDocumentSync %s lacks %s", b, want)
		}
	}
}

// TestSyntaxErrors: code the parser cannot read in a Python file is an
// error diagnostic coded SyntaxError, from the character the parser names
// (UTF-16 or UTF-8, as negotiated), cleared once the code parses.
func TestSyntaxErrors(t *testing.T) {
	for _, utf8 := range []bool{false, true} {
		t.Run(fmt.Sprintf("utf8=%v", utf8), func(t *testing.T) {
			dir := t.TempDir()
			c := startServer(t, clientOptions{folders: []string{dir}, utf8: utf8})
			text := "import os\n\nx = (\"é😀\", 2 +* 2)\n"
			uri := c.open(filepath.Join(dir, "a.py"), text)
			p := c.waitPublish(uri, 0, hasVersion(1))
			if got := codes(p.Diagnostics); !reflect.DeepEqual(got, []string{"SyntaxError"}) {
				t.Fatalf("diagnostics %s, want one SyntaxError", mustJSON(p.Diagnostics))
			}
			d := p.Diagnostics[0]
			if d.Severity != protocol.SeverityError || d.Range.Start.Line != 2 || !strings.HasPrefix(d.Message, "SyntaxError") {
				t.Errorf("diagnostic %s, want an error on line 2", mustJSON(d))
			}
			// The parser names the 14th character, `+`: 14 UTF-16 code
			// units or 17 bytes from the line's start.
			want := rng(2, 14, 2, 19)
			if utf8 {
				want = rng(2, 17, 2, 22)
			}
			if d.Range != want {
				t.Errorf("the error spans %s, want %s (from `+` to the end of the line)", mustJSON(d.Range), mustJSON(want))
			}
			v := c.replaceAll(uri, "import os\n\nx = (\"é😀\", 2 * 2)\n")
			if p := c.waitPublish(uri, 0, hasVersion(v)); len(p.Diagnostics) != 0 {
				t.Errorf("after the fix: %s, want none", mustJSON(p.Diagnostics))
			}
		})
	}
}

// TestNotebookCellMove: moving a cell (a splice that takes the cells out
// and puts them back, with no text document opened or closed) keeps each
// cell's text, and the kernel's order is the new one: forking before the
// CUDA initialization is no hazard.
func TestNotebookCellMove(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nb.ipynb")
	writeFiles(t, dir, map[string]string{"helper.py": helperPy})
	c := startServer(t, clientOptions{folders: []string{dir}})
	nb, cells := c.openNotebook(path, cellInit, cellFork)
	initCell, forkCell := cells[0], cells[1]
	c.waitPublish(initCell, 0, withCodes("CFL001"))

	n := c.published()
	// The imports stay first: the fork cell needs mp.
	imports := cellURI(path, 9)
	c.changeNotebook(nb, protocol.NotebookDocumentCellChanges{Structure: &protocol.NotebookCellStructureChange{
		Array: protocol.NotebookCellArrayChange{Start: 0, DeleteCount: 2, Cells: []protocol.NotebookCell{
			{Kind: protocol.CellKindCode, Document: imports},
			{Kind: protocol.CellKindCode, Document: forkCell},
			{Kind: protocol.CellKindCode, Document: initCell},
		}},
		DidOpen: []protocol.TextDocumentItem{{URI: imports, LanguageID: "python", Version: 1,
			Text: "import multiprocessing as mp\nfrom helper import work\n"}},
	}})
	c.waitPublish(initCell, n, withCodes())

	// Moved back, the cells still hold their texts.
	n = c.published()
	c.changeNotebook(nb, protocol.NotebookDocumentCellChanges{Structure: &protocol.NotebookCellStructureChange{
		Array:    protocol.NotebookCellArrayChange{Start: 0, DeleteCount: 3, Cells: []protocol.NotebookCell{{Kind: protocol.CellKindCode, Document: initCell}, {Kind: protocol.CellKindCode, Document: forkCell}}},
		DidClose: []protocol.TextDocumentIdentifier{{URI: imports}},
	}})
	c.waitPublish(initCell, n, withCodes("CFL001"))

	// A splice out of range is refused, and changes nothing.
	n = c.published()
	c.changeNotebook(nb, protocol.NotebookDocumentCellChanges{Structure: &protocol.NotebookCellStructureChange{
		Array: protocol.NotebookCellArrayChange{Start: 1, DeleteCount: 5},
	}})
	c.barrier(dir)
	if ps := c.publishesOf(initCell, n); len(ps) != 0 {
		t.Errorf("an out-of-range splice changed the diagnostics: %s", mustJSON(ps))
	}
}
