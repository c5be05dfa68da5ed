package testbin

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// alonePort is a port the tests bind; a test skips when something else
// holds it.
const alonePort = 47613

func freePort(t *testing.T) {
	t.Helper()
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", alonePort))
	if err != nil {
		t.Skipf("port %d taken: %v", alonePort, err)
	}
	l.Close()
}

// bindSrc is a package of tests that each hold the fixed port for a
// while, as datadog-go's statsd tests hold localhost:8765.
var bindSrc = fmt.Sprintf(`package m

import (
	"net"
	"testing"
	"time"
)

func bind(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:%d")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	l.Close()
}

func TestBind(t *testing.T)  { bind(t) }
func TestBind2(t *testing.T) { bind(t) }
`, alonePort)

// TestRunTestAloneAtCollision: processes of one package that bind the
// same fixed port at the same time collide ("bind: address already in
// use"); RunTest marks the test and runs it again alone, so each run
// passes, as it does in a normal go test.
func TestRunTestAloneAtCollision(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	freePort(t)
	bin, dir := buildTests(t, bindSrc)
	var wg sync.WaitGroup
	runs := make([]Run, 3)
	for i := range runs {
		wg.Go(func() { runs[i] = RunTest(context.Background(), bin, dir, "TestBind", nil, 20*time.Second) })
	}
	wg.Wait()
	for i, r := range runs {
		if !r.Passed {
			t.Errorf("run %d failed:\n%s", i, r.Output)
		}
	}
	if !Alone(dir, "TestBind") {
		t.Errorf("TestBind not marked to run alone after its runs collided")
	}
	if Alone(dir, "TestBind2") {
		t.Errorf("TestBind2 marked, though it never ran")
	}
	// Marked, it runs alone: beside a process of TestBind2 it takes
	// turns, and both pass.
	var r1, r2 Run
	var passed map[string]bool
	wg.Go(func() {
		passed, _ = RunTests(context.Background(), bin, dir, []string{"TestBind2"}, nil, 20*time.Second)
	})
	wg.Go(func() { r1 = RunTest(context.Background(), bin, dir, "TestBind", nil, 20*time.Second) })
	wg.Go(func() { r2 = RunTest(context.Background(), bin, dir, "TestBind", nil, 20*time.Second) })
	wg.Wait()
	if !r1.Passed || !r2.Passed {
		t.Errorf("TestBind, marked, failed:\n%s\n%s", r1.Output, r2.Output)
	}
	if p, ok := passed["TestBind2"]; ok && !p {
		t.Errorf("TestBind2 failed beside TestBind, which runs alone")
	}
}

// TestRunTestsCollided: a test that failed at a collision in a process
// of many has no entry (RunTest then tells), not a failure.
func TestRunTestsCollided(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	freePort(t)
	bin, dir := buildTests(t, bindSrc)
	l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", alonePort))
	if err != nil {
		t.Skip(err)
	}
	// Another process of the package holds the port meanwhile.
	release, _ := hold(dir, nil)
	go func() {
		time.Sleep(time.Second)
		l.Close()
		release()
	}()
	got, _ := RunTests(context.Background(), bin, dir, []string{"TestBind", "TestBind2"}, nil, 20*time.Second)
	for _, name := range []string{"TestBind", "TestBind2"} {
		if p, ok := got[name]; ok && !p {
			t.Errorf("%s: failed at a collision, counted as failing", name)
		}
	}
	for name := range got {
		if !strings.HasPrefix(name, "TestBind") {
			t.Errorf("unexpected entry %s", name)
		}
	}
}

// TestHoldAlone: a process running a marked test holds its package's
// lock alone; the others share it.
func TestHoldAlone(t *testing.T) {
	dir := t.TempDir()
	SetAlone(dir, "TestX", true)
	r1, a1 := hold(dir, []string{"TestY"})
	r2, a2 := hold(dir, nil)
	if a1 || a2 {
		t.Fatalf("unmarked tests held alone")
	}
	got := make(chan bool)
	go func() {
		r, alone := hold(dir, []string{"TestY", "TestX"})
		got <- alone
		r()
	}()
	select {
	case <-got:
		t.Fatal("held alone while two processes held the lock")
	case <-time.After(100 * time.Millisecond):
	}
	r1()
	r2()
	if !<-got {
		t.Errorf("a process running a marked test did not hold alone")
	}
	SetAlone(dir, "TestX", false)
	if Alone(dir, "TestX") {
		t.Errorf("unmarked test still marked")
	}
}
