package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// frame writes JSON-RPC messages with LSP's Content-Length headers.
func frame(msgs ...string) string {
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	return b.String()
}

// TestServerCommand: `cudaforklint server` speaks LSP on standard input
// and output; its exit status is 0 after shutdown and exit, 1 without the
// shutdown, 2 for bad arguments.
func TestServerCommand(t *testing.T) {
	const (
		initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`
		shutdown   = `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`
		exit       = `{"jsonrpc":"2.0","method":"exit"}`
	)
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout []string
		stderr string
	}{
		{"session", nil, frame(initialize, shutdown, exit), ExitClean,
			[]string{`"id":1`, `"serverInfo":{"name":"cudaforklint"`, `"positionEncoding":"utf-16"`, `"id":2,"result":null`}, ""},
		{"--stdio", []string{"--stdio"}, frame(initialize, shutdown, exit), ExitClean, []string{`"id":2`}, ""},
		{"exit without shutdown", nil, frame(initialize, exit), ExitFindings, []string{`"id":1`}, ""},
		{"end of input without shutdown", nil, frame(initialize), ExitFindings, []string{`"id":1`}, ""},
		// A message that cannot be read is answered and skipped: a body
		// that is not JSON, a Content-Length shorter than the body (its
		// rest shares a line with the next header), a header without
		// Content-Length, JSON that is no message.
		{"malformed body", nil, frame(initialize, `{"jsonrpc":"2.0","id":5,"method":`, shutdown, exit), ExitClean,
			[]string{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,`, `"id":2,"result":null`}, "discarded a message: Parse error"},
		{"short Content-Length", nil, frame(initialize) + "Content-Length: 20\r\n\r\n" + `{"jsonrpc":"2.0","id":7,"method":"shutdown"}` + frame(shutdown, exit), ExitClean,
			[]string{`"id":null,"error":{"code":-32700,`, `"id":2,"result":null`}, ""},
		{"no Content-Length", nil, frame(initialize) + "Content-Type: x\r\n\r\n" + frame(shutdown, exit), ExitClean,
			[]string{`"id":null,"error":{"code":-32700,`, `"id":2,"result":null`}, ""},
		{"not a message", nil, frame(initialize, `{"id":4}`, `[]`, shutdown, exit), ExitClean,
			[]string{`"id":null,"error":{"code":-32600,`, `"id":2,"result":null`}, ""},
		{"argument", []string{"x.py"}, "", ExitError, nil, `unexpected argument "x.py"`},
		{"bad flag", []string{"--port", "3"}, "", ExitError, nil, "flag provided but not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(append([]string{"server"}, tc.args...), strings.NewReader(tc.stdin), &out, &errb)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, errb.String())
			}
			for _, s := range tc.stdout {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout %q lacks %q", out.String(), s)
				}
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", errb.String(), tc.stderr)
			}
		})
	}
}
