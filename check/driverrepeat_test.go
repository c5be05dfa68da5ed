package check_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
)

// repeatPortSrc is tally's vendored thrift TServerSocket in small: Open
// checks that it does not listen, binds the fixed address, and stores
// the listener, unlocked; Addr reads the listener. Addr's read between
// Open's check and store is harmless: either order returns the address
// and leaves the socket listening.
const repeatPortSrc = `package port

import (
	"errors"
	"sync"

	"port/osport"
)

type Socket struct {
	mu   sync.Mutex
	addr string
	l    *string
}

func NewSocket(addr string) *Socket { return &Socket{addr: addr} }

func (s *Socket) IsListening() bool { return s.l != nil }

func (s *Socket) Addr() string {
	if s.l != nil {
		return *s.l
	}
	return s.addr
}

func (s *Socket) Open() error {
	if s.IsListening() {
		return errors.New("already open")
	}
	if !osport.Bind(s.addr) {
		return errors.New("bind: port taken")
	}
	a := s.addr
	s.l = &a
	return nil
}

func (s *Socket) Interrupt() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.l != nil {
		osport.Release(s.addr)
		s.l = nil
	}
	return nil
}
`

// repeatOSPortSrc stands for the machine's ports, outside the checked
// package (its memory accesses are not traced, as the kernel's are not):
// in the first replay process of the check (the marker file under
// $PORTHOLD_DIR), another owner takes the address once one bind has
// succeeded (the driver's first serial order, the one before the calls
// together) and gives it up after refusing one (the concurrent calls'
// Open), so the orders after the calls find it free again. The recording and every later
// replay see no other owner.
const repeatOSPortSrc = `package osport

import (
	"bytes"
	"os"
	"path/filepath"
)

var (
	bound = map[string]bool{}
	// after: binds to let through before the other owner takes the
	// address (-1: none); refuse: binds it then refuses.
	after, refuse = -1, 0
)

func init() {
	// A replay's process: pecanvet's runtime takes its variables out of
	// the environment, but not out of the one the process started with.
	start, _ := os.ReadFile("/proc/self/environ")
	start = append([]byte{0}, start...)
	replay := bytes.Contains(start, []byte("\x00PECANVET_SCHEDULE=")) || bytes.Contains(start, []byte("\x00PECANVET_REPLAY_LIST="))
	dir := os.Getenv("PORTHOLD_DIR")
	if dir == "" || !replay {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "held"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.Close()
	after, refuse = 1, 1
}

func Bind(addr string) bool {
	if after == 0 && refuse > 0 {
		refuse--
		return false
	}
	if bound[addr] {
		return false
	}
	bound[addr] = true
	if after > 0 {
		after--
	}
	return true
}

func Release(addr string) { delete(bound, addr) }
`

// repeatPortTest is thrift's TestSocketIsntListeningAfterInterrupt: the
// drivers copy its construction and end each case by its deferred
// Interrupt.
const repeatPortTest = `package port

import "testing"

func TestSocketIsntListeningAfterInterrupt(t *testing.T) {
	addr := "127.0.0.1:9090"
	socket := NewSocket(addr)
	socket.Open()
	socket.Interrupt()

	newSocket := NewSocket(addr)
	err := newSocket.Open()
	defer newSocket.Interrupt()
	if err != nil {
		t.Fatalf("Failed to rebind: %s", err)
	}
}
`

// TestDriverRepeat: tally's server_socket.go:82 av (triage.md). The
// generated driver calling Addr and Open together found, in one replay,
// the port held by an owner outside the process after its serial orders
// had found it free, and failed ("Addr and Open called together returned
// [127.0.0.1:9090] and [bind: address already in use] and left
// IsListening() = false"). Replayed again in a process of its own, the
// schedule passes: the finding keeps its interleaving and loses its
// effect, and a driver's finding without one is not reported. Without
// the repeat that failure was credited to the interleaving. (The port's
// other owner here says "port taken": a process that printed "address
// already in use" beside others of its package is run again alone before
// its verdict counts, testbin.Collided; the repeat stands for a collision
// that says nothing of the kind.)
func TestDriverRepeat(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("the port's other owner tells a replay by /proc/self/environ")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":           "module port\n\ngo 1.22\n",
		"port.go":          repeatPortSrc,
		"port_test.go":     repeatPortTest,
		"osport/osport.go": repeatOSPortSrc,
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PORTHOLD_DIR", t.TempDir())
	pats, _ := pattern.Builtin("av")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"."}, Anomalies: pats, Drivers: true, Run: "Addr_Open"})
	if err != nil {
		t.Fatal(err)
	}
	held := false
	for _, f := range rep.Findings {
		if !strings.Contains(f.Test, "Addr_Open") {
			continue
		}
		// An interrupted or explored replay whose failure the repeat
		// withdrew is Diverged (failureWithdrawn); a complete one stays
		// Reproduced without effect. Both must name the control.
		if strings.Contains(f.Verdict.Consequence, "port taken") && (f.Reproduced() || f.Verdict.Interrupted || f.Verdict.Explored) {
			held = true
			if f.Control == "" {
				t.Errorf("the failure the port's other owner made is credited to the interleaving: %s %s: %q", f.Test, f.Anomaly.Key, f.Verdict.Consequence)
			}
		}
		if f.Reproduced() && !f.WithoutEffect() {
			t.Errorf("reported: %s %s: %q (control %q)", f.Test, f.Anomaly.Key, f.Verdict.Consequence, f.Control)
		}
	}
	if !held {
		// The other owner took the port in no reproduced replay: the
		// test shows nothing.
		for _, f := range rep.Findings {
			t.Logf("%s %s: %s %q", f.Test, f.Anomaly.Key, f.Verdict.Verdict, f.Verdict.Consequence)
		}
		t.Fatalf("no replay of the Addr and Open driver failed on the held port")
	}
}
