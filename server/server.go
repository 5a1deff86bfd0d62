// Package server is cudaforklint's language server, `cudaforklint server`:
// the Language Server Protocol over standard input and output, so that
// editors show findings while the user types, from the unsaved buffers.
//
// The JSON-RPC layer is github.com/sourcegraph/jsonrpc2; the protocol types
// are server/internal/protocol's (the subset of LSP 3.17 used here).
//
// What it does:
//
//   - Diagnostics. An open Python document is checked when it is opened or
//     saved, and after a change once the editor has been quiet for the
//     debounce delay (150 ms unless initializationOptions.debounceMs says
//     otherwise). A check is one analyzer.Run of that document as
//     `cudaforklint check FILE` would run it from the workspace folder's
//     root, with every open document's buffer in the run's overlay
//     (analyzer.Options.Overlay), so local modules are read from the
//     editor when they are open and from the disk when not. Findings can
//     lie in other files than the checked one (the initialization in an
//     imported helper): the diagnostics of a file are the findings located
//     in it from the checks of all open documents. Related locations become
//     relatedInformation, the rule's page codeDescription.href, severities
//     the rules'. Syntax errors are error diagnostics coded "SyntaxError";
//     tool errors about the document, warnings ("not checked: ..."). A
//     check that a change makes stale (of its document, or of a file its
//     last check read) is cancelled, and its diagnostics never published
//     (check.go).
//   - Notebooks (notebook.go): Jupyter notebooks synchronized through LSP
//     3.17's notebookDocument/* are checked from their cells, as
//     `check nb.ipynb` checks the file, and diagnosed per cell, each cell's
//     diagnostics published to its own URI in its own lines and columns.
//   - Dependencies. A run lists the files it read (analyzer.Result.FilesRead:
//     the document and the local modules the prefilter scanned or the model
//     loaded). When a file changes, in the editor or on disk, the open
//     documents whose last run read it are checked again. Only those: with
//     many open files, re-checking all of them on each keystroke would cost
//     a run per open file.
//   - Code actions: each fix of a finding as a quick fix (unsafe ones say
//     so in the title; display-only fixes are not actions), "Disable CFL00N
//     for this line" (adds the code to the line's `# noqa`, or adds one),
//     and source.fixAll.cudaforklint with every safe fix of the document.
//   - Configuration: the configuration files found from each document
//     upwards, as `check` finds them; exclude patterns apply to open
//     documents too (as with --force-exclude). When a pyproject.toml,
//     cudaforklint.toml or .cudaforklint.toml changes (the server asks the
//     client to watch them, and also notices them being saved), the
//     configuration is reloaded and every open document checked again.
//
// Positions are UTF-16 unless the client offers UTF-8
// (general.positionEncodings).
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/cudaforklint/cudaforklint/config"
	"github.com/cudaforklint/cudaforklint/finding"
	"github.com/cudaforklint/cudaforklint/ruledoc"
	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// DefaultDebounce is how long the server waits after a change before it
// checks the document again: typing bursts cost one run, not one per key.
const DefaultDebounce = 150 * time.Millisecond

// ErrNoShutdown is returned by Serve when the client exits, or the
// connection ends, without a shutdown request first (LSP: exit code 1).
var ErrNoShutdown = errors.New("the client exited without a shutdown request")

// Options configure a server.
type Options struct {
	// Version is reported in serverInfo.
	Version string
	// Log receives the server's own log lines (standard error in
	// `cudaforklint server`); nil discards them.
	Log io.Writer
	// ForceFull turns the byte prefilter off in every check
	// (analyzer.Options.ForceFull).
	ForceFull bool
	// hooks are the tests' (check.go); nil otherwise.
	hooks *checkHooks
}

// Serve runs a server on stream (the editor's pipe) until the client exits
// or the stream ends. It returns nil after shutdown then exit, ErrNoShutdown
// when the client left without a shutdown, or the error that ended it.
func Serve(ctx context.Context, stream io.ReadWriteCloser, opts Options) error {
	s := newSession(opts)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	conn := jsonrpc2.NewConn(ctx, newStream(stream, s.log), s,
		jsonrpc2.SetLogger(s.log))
	s.setClient(conn)
	go s.worker()
	defer s.stop()
	select {
	case <-conn.DisconnectNotify():
	case <-s.exited:
		conn.Close()
	case <-ctx.Done():
		conn.Close()
		return ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shutdown {
		return ErrNoShutdown
	}
	return nil
}

// client is what the server needs of the connection to the editor.
type client interface {
	Notify(ctx context.Context, method string, params any, opts ...jsonrpc2.CallOption) error
	Call(ctx context.Context, method string, params, result any, opts ...jsonrpc2.CallOption) error
}

// session is the server's state for one editor connection.
type session struct {
	opts Options
	log  *log.Logger

	mu       sync.Mutex
	idle     *sync.Cond // signalled when the queue empties and no run is going
	conn     client
	started  bool // initialize answered
	shutdown bool
	exited   chan struct{}
	exitOnce sync.Once
	done     chan struct{}
	wake     chan struct{}

	// Settled at initialize.
	enc         string // position encoding
	docChanges  bool   // the client takes WorkspaceEdit.documentChanges
	watchDynReg bool   // the client registers file watchers dynamically
	debounce    time.Duration
	folders     []string // workspace folders, absolute and clean

	loader    *config.Loader
	loaderErr error
	// trees keeps the parse trees of the files checks parse (trees.go).
	trees *treeMemo

	docs    map[string]*document // open documents by path
	cells   map[string]*cell     // open notebooks' cells by URI
	results map[string]*result   // last check of each open document
	timers  map[string]*time.Timer
	queue   map[string]bool // documents to check
	running bool            // the worker is checking
	// inflight is the check the worker is running, if any (check.go):
	// a change to its inputs cancels it.
	inflight *inflight
	// republish lists paths whose diagnostics must be sent again although
	// no check of them is due (a document closed, a result dropped).
	republish map[string]bool
	// published is the last diagnostics sent per path (as JSON), so that a
	// path is not sent again unchanged, and a path with findings no more
	// is cleared.
	published map[string]string
	shown     map[string]bool // configuration errors shown to the user
}

func newSession(opts Options) *session {
	w := opts.Log
	if w == nil {
		w = io.Discard
	}
	s := &session{
		opts:      opts,
		log:       log.New(w, "cudaforklint server: ", log.LstdFlags),
		exited:    make(chan struct{}),
		done:      make(chan struct{}),
		wake:      make(chan struct{}, 1),
		enc:       protocol.EncodingUTF16,
		debounce:  DefaultDebounce,
		docs:      map[string]*document{},
		cells:     map[string]*cell{},
		results:   map[string]*result{},
		timers:    map[string]*time.Timer{},
		queue:     map[string]bool{},
		trees:     newTreeMemo(treeMemoBytes),
		republish: map[string]bool{},
		published: map[string]string{},
		shown:     map[string]bool{},
	}
	s.idle = sync.NewCond(&s.mu)
	s.reloadConfigLocked()
	return s
}

func (s *session) setClient(c client) {
	s.mu.Lock()
	s.conn = c
	s.mu.Unlock()
}

// stop ends the worker and the debounce timers.
func (s *session) stop() {
	s.mu.Lock()
	for p, t := range s.timers {
		t.Stop()
		delete(s.timers, p)
	}
	s.mu.Unlock()
	close(s.done)
}

// Handle implements jsonrpc2.Handler. It runs on the connection's read
// loop, so messages are handled in the order they came: a didChange is
// applied before the codeAction that follows it. Nothing here waits for the
// client (registerCapability is sent from a goroutine), or the read loop
// could not deliver the answer.
func (s *session) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	result, err := s.handle(ctx, req)
	if req.Notif {
		if err != nil {
			s.log.Printf("%s: %v", req.Method, err)
		}
		return
	}
	if err != nil {
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) {
			rpcErr = &jsonrpc2.Error{Code: protocol.CodeInternalError, Message: err.Error()}
		}
		if err := conn.ReplyWithError(ctx, req.ID, rpcErr); err != nil {
			s.log.Printf("replying to %s: %v", req.Method, err)
		}
		return
	}
	if err := conn.Reply(ctx, req.ID, result); err != nil {
		s.log.Printf("replying to %s: %v", req.Method, err)
	}
}

// handle dispatches one message; a panic becomes an internal error.
func (s *session) handle(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("panic in %s: %v\n%s", req.Method, r, debug.Stack())
			err = &jsonrpc2.Error{Code: protocol.CodeInternalError, Message: fmt.Sprintf("internal error: %v", r)}
		}
	}()
	s.mu.Lock()
	started, shutdown := s.started, s.shutdown
	s.mu.Unlock()
	switch {
	case req.Method == protocol.MethodExit:
		s.exitOnce.Do(func() { close(s.exited) })
		return nil, nil
	case req.Method == protocol.MethodInitialize:
		if started {
			return nil, &jsonrpc2.Error{Code: protocol.CodeInvalidRequest, Message: "initialize was already sent"}
		}
		var p protocol.InitializeParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return s.initialize(&p)
	case !started:
		if req.Notif {
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: protocol.CodeServerNotInitialized, Message: "the server is not initialized"}
	case shutdown && req.Notif:
		return nil, nil
	case shutdown:
		return nil, &jsonrpc2.Error{Code: protocol.CodeInvalidRequest, Message: "the server is shut down"}
	}
	switch req.Method {
	case protocol.MethodInitialized:
		s.initialized()
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
	case protocol.MethodDidOpen:
		var p protocol.DidOpenTextDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.didOpen(&p)
	case protocol.MethodDidChange:
		var p protocol.DidChangeTextDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return nil, s.didChange(&p)
	case protocol.MethodDidSave:
		var p protocol.DidSaveTextDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.didSave(&p)
	case protocol.MethodDidClose:
		var p protocol.DidCloseTextDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.didClose(&p)
	case protocol.MethodNotebookDidOpen:
		var p protocol.DidOpenNotebookDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.notebookDidOpen(&p)
	case protocol.MethodNotebookDidChange:
		var p protocol.DidChangeNotebookDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return nil, s.notebookDidChange(&p)
	case protocol.MethodNotebookDidSave:
		var p protocol.DidSaveNotebookDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.notebookDidSave(&p)
	case protocol.MethodNotebookDidClose:
		var p protocol.DidCloseNotebookDocumentParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.notebookDidClose(&p)
	case protocol.MethodCodeAction:
		var p protocol.CodeActionParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		return s.codeActions(ctx, &p), nil
	case protocol.MethodDidChangeWatchedFiles:
		var p protocol.DidChangeWatchedFilesParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.didChangeWatchedFiles(&p)
	case protocol.MethodDidChangeFolders:
		var p protocol.DidChangeWorkspaceFoldersParams
		if err := params(req, &p); err != nil {
			return nil, err
		}
		s.didChangeFolders(&p)
	default:
		if req.Notif {
			// $/cancelRequest, $/setTrace, workspace/didChangeConfiguration
			// and the rest: nothing to do.
			return nil, nil
		}
		return nil, &jsonrpc2.Error{Code: protocol.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	}
	return nil, nil
}

// params decodes a message's parameters.
func params(req *jsonrpc2.Request, v any) error {
	if req.Params == nil {
		return &jsonrpc2.Error{Code: protocol.CodeInvalidParams, Message: req.Method + ": missing params"}
	}
	if err := json.Unmarshal(*req.Params, v); err != nil {
		return &jsonrpc2.Error{Code: protocol.CodeInvalidParams, Message: req.Method + ": " + err.Error()}
	}
	return nil
}

// initialize settles the session's settings from the client's
// capabilities and options and answers with the server's capabilities.
func (s *session) initialize(p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	var opts protocol.InitializationOptions
	if len(p.InitializationOptions) > 0 && string(p.InitializationOptions) != "null" {
		if err := json.Unmarshal(p.InitializationOptions, &opts); err != nil {
			return nil, &jsonrpc2.Error{Code: protocol.CodeInvalidParams, Message: "initializationOptions: " + err.Error()}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if opts.DebounceMs != nil {
		if *opts.DebounceMs < 0 {
			return nil, &jsonrpc2.Error{Code: protocol.CodeInvalidParams, Message: "initializationOptions.debounceMs must not be negative"}
		}
		s.debounce = time.Duration(*opts.DebounceMs) * time.Millisecond
	}
	for _, e := range p.Capabilities.General.PositionEncodings {
		if e == protocol.EncodingUTF8 {
			s.enc = protocol.EncodingUTF8
		}
	}
	s.docChanges = p.Capabilities.Workspace.WorkspaceEdit.DocumentChanges
	s.watchDynReg = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
	for _, f := range p.WorkspaceFolders {
		s.addFolderLocked(f.URI)
	}
	if len(p.WorkspaceFolders) == 0 {
		switch {
		case p.RootURI != nil:
			s.addFolderLocked(*p.RootURI)
		case p.RootPath != nil && filepath.IsAbs(*p.RootPath):
			s.folders = append(s.folders, filepath.Clean(*p.RootPath))
		}
	}
	s.started = true
	res := &protocol.InitializeResult{ServerInfo: protocol.ServerInfo{Name: "cudaforklint", Version: s.opts.Version}}
	c := &res.Capabilities
	c.PositionEncoding = s.enc
	c.TextDocumentSync = protocol.TextDocumentSyncOptions{OpenClose: true, Change: protocol.SyncIncremental}
	c.CodeActionProvider.CodeActionKinds = []string{protocol.KindQuickFix, protocol.KindFixAll}
	c.NotebookDocumentSync = notebookSync()
	c.Workspace.WorkspaceFolders.Supported = true
	c.Workspace.WorkspaceFolders.ChangeNotifications = true
	return res, nil
}

func (s *session) addFolderLocked(uri string) {
	if p, ok := pathOf(uri); ok {
		s.folders = append(s.folders, p)
	}
}

// watchedFiles are the globs the server asks the client to watch: the
// configuration files, and Python files (a local module changed on disk,
// by a checkout say, changes the findings of the open files importing it).
var watchedFiles = []string{"**/pyproject.toml", "**/cudaforklint.toml", "**/.cudaforklint.toml", "**/*.py", "**/*.pyi"}

// initialized registers the file watchers when the client can.
func (s *session) initialized() {
	s.mu.Lock()
	conn, dyn := s.conn, s.watchDynReg
	s.mu.Unlock()
	if !dyn {
		return
	}
	var watchers []protocol.FileSystemWatcher
	for _, g := range watchedFiles {
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: g})
	}
	reg := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:              "cudaforklint-watched-files",
		Method:          protocol.MethodDidChangeWatchedFiles,
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := conn.Call(ctx, protocol.MethodRegisterCapability, reg, nil); err != nil {
			s.log.Printf("registering file watchers: %v", err)
		}
	}()
}

// isPythonDoc reports whether the server checks a document: Python source
// by language or by name.
func isPythonDoc(path, languageID string) bool {
	return languageID == "python" || strings.HasSuffix(path, ".py") || strings.HasSuffix(path, ".pyi")
}

// isConfigFile reports whether path is a file the configuration is read
// from.
func isConfigFile(path string) bool {
	switch filepath.Base(path) {
	case "pyproject.toml", "cudaforklint.toml", ".cudaforklint.toml":
		return true
	}
	return false
}

func (s *session) didOpen(p *protocol.DidOpenTextDocumentParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	if !isPythonDoc(path, p.TextDocument.LanguageID) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[path] = newDocument(p.TextDocument.URI, path, p.TextDocument.Version, []byte(p.TextDocument.Text))
	s.cancelStaleLocked(path)
	s.enqueueLocked(path)
}

func (s *session) didChange(p *protocol.DidChangeTextDocumentParams) error {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[path]
	if d == nil || d.nb != nil {
		return nil // not a document the server checks, or a notebook
	}
	if err := d.apply(p.ContentChanges, s.enc); err != nil {
		return err
	}
	d.version = p.TextDocument.Version
	s.scheduleLocked(path)
	return nil
}

// scheduleLocked checks a changed document once the editor has been quiet
// for the debounce delay. A check of it (or of a document that read it)
// running now is stale: it is cancelled at once, not when the delay ends.
func (s *session) scheduleLocked(path string) {
	s.cancelStaleLocked(path)
	if s.debounce <= 0 {
		s.enqueueLocked(path)
		return
	}
	if t := s.timers[path]; t != nil {
		t.Stop()
	}
	var t *time.Timer
	t = time.AfterFunc(s.debounce, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		// A later change or a flush replaced or removed this timer.
		if s.timers[path] == t {
			delete(s.timers, path)
			s.enqueueLocked(path)
		}
	})
	s.timers[path] = t
}

func (s *session) didSave(p *protocol.DidSaveTextDocumentParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	if isConfigFile(path) {
		s.configChanged()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[path]; d != nil && d.nb == nil {
		s.enqueueLocked(path)
	}
}

func (s *session) didClose(p *protocol.DidCloseTextDocumentParams) {
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[path]; d == nil || d.nb != nil {
		return
	}
	s.closeLocked(path)
}

// closeLocked forgets an open document and its last check.
func (s *session) closeLocked(path string) {
	if t := s.timers[path]; t != nil {
		t.Stop()
		delete(s.timers, path)
	}
	delete(s.docs, path)
	delete(s.queue, path)
	if r := s.results[path]; r != nil {
		for _, q := range r.paths() {
			s.republish[q] = true
		}
		delete(s.results, path)
	}
	s.republish[path] = true
	// The others now read the file from the disk, not the buffer.
	s.cancelStaleLocked(path)
	s.enqueueDependentsLocked(path)
	s.wakeLocked()
}

func (s *session) didChangeWatchedFiles(p *protocol.DidChangeWatchedFilesParams) {
	config := false
	s.mu.Lock()
	for _, c := range p.Changes {
		path, ok := pathOf(c.URI)
		if !ok {
			continue
		}
		if isConfigFile(path) {
			config = true
			continue
		}
		if s.docs[path] == nil {
			// An open document is read from its buffer, whatever the disk
			// says.
			s.cancelStaleLocked(path)
			s.enqueueDependentsLocked(path)
		}
	}
	s.wakeLocked()
	s.mu.Unlock()
	if config {
		s.configChanged()
	}
}

func (s *session) didChangeFolders(p *protocol.DidChangeWorkspaceFoldersParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	removed := map[string]bool{}
	for _, f := range p.Event.Removed {
		if path, ok := pathOf(f.URI); ok {
			removed[path] = true
		}
	}
	var kept []string
	for _, f := range s.folders {
		if !removed[f] {
			kept = append(kept, f)
		}
	}
	s.folders = kept
	for _, f := range p.Event.Added {
		s.addFolderLocked(f.URI)
	}
	s.enqueueAllLocked()
}

// configChanged reloads the configuration and checks every open document
// again.
func (s *session) configChanged() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reloadConfigLocked()
	s.enqueueAllLocked()
}

// reloadConfigLocked makes a fresh loader: the old one caches every
// directory's configuration.
func (s *session) reloadConfigLocked() {
	t := true
	s.loader, s.loaderErr = config.NewLoader(ruledoc.All(), config.Overrides{ForceExclude: &t})
	s.shown = map[string]bool{}
}

// folderOf returns the workspace folder holding path (the innermost), or
// path's directory when none does.
func (s *session) folderOf(path string) string {
	best := ""
	for _, f := range s.folders {
		if finding.Within(f, path) && len(f) > len(best) {
			best = f
		}
	}
	if best == "" {
		return filepath.Dir(path)
	}
	return best
}

// result is the last check of an open document.
//
// Its findings and problems are keyed by path, or, in a notebook, by the
// URI of the cell they are in (notebook.go), their lines and columns the
// cell's.
type result struct {
	// versions are the versions of the open documents and notebook cells
	// the run read, by key: the findings' positions hold for those
	// versions.
	versions map[string]int
	// read are the files the run read (analyzer.Result.FilesRead).
	read map[string]bool
	// findings are the unsuppressed findings, paths made absolute.
	findings []finding.Finding
	// problems are the document's syntax errors and the tool errors about
	// it.
	problems []problem
	// config are the configuration errors the run met (and other files'
	// problems), for the user's attention.
	config []string
}

// problem is a diagnostic of a checked document that is not a finding.
type problem struct {
	finding.Location // Path is the key
	severity         int
	code             string
	message          string
}

// paths lists the keys the result has findings or problems in.
func (r *result) paths() []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, f := range r.findings {
		add(f.Path)
	}
	for _, p := range r.problems {
		add(p.Path)
	}
	sort.Strings(out)
	return out
}
