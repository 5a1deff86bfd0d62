package server

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fix"
	"github.com/cudaforklint/cudaforklint/noqa"
	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// codeActionWait bounds how long a code action waits for the checks that
// are due: past it, the findings of an older text are left out rather than
// offered with wrong positions.
const codeActionWait = 10 * time.Second

// codeActions answers textDocument/codeAction: for each finding under the
// range, its fixes as quick fixes and a `# noqa` quick fix; and the
// document's safe fixes as source.fixAll.cudaforklint. In a notebook the
// document is a cell (its URI is its key) and so are the actions': a fix
// never spans cells (the driver makes such fixes display-only), the noqa
// goes on the cell's line, and fix-all takes the cell's fixes.
func (s *session) codeActions(_ context.Context, p *protocol.CodeActionParams) []protocol.CodeAction {
	actions := []protocol.CodeAction{}
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		path = p.TextDocument.URI // a notebook cell's, perhaps
	}
	s.waitIdle(codeActionWait)
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.textDocLocked(path)
	if d == nil {
		return actions
	}
	var current []located
	for _, f := range s.findingsLocked(path) {
		if f.version == d.version {
			current = append(current, f)
		}
	}
	if wants(p.Context.Only, protocol.KindQuickFix) {
		for i := range current {
			f := &current[i]
			if !intersects(rangeOf(f.Location, s.enc), p.Range) {
				continue
			}
			diag := s.diagnostic(&f.Finding)
			for k, fx := range f.Fixes {
				if fx.Applicability == finding.DisplayOnly {
					continue
				}
				one := f.Finding
				one.Suppressed, one.Fixes = false, []finding.Fix{fx}
				edit := s.fixEditLocked([]finding.Finding{one}, true, f.versions)
				if edit == nil {
					continue
				}
				title := fx.Message
				if fx.Applicability == finding.Unsafe {
					title += " (unsafe)"
				}
				actions = append(actions, protocol.CodeAction{
					Title: title, Kind: protocol.KindQuickFix, Diagnostics: []protocol.Diagnostic{diag},
					IsPreferred: k == 0 && fx.Applicability == finding.Safe, Edit: edit,
				})
			}
			if e, ok := noqaEdit(d, f.Code, f.Start.Line); ok {
				actions = append(actions, protocol.CodeAction{
					Title: "Disable " + f.Code + " for this line", Kind: protocol.KindQuickFix,
					Diagnostics: []protocol.Diagnostic{diag},
					Edit:        s.workspaceEditLocked([]finding.Edit{e}, map[string]int{path: d.version}),
				})
			}
		}
	}
	if wants(p.Context.Only, protocol.KindFixAll) {
		if edit := s.fixAllLocked(current); edit != nil {
			actions = append(actions, protocol.CodeAction{Title: "Apply every safe cudaforklint fix", Kind: protocol.KindFixAll, Edit: edit})
		}
	}
	return actions
}

// wants reports whether a code action kind passes the request's filter: a
// kind is asked for by itself or by a parent ("source" asks for
// "source.fixAll.cudaforklint").
func wants(only []string, kind string) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind == o || strings.HasPrefix(kind, o+".") {
			return true
		}
	}
	return false
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// intersects reports whether two ranges overlap or touch: a cursor at
// either end of a diagnostic is on it.
func intersects(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

// fixAllLocked returns the edit applying what --fix applies of the
// findings' fixes (the first fix of each, when safe, the overlapping ones
// left out: one of --fix's rounds, fix.Apply's); nil when there is none.
func (s *session) fixAllLocked(fs []located) *protocol.WorkspaceEdit {
	var take []finding.Finding
	versions := map[string]int{}
	for i := range fs {
		fx := fix.Select(&fs[i].Finding, false)
		if fx == nil || len(fx.Edits) == 0 || !s.currentLocked(fx.Edits, fs[i].versions) {
			continue
		}
		take = append(take, fs[i].Finding)
		for _, e := range fx.Edits {
			if v, ok := fs[i].versions[e.Path]; ok {
				versions[e.Path] = v
			}
		}
	}
	if len(take) == 0 {
		return nil
	}
	return s.fixEditLocked(take, false, versions)
}

// fixEditLocked applies the fixes of fs as --fix does, through fix.Apply
// (the same choice of fix, overlap rejection and safety net; unsafe is
// --unsafe-fixes), to the texts the run that found them read: the open
// documents' (versions), the other files' on disk. The change of each file
// becomes one edit from its first changed byte to its last, placed by the
// document's own lines, so that the editor's text ends up exactly as the
// file --fix writes. nil when a fix no longer applies, touches a notebook's
// file (not a cell), or fails the safety net.
func (s *session) fixEditLocked(fs []finding.Finding, unsafe bool, versions map[string]int) *protocol.WorkspaceEdit {
	docs := map[string]*document{}
	fs = slices.Clone(fs)
	for i := range fs {
		fixes := slices.Clone(fs[i].Fixes)
		for j := range fixes {
			if !s.currentLocked(fixes[j].Edits, versions) {
				return nil
			}
			edits := slices.Clone(fixes[j].Edits)
			for k := range edits {
				e := &edits[k]
				d, err := s.fixDocLocked(e.Path, docs)
				if err != nil {
					s.log.Printf("code action: %v", err)
					return nil
				}
				if s.cells[e.Path] != nil {
					// A cell's edit has its offsets in the notebook's
					// module, its lines and columns in the cell.
					e.Start.Offset = d.offset(protocol.Position{Line: e.Start.Line - 1, Character: e.Start.Column - 1}, protocol.EncodingUTF8)
					e.End.Offset = d.offset(protocol.Position{Line: e.End.Line - 1, Character: e.End.Column - 1}, protocol.EncodingUTF8)
				}
			}
			fixes[j].Edits = edits
		}
		fs[i].Fixes = fixes
	}
	read := func(p string) ([]byte, error) {
		if d := docs[p]; d != nil {
			return d.text, nil
		}
		return nil, fmt.Errorf("%s: not read by the fix", p)
	}
	res := fix.Apply(fs, fix.Options{Unsafe: unsafe, Diff: true, ReadFile: read, ReadRaw: read})
	var edits []finding.Edit
	for _, fr := range res.Files {
		if fr.Err != nil {
			s.log.Printf("code action: %v", fr.Err)
			return nil
		}
		if start, end, text, changed := change(fr.Before, fr.After); changed {
			edits = append(edits, docs[fr.Path].edit(start, end, text))
		}
	}
	if len(edits) == 0 {
		return nil
	}
	return s.workspaceEditLocked(edits, versions)
}

// fixDocLocked returns the text a fix of path applies to, as a document:
// the open document or cell, else the file on disk (read once per code
// action, into docs).
func (s *session) fixDocLocked(path string, docs map[string]*document) (*document, error) {
	if d := docs[path]; d != nil {
		return d, nil
	}
	d := s.textDocLocked(path)
	if d == nil {
		if s.docs[path] != nil || notebook.IsPath(path) {
			return nil, fmt.Errorf("%s: a fix of a notebook's file, not of a cell", path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		d = newDocument(uriOf(path), path, -1, b)
	}
	docs[path] = d
	return d, nil
}

// change returns the bytes [start, end) of before that after replaces, and
// with what: the span from the first byte that differs to the last. Its
// ends are moved out of a UTF-8 sequence and from between a CR and its LF,
// which no LSP position can name.
func change(before, after []byte) (start, end int, text string, changed bool) {
	if bytes.Equal(before, after) {
		return 0, 0, "", false
	}
	n := min(len(before), len(after))
	p := 0
	for p < n && before[p] == after[p] {
		p++
	}
	for p > 0 && (p < len(before) && !utf8.RuneStart(before[p]) || before[p-1] == '\r' && p < len(before) && before[p] == '\n') {
		p--
	}
	q := 0 // common suffix, not overlapping the prefix
	for q < n-p && before[len(before)-1-q] == after[len(after)-1-q] {
		q++
	}
	for q > 0 {
		b := len(before) - q
		if utf8.RuneStart(before[b]) && !(before[b] == '\n' && b > 0 && before[b-1] == '\r') {
			break
		}
		q--
	}
	return p, len(before) - q, string(after[p : len(after)-q]), true
}

// currentLocked reports whether edits, computed by a run that saw the open
// documents at versions, still apply: every open document they touch is at
// the version the run read.
func (s *session) currentLocked(edits []finding.Edit, versions map[string]int) bool {
	for _, e := range edits {
		if d := s.docs[e.Path]; d != nil && d.nb != nil {
			return false // an edit of the notebook's file, not of a cell
		}
		if d := s.textDocLocked(e.Path); d != nil {
			if v, ok := versions[e.Path]; !ok || v != d.version {
				return false
			}
		}
	}
	return true
}

// workspaceEditLocked groups edits (absolute paths) by file; nil when one
// of them no longer applies. An open document's edits carry its version
// when the client takes documentChanges, so that it refuses them if the
// document changed since.
func (s *session) workspaceEditLocked(edits []finding.Edit, versions map[string]int) *protocol.WorkspaceEdit {
	if !s.currentLocked(edits, versions) {
		return nil
	}
	byPath := map[string][]protocol.TextEdit{}
	var paths []string
	for _, e := range edits {
		if _, ok := byPath[e.Path]; !ok {
			paths = append(paths, e.Path)
		}
		byPath[e.Path] = append(byPath[e.Path], protocol.TextEdit{Range: rangeOf(e.Location, s.enc), NewText: e.NewText})
	}
	sort.Strings(paths)
	we := &protocol.WorkspaceEdit{}
	for _, p := range paths {
		uri := s.uriLocked(p)
		if !s.docChanges {
			if we.Changes == nil {
				we.Changes = map[string][]protocol.TextEdit{}
			}
			we.Changes[uri] = byPath[p]
			continue
		}
		id := protocol.OptionalVersionedTextDocumentIdentifier{URI: uri}
		if d := s.textDocLocked(p); d != nil {
			v := d.version
			id.Version = &v
		}
		we.DocumentChanges = append(we.DocumentChanges, protocol.TextDocumentEdit{TextDocument: id, Edits: byPath[p]})
	}
	return we
}

// noqaEdit returns the edit that makes a `# noqa` cover code for a
// finding on line (1-based) of d: noqa.Place's, at the end of the line's
// logical line. It reports false when a directive there covers code already.
func noqaEdit(d *document, code string, line int) (finding.Edit, bool) {
	p, ok := noqa.Place(d.text, line, code)
	if !ok {
		return finding.Edit{}, false
	}
	return d.edit(p.Edit.Start, p.Edit.End, p.Edit.NewText), true
}
