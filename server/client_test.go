package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// testClient is an editor for the tests: it talks JSON-RPC to a server
// running in the same process over a pipe, records what the server sends,
// and answers client/registerCapability.
type testClient struct {
	t        testing.TB
	conn     *jsonrpc2.Conn
	serveErr chan error
	enc      string

	mu            sync.Mutex
	changed       *sync.Cond
	publishes     []protocol.PublishDiagnosticsParams
	messages      []protocol.ShowMessageParams
	registrations []protocol.Registration
	versions      map[string]int
}

// clientOptions are what a test client announces at initialize.
type clientOptions struct {
	folders         []string
	utf8            bool
	debounceMs      int
	documentChanges bool
	dynamicWatch    bool
	// hooks watch and hold the server's checks (check.go).
	hooks *checkHooks
}

// hazard forks a child that uses CUDA after initializing CUDA (CFL001 at
// `torch.cuda.init()`, line 11, columns 5–22; the start-method literal
// "fork" at line 12, columns 24–30).
const hazard = `import multiprocessing as mp

import torch


def child():
    torch.zeros(1, device="cuda")


if __name__ == "__main__":
    torch.cuda.init()
    p = mp.get_context("fork").Process(target=child)
    p.start()
    p.join()
`

// waitFor is how long a test waits for the server; generous, since the CI
// machine may be loaded.
const waitFor = 30 * time.Second

func startServer(t testing.TB, o clientOptions) *testClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srvSide, cliSide := net.Pipe()
	c := &testClient{t: t, serveErr: make(chan error, 1), versions: map[string]int{}, enc: protocol.EncodingUTF16}
	c.changed = sync.NewCond(&c.mu)
	go func() { c.serveErr <- Serve(ctx, srvSide, Options{Version: "test", hooks: o.hooks}) }()
	c.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(cliSide, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(c.handle))
	t.Cleanup(func() {
		defer cancel()
		c.shutdown()
	})

	var caps protocol.ClientCapabilities
	if o.utf8 {
		caps.General.PositionEncodings = []string{protocol.EncodingUTF16, protocol.EncodingUTF8}
	}
	caps.Workspace.WorkspaceEdit.DocumentChanges = o.documentChanges
	caps.Workspace.DidChangeWatchedFiles.DynamicRegistration = o.dynamicWatch
	p := protocol.InitializeParams{Capabilities: caps}
	for _, f := range o.folders {
		p.WorkspaceFolders = append(p.WorkspaceFolders, protocol.WorkspaceFolder{URI: uriOf(f), Name: filepath.Base(f)})
	}
	opts, _ := json.Marshal(protocol.InitializationOptions{DebounceMs: &o.debounceMs})
	p.InitializationOptions = opts
	var res protocol.InitializeResult
	if err := c.conn.Call(ctx, protocol.MethodInitialize, p, &res); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	c.enc = res.Capabilities.PositionEncoding
	c.notify(protocol.MethodInitialized, struct{}{})
	return c
}

// shutdown ends the session as an editor does, and checks that the server
// returned cleanly.
func (c *testClient) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	if err := c.conn.Call(ctx, protocol.MethodShutdown, nil, nil); err != nil {
		c.t.Errorf("shutdown: %v", err)
	}
	c.conn.Notify(ctx, protocol.MethodExit, nil)
	select {
	case err := <-c.serveErr:
		if err != nil {
			c.t.Errorf("Serve returned %v after shutdown and exit", err)
		}
	case <-ctx.Done():
		c.t.Errorf("Serve did not return after exit")
	}
	c.conn.Close()
}

func (c *testClient) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.changed.Broadcast()
	switch req.Method {
	case protocol.MethodPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			return nil, err
		}
		c.publishes = append(c.publishes, p)
	case protocol.MethodShowMessage:
		var p protocol.ShowMessageParams
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			return nil, err
		}
		c.messages = append(c.messages, p)
	case protocol.MethodRegisterCapability:
		var p protocol.RegistrationParams
		if err := json.Unmarshal(*req.Params, &p); err != nil {
			return nil, err
		}
		c.registrations = append(c.registrations, p.Registrations...)
	}
	return nil, nil
}

func (c *testClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// open sends didOpen for path with text (version 1) and returns its URI.
func (c *testClient) open(path, text string) string {
	uri := uriOf(path)
	c.mu.Lock()
	c.versions[uri] = 1
	c.mu.Unlock()
	c.notify(protocol.MethodDidOpen, protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri, LanguageID: "python", Version: 1, Text: text,
	}})
	return uri
}

// change sends didChange with the next version and returns that version.
func (c *testClient) change(uri string, changes ...protocol.TextDocumentContentChangeEvent) int {
	c.mu.Lock()
	c.versions[uri]++
	v := c.versions[uri]
	c.mu.Unlock()
	c.notify(protocol.MethodDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{URI: uri, Version: v},
		ContentChanges: changes,
	})
	return v
}

// replaceAll sends the whole new text.
func (c *testClient) replaceAll(uri, text string) int {
	return c.change(uri, protocol.TextDocumentContentChangeEvent{Text: text})
}

// waitPublish waits for a publishDiagnostics of uri, sent after the first
// `after` publishes, that satisfies ok, and returns it.
func (c *testClient) waitPublish(uri string, after int, ok func(protocol.PublishDiagnosticsParams) bool) protocol.PublishDiagnosticsParams {
	c.t.Helper()
	var got protocol.PublishDiagnosticsParams
	c.waitUntil(func() bool {
		for _, p := range c.publishes[min(after, len(c.publishes)):] {
			if p.URI == uri && ok(p) {
				got = p
				return true
			}
		}
		return false
	}, func() string {
		return fmt.Sprintf("no matching publishDiagnostics for %s; got %s", uri, mustJSON(c.publishes))
	})
	return got
}

// waitRegistrations waits until the server has registered a capability
// whose options mention each of globs.
// The server registers from a goroutine after initialized, so nothing
// else the client sees orders the registrations before a publish.
func (c *testClient) waitRegistrations(globs ...string) {
	c.t.Helper()
	var regs string
	c.waitUntil(func() bool {
		regs = mustJSON(c.registrations)
		for _, g := range globs {
			if !strings.Contains(regs, g) {
				return false
			}
		}
		return true
	}, func() string {
		return fmt.Sprintf("registrations %s lack a watcher for one of %q", regs, globs)
	})
}

// waitUntil calls done, with c.mu held, each time the client records a
// message, until it returns true; after waitFor it fails the test with
// failure's message.
func (c *testClient) waitUntil(done func() bool, failure func() string) {
	c.t.Helper()
	deadline := time.Now().Add(waitFor)
	timer := time.AfterFunc(waitFor, func() {
		c.mu.Lock()
		c.changed.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for !done() {
		if time.Now().After(deadline) {
			c.t.Fatal(failure())
		}
		c.changed.Wait()
	}
}

// published returns how many publishes the client has received.
func (c *testClient) published() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.publishes)
}

// publishesOf returns the publishes of uri among the first n... (from
// index from on).
func (c *testClient) publishesOf(uri string, from int) []protocol.PublishDiagnosticsParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []protocol.PublishDiagnosticsParams
	for _, p := range c.publishes[min(from, len(c.publishes)):] {
		if p.URI == uri {
			out = append(out, p)
		}
	}
	return out
}

// codeActions asks for the code actions of rng in uri.
func (c *testClient) codeActions(uri string, rng protocol.Range, only ...string) []protocol.CodeAction {
	c.t.Helper()
	var out []protocol.CodeAction
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	p := protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Range: rng, Context: protocol.CodeActionContext{Only: only}}
	if err := c.conn.Call(ctx, protocol.MethodCodeAction, p, &out); err != nil {
		c.t.Fatalf("codeAction: %v", err)
	}
	return out
}

// barrier returns once the server has no check queued or running: a code
// action request waits for that.
func (c *testClient) barrier(dir string) {
	c.t.Helper()
	c.codeActions(uriOf(filepath.Join(dir, "no-such-file.py")), protocol.Range{})
}

// hasVersion matches a publish of the given document version.
func hasVersion(v int) func(protocol.PublishDiagnosticsParams) bool {
	return func(p protocol.PublishDiagnosticsParams) bool { return p.Version != nil && *p.Version == v }
}

// codes lists the diagnostics' codes.
func codes(ds []protocol.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

// applyEdits applies one document's edits to text as an editor does: all
// ranges refer to the text before any edit.
func applyEdits(text string, edits []protocol.TextEdit, enc string) (string, error) {
	d := newDocument("", "", 0, []byte(text))
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{d.offset(e.Range.Start, enc), d.offset(e.Range.End, enc), e.NewText})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start > spans[j].start })
	out := []byte(text)
	for i, s := range spans {
		if i > 0 && s.end > spans[i-1].start {
			return "", errors.New("overlapping edits")
		}
		out = append(out[:s.start:s.start], append([]byte(s.text), out[s.end:]...)...)
	}
	return string(out), nil
}

// editsFor returns the edits of one document in a workspace edit, from
// whichever form the server used.
func editsFor(we *protocol.WorkspaceEdit, uri string) []protocol.TextEdit {
	if we == nil {
		return nil
	}
	var out []protocol.TextEdit
	out = append(out, we.Changes[uri]...)
	for _, dc := range we.DocumentChanges {
		if dc.TextDocument.URI == uri {
			out = append(out, dc.Edits...)
		}
	}
	return out
}

func mustJSON(v any) string {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err.Error()
	}
	return string(b)
}
