package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"slices"
	"strings"
	"testing"
)

// rwc is a stream over fixed input whose writes are recorded.
type rwc struct {
	io.Reader
	out bytes.Buffer
}

func (c *rwc) Write(p []byte) (int, error) { return c.out.Write(p) }
func (c *rwc) Close() error                { return nil }

// TestStreamSkipsBadMessages: each message the stream cannot read is
// answered with a JSON-RPC error with a null id, and the next message is
// read; the input's end is the only error ReadObject returns. (JSON that is
// no message, answered -32600, needs jsonrpc2's message type:
// cli's TestServerCommand.)
func TestStreamSkipsBadMessages(t *testing.T) {
	good := `{"jsonrpc":"2.0","id":1,"method":"shutdown"}`
	for _, tc := range []struct {
		name, input string
		codes       []int // the errors answered, in order
	}{
		{"good", "Content-Length: 44\r\n\r\n" + good, nil},
		{"header names ignore case, blank lines between messages", "\r\ncontent-length: 44\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + good, nil},
		{"not JSON", "Content-Length: 9\r\n\r\n{\"id\": 1,Content-Length: 44\r\n\r\n" + good, []int{-32700}},
		{"short length", "Content-Length: 10\r\n\r\n" + good + "Content-Length: 44\r\n\r\n" + good, []int{-32700}},
		{"no length", "Content-Type: x\r\n\r\nContent-Length: 44\r\n\r\n" + good, []int{-32700}},
		{"length not a number", "Content-Length: -3\r\n\r\nContent-Length: 44\r\n\r\n" + good, []int{-32700}},
		// Lowering a header line can change its length (an invalid byte
		// becomes U+FFFD, three bytes), so the name is found in the line as
		// read, not in a lowered copy: this input crashed the server.
		{"invalid UTF-8 before the name", "\xff\xff\xff\xff\xffContent-Length: 44\r\n\r\n" + good, nil},
		{"a byte that lowers longer", "\xc8\xbaContent-Length: 44\r\n\r\n" + good, nil},
		{"two in a row", "Content-Length: 3\r\n\r\n{{{Content-Length: 1\r\n\r\n]Content-Length: 44\r\n\r\n" + good, []int{-32700, -32700}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &rwc{Reader: strings.NewReader(tc.input)}
			var logs bytes.Buffer
			s := newStream(c, log.New(&logs, "", 0))
			var m json.RawMessage
			if err := s.ReadObject(&m); err != nil {
				t.Fatalf("ReadObject: %v (log %s)", err, logs.String())
			}
			if string(m) != good {
				t.Errorf("read %s, want %s", m, good)
			}
			if err := s.ReadObject(&m); !errors.Is(err, io.EOF) {
				t.Errorf("at the end: %v, want EOF", err)
			}
			var codes []int
			for _, part := range strings.Split(c.out.String(), "Content-Length: ")[1:] {
				_, body, _ := strings.Cut(part, "\r\n\r\n")
				var reply struct {
					ID    *int `json:"id"`
					Error struct{ Code int }
				}
				if err := json.Unmarshal([]byte(body), &reply); err != nil || reply.ID != nil {
					t.Errorf("reply %q: %v, id %v; want a null id", body, err, reply.ID)
				}
				codes = append(codes, reply.Error.Code)
			}
			if !slices.Equal(codes, tc.codes) {
				t.Errorf("answered %v, want %v", codes, tc.codes)
			}
		})
	}
}

// TestStreamTruncatedInput: input that ends inside a message is an
// unexpected end, not a clean one.
func TestStreamTruncatedInput(t *testing.T) {
	for _, in := range []string{"Content-Length: 44\r\n", "Content-Length: 44\r\n\r\n{\"jsonrpc\""} {
		a, b := net.Pipe()
		go func() { b.Write([]byte(in)); b.Close() }()
		var m json.RawMessage
		if err := newStream(a, log.New(io.Discard, "", 0)).ReadObject(&m); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%q: %v, want an unexpected EOF", in, err)
		}
	}
}
