package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"strconv"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/cudaforklint/cudaforklint/server/internal/protocol"
)

// The base protocol's framing: each message is a header (lines ending in
// \r\n, one of them Content-Length), an empty line and a JSON body of that
// many bytes. jsonrpc2's own reader (VSCodeObjectCodec) ends the connection
// on the first message it cannot read: a body that is not JSON, a
// Content-Length shorter than the body (whose rest is then read as the next
// header), a header without Content-Length. JSON-RPC asks for an answer
// instead: a Parse error (-32700) for a body that is not JSON, an Invalid
// Request (-32600) for JSON that is no request or response, both with a
// null id. stream reads the messages itself, answers those, and goes on
// with the next message.

// maxMessage bounds a message's Content-Length: a larger one is taken for a
// corrupt header rather than allocated.
const maxMessage = 1 << 30

// stream is the server's jsonrpc2.ObjectStream: writes go through jsonrpc2's
// buffered stream, reads through readFrame.
type stream struct {
	jsonrpc2.ObjectStream // WriteObject and Close
	r                     *bufio.Reader
	log                   *log.Logger
}

func newStream(conn io.ReadWriteCloser, logger *log.Logger) *stream {
	return &stream{
		ObjectStream: jsonrpc2.NewBufferedStream(conn, jsonrpc2.VSCodeObjectCodec{}),
		r:            bufio.NewReader(conn),
		log:          logger,
	}
}

// errFrame is a message whose header could not be read; the stream goes on
// after it.
var errFrame = errors.New("no valid Content-Length header")

// ReadObject reads the next message that is a JSON-RPC request or response
// into v, answering the others with an error. It returns an error only
// when the input ends or fails.
func (s *stream) ReadObject(v any) error {
	for {
		body, err := s.readFrame()
		var code int
		var msg string
		switch {
		case errors.Is(err, errFrame):
			code, msg = protocol.CodeParseError, "Parse error: "+err.Error()
		case err != nil:
			return err
		case !json.Valid(body):
			code, msg = protocol.CodeParseError, "Parse error: the message is not valid JSON (is its Content-Length right?)"
		default:
			if err := json.Unmarshal(body, v); err != nil {
				code, msg = protocol.CodeInvalidRequest, "Invalid Request: "+err.Error()
			} else {
				return nil
			}
		}
		s.log.Printf("discarded a message: %s", msg)
		null := json.RawMessage("null")
		reply := struct {
			JSONRPC string           `json:"jsonrpc"`
			ID      *json.RawMessage `json:"id"`
			Error   *jsonrpc2.Error  `json:"error"`
		}{"2.0", &null, &jsonrpc2.Error{Code: int64(code), Message: msg}}
		if err := s.WriteObject(reply); err != nil {
			return err
		}
	}
}

// readFrame reads one message's header and body. Header names are matched
// without regard to case, and Content-Length anywhere in a header line:
// after a Content-Length shorter than its body, the body's rest and the
// next header share a line, and the next message is read from there. A
// header without a usable Content-Length is errFrame.
func (s *stream) readFrame() ([]byte, error) {
	length, seen := -1, false
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && (seen || line != "") {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !seen {
				continue // blank lines between messages
			}
			break
		}
		seen = true
		if i := indexFold(line, "content-length:"); i >= 0 {
			n, err := strconv.Atoi(strings.TrimSpace(line[i+len("content-length:"):]))
			if err != nil || n < 0 || n > maxMessage {
				length = -1
				continue
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errFrame
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("reading a message of %d bytes: %w", length, err)
	}
	return bytes.TrimSpace(body), nil
}

// indexFold is the byte offset in s of the first match of the lower-case
// ASCII name, ignoring case, or -1. It searches s itself: a lowered copy of
// a line of arbitrary bytes can differ in length (an invalid byte becomes
// U+FFFD, three bytes; "Ȼ" lowers to a longer rune), and an offset in the
// copy would slice s out of range.
func indexFold(s, name string) int {
	for i := 0; i+len(name) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(name)], name) {
			return i
		}
	}
	return -1
}
