package driver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/static/load"
)

// TestSetupLeavesOutLeakChecks: a test's deferred check of the process's
// goroutines (cmux's `defer leakCheck(t)()`, a runtime.Stack snapshot
// polled for 5 s; a t.Cleanup of a literal calling one that reads
// runtime.NumGoroutine through a helper) is left out of the driver's cleanup, and said so: in
// a driver it sees the driver's own goroutines, and in cmux's replays it
// waited out the driver's 5 s bound of each case, which made every
// driver replay diverge, and failed one. A deferred helper handed what
// the test built (a server) ends it too, and stays, as do the
// receiver's Close, a literal that does something else and a method
// (Drain) that waits for the goroutines before it ends its server.
func TestSetupLeavesOutLeakChecks(t *testing.T) {
	for name, want := range map[string]bool{"goleak": true, "leaktest": true, "leakcheck": true, "leakybucket": false, "leak": true, "noleak": false} {
		if leakPackage.MatchString(name) != want {
			t.Errorf("leakPackage(%q) = %v", name, !want)
		}
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module lc\n\ngo 1.22\n",
		"mux.go": `package lc

import (
	"runtime"
	"sync"
	"time"
)

type Mux struct {
	mu sync.Mutex
	d  time.Duration
}

func New() *Mux { return &Mux{} }

func (m *Mux) SetReadTimeout(d time.Duration) { m.d = d }
func (m *Mux) Close()                         { m.mu.Lock(); m.mu.Unlock() }

type Server struct{ open bool }

func (s *Server) Stop() { s.open = false }

// Drain waits for the server's goroutines: a method, it ends the server.
func (s *Server) Drain() {
	for runtime.NumGoroutine() > 100 {
	}
	s.open = false
}
`,
		"mux_test.go": `package lc

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

func interesting() []string {
	buf := make([]byte, 1<<20)
	return strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n")
}

func leakCheck(t testing.TB) func() {
	orig := interesting()
	return func() {
		if len(interesting()) > len(orig) {
			t.Errorf("leaked")
		}
	}
}

func count() int { return runtime.NumGoroutine() }

func settle(t *testing.T) {
	if count() > 100 {
		t.Errorf("too many goroutines")
	}
}

func stopAll(t *testing.T, s *Server) {
	s.Stop()
	if runtime.NumGoroutine() > 100 {
		t.Errorf("too many goroutines")
	}
}

func TestTimeout(t *testing.T) {
	srv := &Server{open: true}
	defer leakCheck(t)()
	t.Cleanup(func() { settle(t) })
	t.Cleanup(func() { settle(t); srv.Stop() })
	defer stopAll(t, srv)
	defer srv.Drain()
	m := New()
	defer m.Close()
	m.SetReadTimeout(time.Second)
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := load.Load(context.Background(), dir, []string{"."}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Generate(context.Background(), pkgs)
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, b := range res.Files {
		src = string(b)
	}
	i := strings.Index(src, "func TestPecanvetDriver_Mux_SetReadTimeout_SetReadTimeout(")
	if i < 0 {
		t.Fatalf("no SetReadTimeout driver (notes %q):\n%s", res.Notes, src)
	}
	d := src[i:]
	d = d[:strings.Index(d, "\n}\n")]
	for _, gone := range []string{"leakCheck(t)", "settle(t) })"} {
		if strings.Contains(d, gone) {
			t.Errorf("the driver copies the leak check %s:\n%s", gone, d)
		}
	}
	for _, kept := range []string{"stopAll(t, srv)", "srv.Drain()", "m.Close()", "settle(t); srv.Stop()", "// Left out: line 41, 42, a check of the process's goroutines"} {
		if !strings.Contains(d, kept) {
			t.Errorf("the driver lacks %q:\n%s", kept, d)
		}
	}
}
