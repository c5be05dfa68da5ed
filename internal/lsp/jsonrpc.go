package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// JSON-RPC 2.0 and LSP error codes.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
)

// maxBody bounds a message's Content-Length: a larger one is refused
// rather than allocated.
const maxBody = 64 << 20

// message is any JSON-RPC message: a request (method and id), a
// notification (method, no id) or a response (id, result or error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// hasID reports whether m carries an id (null counts as none).
func (m *message) hasID() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

// errHeader is a framing error the reader recovers from: the message is
// answered with a parse error and reading goes on with the next header.
var errHeader = errors.New("bad message header")

// readMessage reads one framed message body: headers up to an empty line,
// of which Content-Length is required, then that many bytes. It returns
// io.EOF at the end of input, and an error wrapping errHeader for a
// message without a usable Content-Length (its headers are consumed).
func readMessage(r *bufio.Reader) ([]byte, error) {
	length := -1
	var bad string
	sawHeader := false
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if err == io.EOF && !sawHeader && line == "" {
				return nil, io.EOF
			}
			if err == io.EOF {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader {
				continue // stray blank line between messages
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Sprintf("header line %q has no colon", line)
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxBody {
				bad = fmt.Sprintf("Content-Length %q is not a length up to %d", strings.TrimSpace(value), maxBody)
				continue
			}
			length = n
		}
	}
	if bad != "" || length < 0 {
		if bad == "" {
			bad = "no Content-Length header"
		}
		return nil, fmt.Errorf("%w: %s", errHeader, bad)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// writeMessage frames and writes one message.
func writeMessage(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", len(b)); err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
