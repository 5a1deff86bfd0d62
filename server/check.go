package server

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/cudaforklint/cudaforklint/analyzer"
	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/notebook"
	"github.com/cudaforklint/cudaforklint/passes/pyprogram"
	"github.com/cudaforklint/cudaforklint/rules"
	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
	"github.com/cudaforklint/cudaforklint/syntax"
)

// Checks run on one worker goroutine, one document at a time, in path
// order: a run already uses every core (the parallel parse), and one
// worker is the only sender of diagnostics, so they reach the client in the
// order they were computed.
//
// A check whose input changes while it runs is stale: when the document,
// or a file its last check read, gets new content (an edit, an open or
// close, a change on disk, a configuration change), the running check is
// cancelled (its analyzer.Run context) instead of finishing, and its
// diagnostics are never published. The change itself queues the document
// again, at once or when its debounce fires, and the worker runs that
// check next. A file the running check reads for the first time (a new
// import) is not known until it ends: staleLocked queues it again then.

// inflight is the check the worker is running.
type inflight struct {
	path   string
	cancel context.CancelFunc
	// cancelled is set, under the session's lock, before cancel is
	// called: the worker drops the check's result whatever Run returned.
	cancelled bool
}

// checkHooks let tests watch the worker's checks and stand in for a slow
// one; nil outside tests.
type checkHooks struct {
	// started is called on the worker as a check of sn starts, with the
	// check's context: a test may hold the check there.
	started func(ctx context.Context, sn *snapshot)
	// ended is called on the worker as the check of sn ends: cancelled, or
	// run to completion.
	ended func(sn *snapshot, cancelled bool)
}

// cancelStaleLocked cancels the running check when changed (a path; ""
// for everything) is an input of it: its document, or a file its
// document's last check read.
func (s *session) cancelStaleLocked(changed string) {
	c := s.inflight
	if c == nil || c.cancelled {
		return
	}
	if changed != "" && changed != c.path {
		if r := s.results[c.path]; r == nil || !r.read[changed] {
			return
		}
	}
	c.cancelled = true
	c.cancel()
}

// enqueueLocked queues path and the open documents that read it.
func (s *session) enqueueLocked(path string) {
	s.queue[path] = true
	s.enqueueDependentsLocked(path)
	s.wakeLocked()
}

// enqueueDependentsLocked queues the open documents whose last run read
// path.
func (s *session) enqueueDependentsLocked(path string) {
	for p, r := range s.results {
		if p != path && r.read[path] && s.docs[p] != nil {
			s.queue[p] = true
		}
	}
}

func (s *session) enqueueAllLocked() {
	for p := range s.docs {
		s.queue[p] = true
	}
	s.cancelStaleLocked("")
	s.wakeLocked()
}

func (s *session) wakeLocked() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// worker runs the queued checks until the server stops.
func (s *session) worker() {
	if s.trees != nil {
		defer s.trees.closeDisks()
	}
	for {
		select {
		case <-s.done:
			return
		case <-s.wake:
		}
		for s.step() {
		}
	}
}

// snapshot is what one check needs, taken under the lock: the run itself
// goes without it.
type snapshot struct {
	path, folder string
	overlay      map[string][]byte
	// notebooks are the open notebooks' cells, and cellURIs their cells'
	// URIs, by the notebook's path.
	notebooks map[string][]notebook.CellText
	cellURIs  map[string][]string
	// versions are the open documents' versions by path, and their cells'
	// by URI.
	versions  map[string]int
	loader    *config.Loader
	loaderErr error
	// trees, when not nil, keeps parse trees between checks (trees.go).
	trees *treeMemo
	// forceFull is Options.ForceFull.
	forceFull bool
}

// step sends the pending republications and runs the first queued check;
// it reports false, and signals idleness, when there was nothing to do.
func (s *session) step() bool {
	s.mu.Lock()
	path := ""
	for p := range s.queue {
		if path == "" || p < path {
			path = p
		}
	}
	if path == "" && len(s.republish) == 0 {
		s.running = false
		s.idle.Broadcast()
		s.mu.Unlock()
		return false
	}
	s.running = true
	msgs := s.publishLocked(s.republish, "")
	s.republish = map[string]bool{}
	var snap *snapshot
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if path != "" {
		delete(s.queue, path)
		snap = s.snapshotLocked(path)
		s.inflight = &inflight{path: path, cancel: cancel}
	}
	hooks := s.opts.hooks
	s.mu.Unlock()
	s.send(msgs)
	if snap == nil {
		return true
	}

	if hooks != nil && hooks.started != nil {
		hooks.started(ctx, snap)
	}
	r := check(ctx, snap)

	s.mu.Lock()
	cancelled := s.inflight.cancelled
	s.inflight = nil
	if hooks != nil && hooks.ended != nil {
		hooks.ended(snap, cancelled)
	}
	if cancelled {
		// Stale: the change that cancelled it queued the document again
		// (or closed it), and the next check publishes.
		s.mu.Unlock()
		return true
	}
	if s.docs[path] == nil {
		// Closed during the run; didClose has republished.
		s.mu.Unlock()
		return true
	}
	affected := map[string]bool{path: true}
	target := path
	if d := s.docs[path]; d.nb != nil {
		// A notebook's diagnostics are its cells': all of them, as
		// they are now.
		affected, target = map[string]bool{}, ""
		for _, u := range d.nb.cells {
			affected[u] = true
		}
	}
	if old := s.results[path]; old != nil {
		for _, p := range old.paths() {
			affected[p] = true
		}
	}
	for _, p := range r.paths() {
		affected[p] = true
	}
	s.results[path] = r
	if s.staleLocked(r) {
		s.queue[path] = true
	}
	msgs = s.publishLocked(affected, target)
	msgs = append(msgs, s.configMessagesLocked(r)...)
	s.mu.Unlock()
	s.send(msgs)
	return true
}

// staleLocked reports whether a file the run read changed during the run:
// opened, closed, or edited. An edit whose debounce is still running will
// queue the run's document when it fires (the document reads the file), so
// it does not count.
func (s *session) staleLocked(r *result) bool {
	for p := range r.read {
		d := s.docs[p]
		v, wasOpen := r.versions[p]
		switch {
		case d == nil && wasOpen:
			return true
		case d != nil && (!wasOpen || v != d.version) && s.timers[p] == nil:
			return true
		}
	}
	return false
}

func (s *session) snapshotLocked(path string) *snapshot {
	sn := &snapshot{
		path:      path,
		folder:    s.folderOf(path),
		overlay:   make(map[string][]byte, len(s.docs)),
		versions:  make(map[string]int, len(s.docs)),
		loader:    s.loader,
		loaderErr: s.loaderErr,
		trees:     s.trees,
		forceFull: s.opts.ForceFull,
	}
	for p, d := range s.docs {
		sn.versions[p] = d.version
		if d.nb == nil {
			sn.overlay[p] = d.text
			continue
		}
		if sn.notebooks == nil {
			sn.notebooks, sn.cellURIs = map[string][]notebook.CellText{}, map[string][]string{}
		}
		sn.notebooks[p], sn.cellURIs[p] = s.cellTextsLocked(d)
		for _, u := range d.nb.cells {
			if c := s.cells[u]; c != nil {
				sn.versions[u] = c.doc.version
			}
		}
	}
	return sn
}

// check runs the rules on one document, as `cudaforklint check FILE` from
// the workspace folder would, with the open buffers in the overlay. A panic
// becomes a tool error on the document: the server goes on. Once ctx is
// done the run stops (analyzer.Run), and the result is the caller's to
// drop.
func check(ctx context.Context, sn *snapshot) (r *result) {
	r = &result{versions: map[string]int{}, read: map[string]bool{sn.path: true}}
	defer func() {
		if p := recover(); p != nil {
			r.findings = nil
			r.problems = []problem{sn.toolError(finding.ToolError{Path: sn.path, Message: fmt.Sprintf("internal error: %v", p)})}
		}
	}()
	if sn.loaderErr != nil {
		r.config = append(r.config, sn.loaderErr.Error())
		return r
	}
	// No extra import root for the workspace folder: each file's project
	// decides where its imports resolve, as in `check` (config/project.go),
	// so the editor and the command line report the same findings.
	pol := config.NewPolicy(sn.loader)
	var trees syntax.TreeCache
	if sn.trees != nil {
		trees = sn.trees
		if dir, ok := diskDir(sn.loader, sn.folder); ok {
			trees = checkTrees{memo: sn.trees, disk: sn.trees.diskAt(dir)}
		}
	}
	res, err := analyzer.Run(ctx, analyzer.Options{
		Paths:     []string{sn.path},
		Analyzers: rules.All(),
		Policy:    pol,
		WorkDir:   sn.folder,
		Overlay:   sn.overlay,
		Notebooks: sn.notebooks,
		Split:     pyprogram.Split,
		Trees:     trees,
		ForceFull: sn.forceFull,
	})
	if err != nil {
		r.problems = append(r.problems, sn.toolError(finding.ToolError{Path: sn.path, Message: err.Error()}))
		return r
	}
	for _, p := range res.FilesRead {
		r.read[p] = true
	}
	for p := range r.read {
		if v, ok := sn.versions[p]; ok {
			r.versions[p] = v
		}
		for _, u := range sn.cellURIs[p] {
			if v, ok := sn.versions[u]; ok {
				r.versions[u] = v
			}
		}
	}
	for _, f := range res.Findings {
		if f.Suppressed {
			continue
		}
		absolutize(&f, sn.folder)
		if sn.inCells(&f) {
			r.findings = append(r.findings, f)
		}
	}
	for _, e := range res.Errors {
		switch {
		case e.Path == "":
			// A configuration error: its message names the file and line.
			r.config = append(r.config, e.Message)
		case abs(e.Path, sn.folder) == sn.path:
			e.Path = sn.path
			r.problems = append(r.problems, sn.toolError(e))
		default:
			r.config = append(r.config, e.Path+": "+e.Message)
		}
	}
	for _, e := range res.SyntaxErrors {
		if abs(e.Path, sn.folder) == sn.path {
			e.Path = sn.path
			r.problems = append(r.problems, sn.syntaxError(e))
		}
	}
	for _, n := range res.Notices {
		if n.Cell > 0 && abs(n.Path, sn.folder) == sn.path {
			n.Path = sn.path
			if p, ok := sn.skippedCell(n); ok {
				r.problems = append(r.problems, p)
			}
		}
	}
	return r
}

// abs is the absolute path of a path the driver made relative to dir.
func abs(path, dir string) string { return finding.AbsPath(dir, path) }

// absolutize makes every path of a finding absolute: the diagnostics of one
// file gather findings from runs in different folders.
func absolutize(f *finding.Finding, dir string) {
	f.Path = abs(f.Path, dir)
	for i := range f.Related {
		f.Related[i].Path = abs(f.Related[i].Path, dir)
	}
	for i := range f.Fixes {
		for j := range f.Fixes[i].Edits {
			e := &f.Fixes[i].Edits[j]
			if e.Path == "" {
				e.Path = f.Path
			} else {
				e.Path = abs(e.Path, dir)
			}
		}
	}
}

// message is one notification for the client.
type message struct {
	method string
	params any
}

func (s *session) send(msgs []message) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	for _, m := range msgs {
		if err := conn.Notify(context.Background(), m.method, m.params); err != nil {
			s.log.Printf("sending %s: %v", m.method, err)
		}
	}
}

// publishLocked returns the publishDiagnostics of paths, in path order,
// leaving out those the client already has, except target (the document
// just checked: the editor sees its new version acknowledged).
func (s *session) publishLocked(paths map[string]bool, target string) []message {
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var msgs []message
	for _, p := range sorted {
		diags := s.diagnosticsLocked(p)
		b, _ := json.Marshal(diags)
		key := string(b)
		if len(diags) == 0 {
			key = ""
		}
		if p != target && s.published[p] == key {
			continue
		}
		if key == "" {
			delete(s.published, p)
		} else {
			s.published[p] = key
		}
		params := &protocol.PublishDiagnosticsParams{URI: s.uriLocked(p), Diagnostics: diags}
		if s.docs[p] != nil {
			if r := s.results[target]; p == target && r != nil {
				if v, ok := r.versions[p]; ok {
					params.Version = &v
				}
			}
		}
		msgs = append(msgs, message{protocol.MethodPublishDiagnostics, params})
	}
	return msgs
}

// configMessagesLocked shows each configuration error once (until the
// configuration changes): the documents it affects are not checked.
func (s *session) configMessagesLocked(r *result) []message {
	var msgs []message
	for _, m := range r.config {
		if s.shown[m] {
			continue
		}
		s.shown[m] = true
		s.log.Print(m)
		msgs = append(msgs, message{protocol.MethodShowMessage, &protocol.ShowMessageParams{Type: protocol.MessageError, Message: "cudaforklint: " + m}})
	}
	return msgs
}

// located is a finding with the version of its file it was computed
// against (-1: the file was not open then).
type located struct {
	finding.Finding
	version int
	// versions are those of every open document the run read: a fix's
	// edits in another file hold for that file's version there.
	versions map[string]int
}

// findingsLocked returns the unsuppressed findings located in path from the
// checks of all open documents, without duplicates, in position order.
func (s *session) findingsLocked(path string) []located {
	docs := make([]string, 0, len(s.results))
	for p := range s.results {
		docs = append(docs, p)
	}
	sort.Strings(docs)
	type key struct {
		code       string
		start, end int
		message    string
	}
	seen := map[key]bool{}
	var out []located
	for _, d := range docs {
		r := s.results[d]
		v, ok := r.versions[path]
		if !ok {
			v = -1
		}
		for _, f := range r.findings {
			k := key{f.Code, f.Start.Offset, f.End.Offset, f.Message}
			if f.Path != path || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, located{f, v, r.versions})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Start.Offset != out[j].Start.Offset {
			return out[i].Start.Offset < out[j].Start.Offset
		}
		return out[i].Code < out[j].Code
	})
	return out
}

// diagnosticsLocked returns the diagnostics of a path or cell: its
// findings, and the problems its own check (its notebook's) found in it.
func (s *session) diagnosticsLocked(key string) []protocol.Diagnostic {
	fs := s.findingsLocked(key)
	diags := make([]protocol.Diagnostic, 0, len(fs))
	for i := range fs {
		diags = append(diags, s.diagnostic(&fs[i].Finding))
	}
	if r := s.results[s.ownerLocked(key)]; r != nil {
		for _, p := range r.problems {
			if p.Path == key {
				diags = append(diags, protocol.Diagnostic{
					Range:    rangeOf(p.Location, s.enc),
					Severity: p.severity,
					Code:     p.code,
					Source:   "cudaforklint",
					Message:  p.message,
				})
			}
		}
	}
	return diags
}

// waitIdle runs the debounced checks now and waits, at most timeout, until
// no check is queued or running: a code action must see the findings of
// the text it edits.
func (s *session) waitIdle(timeout time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p, t := range s.timers {
		t.Stop()
		delete(s.timers, p)
		s.queue[p] = true
		s.enqueueDependentsLocked(p)
	}
	s.wakeLocked()
	expired := false
	// sync.Cond has no deadline: a timer wakes the waiter.
	tm := time.AfterFunc(timeout, func() {
		s.mu.Lock()
		expired = true
		s.idle.Broadcast()
		s.mu.Unlock()
	})
	defer tm.Stop()
	for (s.running || len(s.queue) > 0 || len(s.republish) > 0) && !expired {
		s.idle.Wait()
	}
}
