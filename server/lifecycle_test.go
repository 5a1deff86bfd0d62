package server

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// TestLifecycle: the errors of requests out of turn, and the exit status:
// leaving without shutdown is ErrNoShutdown.
func TestLifecycle(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	srvSide, cliSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, srvSide, Options{}) }()
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(cliSide, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) { return nil, nil }))
	defer conn.Close()

	call := func(method string, params any) int64 {
		t.Helper()
		err := conn.Call(ctx, method, params, nil)
		var rpcErr *jsonrpc2.Error
		if errors.As(err, &rpcErr) {
			return rpcErr.Code
		}
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return 0
	}
	for _, step := range []struct {
		method string
		params any
		want   int64
	}{
		{protocol.MethodCodeAction, protocol.CodeActionParams{}, protocol.CodeServerNotInitialized},
		{protocol.MethodInitialize, json.RawMessage(`{"capabilities": 3}`), protocol.CodeInvalidParams},
		{protocol.MethodInitialize, json.RawMessage(`{"capabilities": {}, "initializationOptions": {"debounceMs": -1}}`), protocol.CodeInvalidParams},
		{protocol.MethodInitialize, protocol.InitializeParams{}, 0},
		{protocol.MethodInitialize, protocol.InitializeParams{}, protocol.CodeInvalidRequest},
		{"textDocument/hover", protocol.CodeActionParams{}, protocol.CodeMethodNotFound},
		{protocol.MethodCodeAction, protocol.CodeActionParams{}, 0},
		{protocol.MethodShutdown, nil, 0},
		{protocol.MethodCodeAction, protocol.CodeActionParams{}, protocol.CodeInvalidRequest},
	} {
		if got := call(step.method, step.params); got != step.want {
			t.Errorf("%s %v: code %d, want %d", step.method, step.params, got, step.want)
		}
	}
	if err := conn.Notify(ctx, protocol.MethodExit, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(waitFor):
		t.Fatal("Serve did not return")
	}
}

// TestExitWithoutShutdown: the client leaving without a shutdown request,
// by exit or by closing the stream, is ErrNoShutdown (exit status 1).
func TestExitWithoutShutdown(t *testing.T) {
	for _, byExit := range []bool{true, false} {
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		srvSide, cliSide := net.Pipe()
		served := make(chan error, 1)
		go func() { served <- Serve(ctx, srvSide, Options{}) }()
		conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(cliSide, jsonrpc2.VSCodeObjectCodec{}),
			jsonrpc2.HandlerWithError(func(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) (any, error) { return nil, nil }))
		if err := conn.Call(ctx, protocol.MethodInitialize, protocol.InitializeParams{}, nil); err != nil {
			t.Fatal(err)
		}
		if byExit {
			conn.Notify(ctx, protocol.MethodExit, nil)
		} else {
			conn.Close()
		}
		select {
		case err := <-served:
			if !errors.Is(err, ErrNoShutdown) {
				t.Errorf("exit=%v: Serve returned %v, want ErrNoShutdown", byExit, err)
			}
		case <-ctx.Done():
			t.Fatalf("exit=%v: Serve did not return", byExit)
		}
		conn.Close()
		cancel()
	}
}

// TestCheckRecovers: a panic during a check (here: no configuration
// loader at all) becomes a tool error on the document, not a crash.
func TestCheckRecovers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.py")
	r := check(context.Background(), &snapshot{path: path, folder: dir, overlay: map[string][]byte{path: []byte(hazard)}})
	if len(r.problems) != 1 || !strings.HasPrefix(r.problems[0].message, "not checked: internal error: ") || r.problems[0].Path != path {
		t.Errorf("problems %+v, want one internal error on %s", r.problems, path)
	}
}
