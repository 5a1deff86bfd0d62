package server

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/fix"
	"github.com/cudaforklint/cudaforklint/noqa"
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
				edit := s.workspaceEditLocked(fx.Edits, f.versions)
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

// fixAllLocked returns the edit applying the first fix of each finding
// when it is safe (what --fix applies), skipping a fix that overlaps one
// already taken (as fix.Apply does); nil when there is none.
func (s *session) fixAllLocked(fs []located) *protocol.WorkspaceEdit {
	type span struct{ start, end int }
	taken := map[string][]span{}
	var edits []finding.Edit
	versions := map[string]int{}
	for i := range fs {
		fx := fix.Select(&fs[i].Finding, false)
		if fx == nil || len(fx.Edits) == 0 || !s.currentLocked(fx.Edits, fs[i].versions) {
			continue
		}
		overlaps := false
		for _, e := range fx.Edits {
			for _, t := range taken[e.Path] {
				if e.Start.Offset < t.end && t.start < e.End.Offset || e.Start.Offset == t.start && e.End.Offset == t.end {
					overlaps = true
				}
			}
		}
		if overlaps {
			continue
		}
		for _, e := range fx.Edits {
			taken[e.Path] = append(taken[e.Path], span{e.Start.Offset, e.End.Offset})
			edits = append(edits, e)
			if v, ok := fs[i].versions[e.Path]; ok {
				versions[e.Path] = v
			}
		}
	}
	if len(edits) == 0 {
		return nil
	}
	return s.workspaceEditLocked(edits, versions)
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
