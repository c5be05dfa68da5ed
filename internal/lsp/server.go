// Package lsp is `pecanvet lsp`: a language server, beside gopls, that
// publishes pecanvet's findings as diagnostics.
//
// gopls cannot load third-party analyzers (golang/go#59869), so an editor
// runs this as a second server for Go files, over standard input and
// output.
//
// On open and save of a Go file it checks the file's package in two
// phases, each a `go vet -vettool=pecanvet -json` run in the package's
// directory (so the go command's build cache and the vet protocol do the
// loading): first the static candidates (-pecan.replay=false), published
// at once with severity Information and marked unconfirmed in their text;
// then the dynamic check — record the tests, predict, replay — whose
// reproduced findings replace them with severity Warning, each with the
// replayed steps as relatedInformation, one entry per step. A change to
// a package's file cancels its running check (the go vet process tree is
// killed); results are cached by the content of the package and of the
// packages it imports from its module, so saving unchanged code answers at
// once. Progress goes through window/workDoneProgress when the client
// supports it. A file outside any module gets no diagnostics and a log
// message. Malformed or out-of-order messages get error responses.
//
// Files are analyzed as saved on disk: unsaved edits are not seen.
//
// Besides the standard library it uses only dynamic/trace (positions);
// the JSON-RPC framing is in jsonrpc.go.
package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Options configure the server.
type Options struct {
	// Tool is the pecanvet binary go vet runs as its vet tool.
	Tool string
	// VetFlags are added to both go vet runs (e.g. -pecan.budget=2m).
	VetFlags []string
	// Static stops after the static phase: no tests are built or run.
	Static bool
	// Log receives the server's own trace (standard error); nil discards.
	Log io.Writer
}

// Serve runs the server on in and out until the exit notification or the
// end of input, and returns the process's exit status: 0 after shutdown
// then exit, 1 otherwise (as LSP specifies).
func Serve(in io.Reader, out io.Writer, opt Options) int {
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{
		opt:       opt,
		out:       out,
		ctx:       ctx,
		cancelAll: cancel,
		runs:      map[string]*run{},
		cache:     map[string][]vetDiag{},
		published: map[string]map[string]bool{},
		pending:   map[string]chan *message{},
		sem:       make(chan struct{}, 1),
	}
	defer s.stop()
	r := bufio.NewReader(in)
	for {
		body, err := readMessage(r)
		if err != nil {
			if errorsIsHeader(err) {
				s.replyError(nil, codeParseError, err.Error())
				continue
			}
			if err != io.EOF {
				fmt.Fprintf(opt.Log, "pecanvet lsp: reading: %v\n", err)
			}
			return 1 // input ended without exit
		}
		if code, exit := s.handle(body); exit {
			return code
		}
	}
}

func errorsIsHeader(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), errHeader.Error())
}

// server is the state of one session.
type server struct {
	opt Options

	wmu sync.Mutex // serializes writes to out
	out io.Writer

	ctx       context.Context // cancelled at shutdown
	cancelAll context.CancelFunc
	wg        sync.WaitGroup // running checks

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	progress    bool                       // the client takes window/workDoneProgress
	runs        map[string]*run            // package directory → its running check
	cache       map[string][]vetDiag       // phase, directory and content hash → diagnostics
	published   map[string]map[string]bool // package directory → URIs published to
	pending     map[string]chan *message   // our requests' ids → their responses
	nextID      int

	sem chan struct{} // one go vet at a time: the checks share the machine with the editor
}

// run is one check of a package.
type run struct {
	ctx    context.Context
	cancel context.CancelFunc
	token  string // its progress token, "" without progress
}

// handle processes one message body; exit reports the exit notification.
func (s *server) handle(body []byte) (code int, exit bool) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		s.replyError(nil, codeParseError, "malformed message: "+err.Error())
		return 0, false
	}
	defer func() {
		// A handler's panic is a bug; it must not end the session.
		if p := recover(); p != nil {
			fmt.Fprintf(s.opt.Log, "pecanvet lsp: %s: panic: %v\n%s", m.Method, p, debug.Stack())
			if m.hasID() {
				s.replyError(m.ID, codeInternalError, fmt.Sprintf("internal error: %v", p))
			}
		}
	}()
	if m.JSONRPC != "2.0" {
		s.replyError(idOrNull(&m), codeInvalidRequest, `not a JSON-RPC 2.0 message ("jsonrpc": "2.0" missing)`)
		return 0, false
	}
	if m.Method == "" {
		if m.hasID() && (m.Result != nil || m.Error != nil) {
			s.deliver(&m) // a response to one of our requests
			return 0, false
		}
		s.replyError(idOrNull(&m), codeInvalidRequest, "a message needs a method, or an id and a result or error")
		return 0, false
	}
	if m.Method == "exit" {
		s.mu.Lock()
		down := s.shutdown
		s.mu.Unlock()
		if down {
			return 0, true
		}
		return 1, true
	}
	s.mu.Lock()
	initialized, down := s.initialized, s.shutdown
	s.mu.Unlock()
	isRequest := m.hasID()
	switch {
	case down:
		if isRequest {
			s.replyError(m.ID, codeInvalidRequest, "shutdown was requested: only exit is accepted")
		}
		return 0, false
	case !initialized && m.Method != "initialize":
		if isRequest {
			s.replyError(m.ID, codeServerNotInitialized, "the server is not initialized: send initialize first")
		}
		return 0, false
	}
	if isRequest {
		s.request(&m)
	} else {
		s.notification(&m)
	}
	return 0, false
}

func idOrNull(m *message) json.RawMessage {
	if m.hasID() {
		return m.ID
	}
	return nil
}

func (s *server) request(m *message) {
	switch m.Method {
	case "initialize":
		var p struct {
			Capabilities struct {
				Window struct {
					WorkDoneProgress bool `json:"workDoneProgress"`
				} `json:"window"`
			} `json:"capabilities"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			s.replyError(m.ID, codeInvalidParams, "initialize: "+err.Error())
			return
		}
		s.mu.Lock()
		again := s.initialized
		s.initialized = true
		s.progress = p.Capabilities.Window.WorkDoneProgress
		s.mu.Unlock()
		if again {
			s.replyError(m.ID, codeInvalidRequest, "initialize was already sent")
			return
		}
		s.reply(m.ID, map[string]any{
			"capabilities": map[string]any{
				"textDocumentSync": map[string]any{
					"openClose": true,
					"change":    2, // incremental: a change only cancels a check
					"save":      map[string]any{"includeText": false},
				},
				"codeActionProvider":     true,
				"executeCommandProvider": map[string]any{"commands": []string{showInterleaving}},
			},
			"serverInfo": map[string]any{"name": "pecanvet"},
		})
	case "shutdown":
		s.stop()
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.reply(m.ID, nil)
	case "textDocument/codeAction":
		s.codeAction(m)
	case "workspace/executeCommand":
		var p struct {
			Command   string `json:"command"`
			Arguments []any  `json:"arguments"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil || p.Command != showInterleaving || len(p.Arguments) != 1 {
			s.replyError(m.ID, codeInvalidParams, fmt.Sprintf("workspace/executeCommand: want %s with one argument: %s", showInterleaving, string(m.Params)))
			return
		}
		text, ok := p.Arguments[0].(string)
		if !ok {
			s.replyError(m.ID, codeInvalidParams, showInterleaving+": the argument is not a string")
			return
		}
		s.notify("window/showMessage", map[string]any{"type": msgInfo, "message": text})
		s.reply(m.ID, nil)
	default:
		s.replyError(m.ID, codeMethodNotFound, "method not supported: "+m.Method)
	}
}

// showInterleaving is the command of the "Show interleaving" code action:
// it shows a finding's clip, step by step, as a message (for editors that
// do not list related information).
const showInterleaving = "pecanvet.showInterleaving"

// codeAction offers "Show interleaving" for each of pecanvet's diagnostics
// with a clip among those the client sends in the request's context.
func (s *server) codeAction(m *message) {
	var p struct {
		Context struct {
			Diagnostics []struct {
				Source             string `json:"source"`
				Message            string `json:"message"`
				RelatedInformation []struct {
					Location struct {
						URI   string `json:"uri"`
						Range struct {
							Start struct {
								Line int `json:"line"`
							} `json:"start"`
						} `json:"range"`
					} `json:"location"`
					Message string `json:"message"`
				} `json:"relatedInformation"`
			} `json:"diagnostics"`
		} `json:"context"`
	}
	if err := json.Unmarshal(m.Params, &p); err != nil {
		s.replyError(m.ID, codeInvalidParams, "textDocument/codeAction: "+err.Error())
		return
	}
	actions := []any{}
	for _, d := range p.Context.Diagnostics {
		if d.Source != "pecanvet" || len(d.RelatedInformation) == 0 {
			continue
		}
		var b strings.Builder
		b.WriteString(d.Message)
		for _, ri := range d.RelatedInformation {
			site := trace.Site{Path: ri.Location.URI, Line: ri.Location.Range.Start.Line + 1}
			if path, err := uriPath(site.Path); err == nil {
				site.Path = path
			}
			fmt.Fprintf(&b, "\n%s (%s)", ri.Message, site.Short())
		}
		actions = append(actions, map[string]any{
			"title":   "Show interleaving",
			"kind":    "quickfix",
			"command": map[string]any{"title": "Show interleaving", "command": showInterleaving, "arguments": []string{b.String()}},
		})
	}
	s.reply(m.ID, actions)
}

func (s *server) notification(m *message) {
	switch m.Method {
	case "textDocument/didOpen", "textDocument/didSave", "textDocument/didChange", "textDocument/didClose":
		var p struct {
			TextDocument struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil || p.TextDocument.URI == "" {
			s.logMessage(msgError, fmt.Sprintf("pecanvet: %s without textDocument.uri: %s", m.Method, string(m.Params)))
			return
		}
		path, err := uriPath(p.TextDocument.URI)
		if err != nil {
			s.logMessage(msgError, "pecanvet: "+err.Error())
			return
		}
		if !strings.HasSuffix(path, ".go") {
			return
		}
		switch m.Method {
		case "textDocument/didOpen", "textDocument/didSave":
			s.check(p.TextDocument.URI, path)
		case "textDocument/didChange":
			s.cancelRun(filepath.Dir(path)) // superseded: its result would be stale
		}
	case "window/workDoneProgress/cancel":
		var p struct {
			Token json.RawMessage `json:"token"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			s.mu.Lock()
			for _, r := range s.runs {
				if r.token != "" && strconv.Quote(r.token) == string(p.Token) {
					r.cancel()
				}
			}
			s.mu.Unlock()
		}
	}
	// Other notifications (initialized, $/cancelRequest, $/setTrace,
	// workspace/didChangeConfiguration, …) need nothing.
}

// stop cancels every check and waits for them (shutdown, exit, end of
// input).
func (s *server) stop() {
	s.cancelAll()
	s.wg.Wait()
}

// cancelRun cancels the running check of the package in dir, if any.
func (s *server) cancelRun(dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.runs[dir]; r != nil {
		r.cancel()
		delete(s.runs, dir)
	}
}

// check starts a check of the package holding path, cancelling the one
// running for it.
func (s *server) check(uri, path string) {
	dir := filepath.Dir(path)
	root := findUp(dir, "go.mod")
	if root == "" {
		s.logMessage(msgInfo, fmt.Sprintf("pecanvet: %s is outside any Go module (no go.mod in its directory or above): no diagnostics", path))
		s.publishFile(uri, nil)
		return
	}
	s.mu.Lock()
	if r := s.runs[dir]; r != nil {
		r.cancel()
	}
	ctx, cancel := context.WithCancel(s.ctx)
	r := &run{ctx: ctx, cancel: cancel}
	if s.progress {
		s.nextID++
		r.token = "pecanvet-" + strconv.Itoa(s.nextID)
	}
	s.runs[dir] = r
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer func() {
			s.mu.Lock()
			if s.runs[dir] == r {
				delete(s.runs, dir)
			}
			s.mu.Unlock()
			cancel()
		}()
		s.analyze(r, uri, dir, root)
	}()
}

// analyze runs the two phases for the package in dir.
func (s *server) analyze(r *run, uri, dir, root string) {
	ctx := r.ctx
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		rel = dir
	}
	s.beginProgress(r, "checking "+filepath.ToSlash(rel))
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-ctx.Done():
		s.endProgress(r, "cancelled")
		return
	}
	hash, err := contentHash(root, dir)
	if err != nil {
		s.endProgress(r, "failed")
		s.logMessage(msgWarning, fmt.Sprintf("pecanvet: %s: %v", dir, err))
		return
	}
	diags, cached, err := s.vet(ctx, dir, hash, true)
	if ctx.Err() != nil {
		s.endProgress(r, "cancelled")
		return
	}
	if err != nil {
		s.logMessage(msgWarning, fmt.Sprintf("pecanvet: static check of %s: %v", dir, err))
	} else {
		s.publish(r, uri, dir, diags, severityInformation)
	}
	if s.opt.Static {
		s.endProgress(r, fmt.Sprintf("%d unconfirmed%s", len(diags), cachedNote(cached)))
		return
	}
	s.reportProgress(r, fmt.Sprintf("%d unconfirmed; recording and replaying the tests", len(diags)))
	diags, dcached, err := s.vet(ctx, dir, hash, false)
	if ctx.Err() != nil {
		s.endProgress(r, "cancelled")
		return
	}
	if err != nil {
		s.endProgress(r, "dynamic check failed")
		s.logMessage(msgWarning, fmt.Sprintf("pecanvet: dynamic check of %s: %v", dir, err))
		return
	}
	s.publish(r, uri, dir, diags, severityWarning)
	s.endProgress(r, fmt.Sprintf("%d reproduced%s", len(diags), cachedNote(cached && dcached)))
}

func cachedNote(cached bool) string {
	if cached {
		return " (cached)"
	}
	return ""
}

// LSP constants.
const (
	severityWarning     = 2
	severityInformation = 3

	msgError   = 1
	msgWarning = 2
	msgInfo    = 3
)

// publish replaces the package's diagnostics, unless the run was
// cancelled (a newer one owns the package): every file with findings, the
// file that asked, and the files that had findings before (cleared).
func (s *server) publish(r *run, uri, dir string, diags []vetDiag, severity int) {
	byURI := map[string][]any{}
	lines := lineCache{}
	for _, d := range diags {
		u, rng, ok := location(d.Posn, lines)
		if !ok {
			continue
		}
		ld := map[string]any{
			"range":    rng,
			"severity": severity,
			"source":   "pecanvet",
			"message":  d.Message,
		}
		if d.Category != "" {
			ld["code"] = d.Category
		}
		var rel []any
		for _, ri := range d.Related {
			ru, rr, ok := location(ri.Posn, lines)
			if !ok {
				continue
			}
			rel = append(rel, map[string]any{"location": map[string]any{"uri": ru, "range": rr}, "message": ri.Message})
		}
		if len(rel) > 0 {
			ld["relatedInformation"] = rel
		}
		byURI[u] = append(byURI[u], ld)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.ctx.Err() != nil {
		return // cancelled while converting: the newer run publishes
	}
	old := s.published[dir]
	now := map[string]bool{}
	for u := range byURI {
		now[u] = true
	}
	now[uri] = true
	for u := range old {
		now[u] = true
	}
	next := map[string]bool{}
	for u := range now {
		ds := byURI[u]
		if ds == nil {
			ds = []any{}
		} else {
			next[u] = true
		}
		s.notify("textDocument/publishDiagnostics", map[string]any{"uri": u, "diagnostics": ds})
	}
	s.published[dir] = next
}

// publishFile publishes one file's diagnostics.
func (s *server) publishFile(uri string, ds []any) {
	if ds == nil {
		ds = []any{}
	}
	s.notify("textDocument/publishDiagnostics", map[string]any{"uri": uri, "diagnostics": ds})
}

// beginProgress creates the run's progress token and reports its start.
// It waits briefly for the client's answer to the create request, as the
// protocol asks, and goes on without progress if none comes.
func (s *server) beginProgress(r *run, msg string) {
	if r.token == "" {
		return
	}
	resp := s.call("window/workDoneProgress/create", map[string]any{"token": r.token})
	select {
	case m := <-resp:
		if m.Error != nil {
			r.token = ""
			return
		}
	case <-time.After(5 * time.Second):
		r.token = ""
		return
	case <-r.ctx.Done():
	}
	s.notify("$/progress", map[string]any{"token": r.token, "value": map[string]any{
		"kind": "begin", "title": "pecanvet", "message": msg, "cancellable": true,
	}})
}

func (s *server) reportProgress(r *run, msg string) {
	if r.token != "" {
		s.notify("$/progress", map[string]any{"token": r.token, "value": map[string]any{"kind": "report", "message": msg}})
	}
}

func (s *server) endProgress(r *run, msg string) {
	if r.token != "" {
		s.notify("$/progress", map[string]any{"token": r.token, "value": map[string]any{"kind": "end", "message": msg}})
	}
}

// call sends a request to the client; its response arrives on the channel.
func (s *server) call(method string, params any) chan *message {
	ch := make(chan *message, 1)
	s.mu.Lock()
	s.nextID++
	id := "pecanvet-req-" + strconv.Itoa(s.nextID)
	s.pending[strconv.Quote(id)] = ch
	s.mu.Unlock()
	s.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return ch
}

// deliver hands a client's response to the request waiting for it.
func (s *server) deliver(m *message) {
	s.mu.Lock()
	ch := s.pending[string(m.ID)]
	delete(s.pending, string(m.ID))
	s.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}

func (s *server) logMessage(typ int, msg string) {
	fmt.Fprintln(s.opt.Log, msg)
	s.notify("window/logMessage", map[string]any{"type": typ, "message": msg})
}

func (s *server) notify(method string, params any) {
	s.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

func (s *server) reply(id json.RawMessage, result any) {
	s.write(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (s *server) replyError(id json.RawMessage, code int, msg string) {
	var idv any = id
	if id == nil {
		idv = nil // null: the id could not be read
	}
	s.write(map[string]any{"jsonrpc": "2.0", "id": idv, "error": rpcError{Code: code, Message: msg}})
}

func (s *server) write(v any) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := writeMessage(s.out, v); err != nil {
		fmt.Fprintf(s.opt.Log, "pecanvet lsp: writing: %v\n", err)
	}
}

// uriPath is the file path of a file: URI.
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", fmt.Errorf("%q is not a file: URI", uri)
	}
	return filepath.FromSlash(u.Path), nil
}

// pathURI is the file: URI of an absolute path.
func pathURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// findUp returns the nearest directory from dir upwards holding name, or "".
func findUp(dir, name string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
