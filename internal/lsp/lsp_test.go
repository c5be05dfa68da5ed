package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// client is a scripted LSP client: it sends what a test tells it, answers
// the server's progress-token requests, and keeps every message it gets.
type client struct {
	t      *testing.T
	wmu    sync.Mutex
	w      io.Writer
	in     chan *message
	seen   []*message
	nextID int
}

func newClient(t *testing.T, r io.Reader, w io.Writer) *client {
	c := &client{t: t, w: w, in: make(chan *message, 1000)}
	go func() {
		defer close(c.in)
		br := bufio.NewReader(r)
		for {
			body, err := readMessage(br)
			if err != nil {
				return
			}
			m := new(message)
			if err := json.Unmarshal(body, m); err != nil {
				t.Errorf("server sent malformed JSON: %v: %s", err, body)
				return
			}
			if m.Method == "window/workDoneProgress/create" && m.hasID() {
				c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
			}
			c.in <- m
		}
	}()
	return c
}

func (c *client) send(v any) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := writeMessage(c.w, v); err != nil {
		c.t.Errorf("writing to the server: %v", err)
	}
}

// raw sends a body as is, framed.
func (c *client) raw(body string) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

func (c *client) request(method string, params any) json.RawMessage {
	c.nextID++
	id := json.RawMessage(fmt.Sprint(c.nextID))
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id
}

func (c *client) notify(method string, params any) {
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// await reads messages until one satisfies ok.
func (c *client) await(what string, timeout time.Duration, ok func(*message) bool) *message {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case m, open := <-c.in:
			if !open {
				c.t.Fatalf("waiting for %s: the server closed its output", what)
			}
			c.seen = append(c.seen, m)
			if ok(m) {
				return m
			}
		case <-deadline:
			c.t.Fatalf("no %s within %v", what, timeout)
		}
	}
}

func (c *client) response(id json.RawMessage) *message {
	c.t.Helper()
	return c.await("response to "+string(id), time.Minute, func(m *message) bool {
		return m.Method == "" && string(m.ID) == string(id)
	})
}

// progress is a $/progress notification's value.
type progress struct {
	Token string `json:"token"`
	Value struct {
		Kind, Message string
	} `json:"value"`
}

func progressOf(m *message) (progress, bool) {
	var p progress
	if m.Method != "$/progress" || json.Unmarshal(m.Params, &p) != nil {
		return p, false
	}
	return p, true
}

// checkRun waits for the next check to end and returns its token and end
// message.
func (c *client) checkRun(timeout time.Duration) (token, end string) {
	c.t.Helper()
	m := c.await("progress begin", timeout, func(m *message) bool {
		p, ok := progressOf(m)
		return ok && p.Value.Kind == "begin"
	})
	p, _ := progressOf(m)
	token = p.Token
	m = c.await("progress end", timeout, func(m *message) bool {
		p, ok := progressOf(m)
		return ok && p.Token == token && p.Value.Kind == "end"
	})
	p, _ = progressOf(m)
	return token, p.Value.Message
}

type diagnostic struct {
	Severity           int
	Message            string
	Code               string
	RelatedInformation []struct {
		Location struct{ URI string }
		Message  string
	}
}

// publishes returns the diagnostics published for uri since message from,
// in order.
func (c *client) publishes(uri string, from int) [][]diagnostic {
	var out [][]diagnostic
	for _, m := range c.seen[from:] {
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string
			Diagnostics []diagnostic
		}
		if json.Unmarshal(m.Params, &p) == nil && p.URI == uri {
			out = append(out, p.Diagnostics)
		}
	}
	return out
}

// pecanvet is built once for the tests that run it.
var (
	buildOnce sync.Once
	binDir    string
	bin       string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func buildPecanvet(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "pecanvet-lsp-test"); buildErr != nil {
			return
		}
		bin = filepath.Join(binDir, "pecanvet")
		if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/pecanvet").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bin
}

func copySubject(t *testing.T, name, dst string) {
	t.Helper()
	src := filepath.Join("testdata/subjects", name)
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dst, name), 0o755)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSession drives `pecanvet lsp` over its standard input and output as
// an editor would: initialize; open a buggy subject (static candidates
// first, then the reproduced race with its clip as related information,
// and progress); save it unchanged (answered from the cache); open its
// fixed twin and change it at once (the check is cancelled), then save it
// (no diagnostics); open a file outside any module (none, and a log
// message); shutdown and exit (status 0).
func TestSession(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pecanvet and records and replays a subject's tests")
	}
	bin := buildPecanvet(t)
	mod := t.TempDir()
	copySubject(t, "doubleclose", mod)
	copySubject(t, "doubleclosefixed", mod)
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module subjects\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(bin, "lsp")
	cmd.Dir = mod
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	c := newClient(t, stdout, stdin)
	const long = 3 * time.Minute // a loaded CI machine

	id := c.request("initialize", map[string]any{
		"processId": nil, "rootUri": pathURI(mod),
		"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}},
	})
	r := c.response(id)
	var init struct {
		Capabilities struct {
			TextDocumentSync struct {
				OpenClose bool
				Change    int
			}
		}
	}
	if r.Error != nil || json.Unmarshal(r.Result, &init) != nil || !init.Capabilities.TextDocumentSync.OpenClose {
		t.Fatalf("initialize: %s %v", r.Result, r.Error)
	}
	c.notify("initialized", map[string]any{})

	open := func(path string) string {
		b, _ := os.ReadFile(path)
		uri := pathURI(path)
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": uri, "languageId": "go", "version": 1, "text": string(b)}})
		return uri
	}

	// The buggy subject.
	bug := filepath.Join(mod, "doubleclose", "server.go")
	from := len(c.seen)
	uri := open(bug)
	_, end := c.checkRun(long)
	pubs := c.publishes(uri, from)
	if len(pubs) != 2 {
		t.Fatalf("%d publications for %s, want 2 (static, then dynamic); progress ended %q; stderr:\n%s", len(pubs), uri, end, stderr.String())
	}
	for _, d := range pubs[0] {
		if d.Severity != severityInformation || !strings.Contains(d.Message, "not confirmed") {
			t.Errorf("static phase: severity %d %q, want information, unconfirmed", d.Severity, d.Message)
		}
	}
	if len(pubs[0]) == 0 {
		t.Errorf("static phase: no candidates")
	}
	final := pubs[1]
	if len(final) != 1 {
		t.Fatalf("dynamic phase: %d diagnostics, want 1: %+v", len(final), final)
	}
	d := final[0]
	if d.Severity != severityWarning || !strings.HasPrefix(d.Message, "data race on Server.stopped") || !strings.Contains(d.Message, "; reproduced") || d.Code != "race" {
		t.Errorf("dynamic phase: %+v", d)
	}
	inTest := 0
	for _, ri := range d.RelatedInformation {
		if !strings.HasPrefix(ri.Message, "step ") {
			t.Errorf("related information %q, want a step of the clip", ri.Message)
		}
		if strings.HasSuffix(ri.Location.URI, "/server_test.go") {
			inTest++
		}
	}
	if len(d.RelatedInformation) < 3 || inTest == 0 {
		t.Errorf("related information: %+v, want the clip's steps, some in server_test.go", d.RelatedInformation)
	}
	if !strings.Contains(end, "1 reproduced") {
		t.Errorf("progress ended %q", end)
	}
	t.Logf("buggy subject: %d static candidates, then %q with %d related entries; progress ended %q", len(pubs[0]), d.Message, len(d.RelatedInformation), end)

	// The code action shows the clip.
	var raw []json.RawMessage
	for _, m := range c.seen {
		var p struct {
			URI         string
			Diagnostics []json.RawMessage
		}
		if m.Method == "textDocument/publishDiagnostics" && json.Unmarshal(m.Params, &p) == nil && p.URI == uri {
			raw = p.Diagnostics
		}
	}
	r = c.response(c.request("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": uri},
		"range":        map[string]any{"start": map[string]any{"line": 16, "character": 0}, "end": map[string]any{"line": 16, "character": 0}},
		"context":      map[string]any{"diagnostics": raw},
	}))
	var actions []struct {
		Title   string
		Command struct {
			Command   string
			Arguments []any
		}
	}
	if r.Error != nil || json.Unmarshal(r.Result, &actions) != nil || len(actions) != 1 || actions[0].Title != "Show interleaving" {
		t.Fatalf("code actions: %s %v", r.Result, r.Error)
	}
	r = c.response(c.request("workspace/executeCommand", map[string]any{"command": actions[0].Command.Command, "arguments": actions[0].Command.Arguments}))
	// The notification comes before the response: the response's wait saw it.
	var shown *message
	for _, m := range c.seen {
		if m.Method == "window/showMessage" {
			shown = m
		}
	}
	if shown == nil {
		t.Fatal("Show interleaving showed nothing")
	}
	if r.Error != nil || !strings.Contains(string(shown.Params), "step 1: ") || !strings.Contains(string(shown.Params), "server_test.go:") {
		t.Errorf("Show interleaving: %v; shown %s", r.Error, shown.Params)
	}

	// Saved unchanged: the cache answers, with the same findings.
	from = len(c.seen)
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	_, end = c.checkRun(long)
	if pubs := c.publishes(uri, from); len(pubs) != 2 || len(pubs[1]) != 1 || pubs[1][0].Message != d.Message {
		t.Errorf("after save: %+v", pubs)
	}
	if !strings.Contains(end, "cached") {
		t.Errorf("after an unchanged save, progress ended %q, want the cache to answer", end)
	}

	// The fixed twin: a change right after opening cancels that check; the
	// save checks again and finds nothing.
	fixed := filepath.Join(mod, "doubleclosefixed", "server.go")
	furi := open(fixed)
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": furi, "version": 2},
		"contentChanges": []any{map[string]any{"text": "package doubleclosefixed\n"}},
	})
	if _, end := c.checkRun(long); end != "cancelled" {
		t.Errorf("check of a changed file ended %q, want cancelled", end)
	}
	from = len(c.seen)
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": furi}})
	_, end = c.checkRun(long)
	pubs = c.publishes(furi, from)
	if len(pubs) == 0 || len(pubs[len(pubs)-1]) != 0 {
		t.Errorf("fixed twin: publications %+v, want none at the end (progress ended %q)", pubs, end)
	}
	if !strings.Contains(end, "0 reproduced") {
		t.Errorf("fixed twin: progress ended %q", end)
	}
	t.Logf("fixed twin: publications %v; progress ended %q", pubs, end)

	// A file outside any module.
	loose := filepath.Join(t.TempDir(), "loose.go")
	os.WriteFile(loose, []byte("package loose\n"), 0o644)
	if findUp(filepath.Dir(loose), "go.mod") == "" {
		from = len(c.seen)
		luri := open(loose)
		c.await("log message", long, func(m *message) bool {
			return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "outside any Go module")
		})
		c.await("publication for the loose file", long, func(m *message) bool {
			return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), luri)
		})
		if pubs := c.publishes(luri, from); len(pubs) != 1 || len(pubs[0]) != 0 {
			t.Errorf("file outside a module: %+v", pubs)
		}
	}

	r = c.response(c.request("shutdown", nil))
	if r.Error != nil || string(r.Result) != "null" {
		t.Errorf("shutdown: result %s, error %v", r.Result, r.Error)
	}
	c.notify("exit", nil)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Errorf("no exit 30s after the exit notification")
	}
}

// serve runs the server in process on pipes and returns a client and the
// server's exit status (when it ends).
func serve(t *testing.T, opt Options) (*client, chan int) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- Serve(inR, outW, opt)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return newClient(t, outR, inW), code
}

// TestBadInput: malformed and out-of-order messages get error responses
// (or, for notifications, a log message), and the server goes on.
func TestBadInput(t *testing.T) {
	c, code := serve(t, Options{Tool: "/nonexistent"})
	wantError := func(what string, id json.RawMessage, want int) {
		t.Helper()
		m := c.await(what, 10*time.Second, func(m *message) bool { return m.Method == "" })
		if m.Error == nil || m.Error.Code != want || string(m.ID) != string(id) {
			t.Errorf("%s: got id %s error %v, want id %s code %d", what, m.ID, m.Error, id, want)
		}
	}
	null := json.RawMessage("null")

	id := c.request("textDocument/hover", map[string]any{})
	wantError("request before initialize", id, codeServerNotInitialized)

	c.raw(`{"jsonrpc": "2.0", "id": 7, "method": `)
	wantError("truncated JSON", null, codeParseError)

	c.wmu.Lock()
	io.WriteString(c.w, "Content-Type: application/json\r\n\r\n")
	io.WriteString(c.w, "Content-Length: many\r\n\r\n")
	c.wmu.Unlock()
	wantError("no Content-Length", null, codeParseError)
	wantError("bad Content-Length", null, codeParseError)

	c.raw(`[{"jsonrpc": "2.0", "id": 8, "method": "shutdown"}]`)
	wantError("a batch", null, codeParseError)

	id = c.request("initialize", map[string]any{"capabilities": map[string]any{}})
	if m := c.response(id); m.Error != nil {
		t.Fatalf("initialize: %v", m.Error)
	}
	id = c.request("initialize", map[string]any{"capabilities": map[string]any{}})
	wantError("second initialize", id, codeInvalidRequest)

	id = c.request("no/such/method", nil)
	wantError("unknown method", id, codeMethodNotFound)

	c.raw(`{"jsonrpc": "1.0", "id": 9, "method": "shutdown"}`)
	wantError("JSON-RPC 1.0", json.RawMessage("9"), codeInvalidRequest)

	c.raw(`{"jsonrpc": "2.0", "id": 10}`)
	wantError("no method, no result", json.RawMessage("10"), codeInvalidRequest)

	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{}})
	c.await("log message for a didOpen without uri", 10*time.Second, func(m *message) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "without textDocument.uri")
	})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "http://example.com/x.go"}})
	c.await("log message for a non-file URI", 10*time.Second, func(m *message) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "not a file: URI")
	})

	id = c.request("shutdown", nil)
	if m := c.response(id); m.Error != nil || string(m.Result) != "null" {
		t.Errorf("shutdown: %s %v", m.Result, m.Error)
	}
	id = c.request("textDocument/hover", map[string]any{})
	wantError("request after shutdown", id, codeInvalidRequest)

	c.notify("exit", nil)
	select {
	case got := <-code:
		if got != 0 {
			t.Errorf("exit after shutdown: status %d, want 0", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no exit")
	}
}

// TestExitWithoutShutdown: exit before shutdown, or the end of input, is
// status 1.
func TestExitWithoutShutdown(t *testing.T) {
	c, code := serve(t, Options{})
	c.notify("exit", nil)
	if got := <-code; got != 1 {
		t.Errorf("exit without shutdown: status %d, want 1", got)
	}
	inR, inW := io.Pipe()
	go func() {
		fmt.Fprintf(inW, "Content-Length: 2\r\n\r\n{}")
		inW.Close()
	}()
	var out bytes.Buffer
	if got := Serve(inR, &out, Options{}); got != 1 {
		t.Errorf("end of input: status %d, want 1", got)
	}
}

// TestLocation: byte columns become UTF-16 characters, and the range
// covers the identifier.
func TestLocation(t *testing.T) {
	f := filepath.Join(t.TempDir(), "x.go")
	os.WriteFile(f, []byte("package x\n\nvar ü, 𝔸bc = 1, 2 // ok\n"), 0o644)
	// "𝔸" starts at byte 8 (col 9): after "var ü, " (4+2+2 bytes), 7
	// UTF-16 units; it takes two of them.
	_, rng, ok := location(f+":3:9", lineCache{})
	if !ok {
		t.Fatal("no location")
	}
	got, _ := json.Marshal(rng)
	if want := `{"end":{"character":11,"line":2},"start":{"character":7,"line":2}}`; string(got) != want {
		t.Errorf("range %s, want %s", got, want)
	}
	if _, _, ok := location("x.go:3", lineCache{}); ok {
		t.Error("a position without a column was accepted")
	}
}

// TestStaticOnly runs the server in process (so that -race sees its
// goroutines) with Static set, as `pecanvet lsp -replay=false`: opening a
// file twice in a row supersedes the first check, and the second
// publishes the static candidates only.
func TestStaticOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pecanvet and runs go vet")
	}
	c, code := serve(t, Options{Tool: buildPecanvet(t), Static: true})
	r := c.response(c.request("initialize", map[string]any{
		"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}},
	}))
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	path, _ := filepath.Abs("testdata/subjects/doubleclose/server.go")
	uri := pathURI(path)
	for range 2 {
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "go", "version": 1, "text": ""}})
	}
	ends := map[string]bool{}
	c.await("a check that ends", 3*time.Minute, func(m *message) bool {
		p, ok := progressOf(m)
		if ok && p.Value.Kind == "end" {
			ends[p.Value.Message] = true
			return p.Value.Message != "cancelled"
		}
		return false
	})
	if !ends["cancelled"] {
		t.Errorf("the first check was not cancelled: ends %v", ends)
	}
	pubs := c.publishes(uri, 0)
	if len(pubs) != 1 || len(pubs[0]) == 0 {
		t.Fatalf("publications %+v, want one, of the static candidates", pubs)
	}
	for _, d := range pubs[0] {
		if d.Severity != severityInformation {
			t.Errorf("static only: %+v", d)
		}
	}
	c.response(c.request("shutdown", nil))
	c.notify("exit", nil)
	if got := <-code; got != 0 {
		t.Errorf("exit status %d", got)
	}
}
