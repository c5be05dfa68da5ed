package driver

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/pecanvet/pecanvet/static/load"
)

// portSrc is a socket on a fixed address, as tally's vendored thrift
// TServerSocket: Open checks IsListening and then binds, unlocked. The
// addresses in use are the package's own table, standing for the
// machine's ports, and Hold makes another owner hold one until it has
// refused so many binds: the driver's four orders (eight Opens) see the
// port held, and the concurrent calls find it free.
const portSrc = `package port

import (
	"errors"
	"sync"
)

var (
	mu      sync.Mutex
	bound   = map[string]bool{}
	holdFor = map[string]int{}
)

// Hold has another owner hold addr until it has refused n binds.
func Hold(addr string, n int) {
	mu.Lock()
	defer mu.Unlock()
	bound[addr], holdFor[addr] = true, n
}

type listener struct{ addr string }

func listen(addr string) (*listener, error) {
	mu.Lock()
	defer mu.Unlock()
	if bound[addr] {
		if n, held := holdFor[addr]; held {
			if n--; n == 0 {
				delete(holdFor, addr)
				delete(bound, addr)
			} else {
				holdFor[addr] = n
			}
		}
		return nil, errors.New("bind: address already in use")
	}
	bound[addr] = true
	return &listener{addr}, nil
}

func (l *listener) close() {
	mu.Lock()
	defer mu.Unlock()
	delete(bound, l.addr)
}

type Socket struct {
	mu          sync.Mutex
	addr        string
	l           *listener
	interrupted bool
}

func NewSocket(addr string) *Socket { return &Socket{addr: addr} }

func (s *Socket) IsListening() bool { return s.l != nil }

func (s *Socket) Listen() error {
	if s.IsListening() {
		return nil
	}
	l, err := listen(s.addr)
	if err != nil {
		return err
	}
	s.l = l
	return nil
}

func (s *Socket) Open() error {
	if s.IsListening() {
		return errors.New("already open")
	}
	l, err := listen(s.addr)
	if err != nil {
		return err
	}
	s.l = l
	return nil
}

func (s *Socket) Interrupt() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.interrupted = true
	if s.l != nil {
		s.l.close()
		s.l = nil
	}
	return nil
}
`

// portTest is thrift's TestSocketIsntListeningAfterInterrupt: the driver
// copies the construction of socket, whose own Interrupt is no cleanup
// (not deferred, nor named as one), and the test defers the other
// socket's Interrupt.
const portTest = `package port

import "testing"

func TestSocketIsntListeningAfterInterrupt(t *testing.T) {
	addr := "127.0.0.1:9090"
	socket := NewSocket(addr)
	socket.Listen()
	socket.Interrupt()

	newSocket := NewSocket(addr)
	err := newSocket.Listen()
	defer newSocket.Interrupt()
	if err != nil {
		t.Fatalf("Failed to rebind: %s", err)
	}
}
`

// TestDriverEndsReceiver: a driver ends each case's receiver as the
// tests end one (testTeardowns: the deferred Interrupt), so the port a
// case bound is free again for the next. The first order ran with the
// port held by another owner, who gave it up before the concurrent
// calls: the orders after them find it free, the two runs of the first
// order disagree, and the driver has no oracle: it passes. Without the
// teardown the concurrent calls' own listener still held the port, the
// orders after them failed as the first did, and the driver failed:
// tally's server_socket.go:82 av, a difference of the port's owner
// credited to the interleaving. (With the orders all before the calls,
// the holder refused their 8 binds and the driver skipped, "changes
// with time".)
func TestDriverEndsReceiver(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":         "module port\n\ngo 1.22\n",
		"port.go":        portSrc,
		"port_test.go":   portTest,
		"hold_x_test.go": "package port_test\n\nimport \"port\"\n\nfunc init() { port.Hold(\"127.0.0.1:9090\", 2) }\n",
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
	const test = Prefix + "_Socket_Open_Open"
	found := false
	for _, d := range res.Drivers["port"] {
		found = found || d.Test == test
	}
	src := res.Files[filepath.Join(dir, File)]
	if !found || src == nil {
		t.Fatalf("no driver %s: %+v (notes %q)", test, res.Drivers, res.Notes)
	}
	if !strings.Contains(string(src), "socket.Interrupt()") {
		t.Errorf("the drivers do not end the socket:\n%s", src)
	}
	if err := os.WriteFile(filepath.Join(dir, File), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-v", "-count=1", "-run", "^"+test+"$", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+test) {
		t.Errorf("the driver failed for a port whose owner changed (%v):\n%s", err, out)
	}
}

// TestTestTeardowns: the method the tests defer (or run in t.Cleanup) on
// a value of the type is its teardown, before a Close the tests call;
// a Close, Stop or Shutdown they call is one when nothing is deferred; a
// deferred Unlock, a method with parameters, or another type's method is
// none.
func TestTestTeardowns(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module td\n\ngo 1.22\n",
		"td.go": `package td

import "sync"

type Sock struct{}

func (s *Sock) Open() error   { return nil }
func (s *Sock) Close() error  { return nil }
func (s *Sock) Interrupt()    {}

type Pool struct{}

func (p *Pool) Stop()         {}
func (p *Pool) Put(n int)     {}

type Cleaned struct{}

func (c *Cleaned) Release()   {}

type Locked struct{ mu sync.Mutex }

func (l *Locked) Lock()       { l.mu.Lock() }
func (l *Locked) Unlock()     { l.mu.Unlock() }
func (l *Locked) Drop(n int)  {}

type Embeds struct{ sync.Mutex }
`,
		"td_test.go": `package td

import "testing"

func TestSock(t *testing.T) {
	s := &Sock{}
	s.Open()
	s.Close()
	other := &Sock{}
	defer other.Interrupt()
}

func TestPool(t *testing.T) {
	p := &Pool{}
	p.Put(1)
	p.Stop()
}

func TestCleaned(t *testing.T) {
	c := &Cleaned{}
	t.Cleanup(func() { c.Release() })
}

func TestLocked(t *testing.T) {
	l := &Locked{}
	l.Lock()
	defer l.Unlock()
	defer l.Drop(1)
	e := &Embeds{}
	e.Lock()
	defer e.Unlock()
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: load.Mode, Dir: dir, Tests: true}, ".")
	if err != nil {
		t.Fatal(err)
	}
	var tests []*packages.Package
	for _, p := range pkgs {
		if p.PkgPath == "td" && strings.Contains(p.ID, "[") {
			tests = append(tests, p)
		}
	}
	if len(tests) == 0 {
		t.Fatal("no test variant")
	}
	got := testTeardowns("td", tests)
	want := map[string]string{"Sock": "Interrupt", "Pool": "Stop", "Cleaned": "Release"}
	if !maps.Equal(got, want) {
		t.Errorf("teardowns %v, want %v", got, want)
	}
}
