package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// stuckSrc is the source the TestStuck cases' traces were recorded from
// (pecanvet record), numbered by line.
const stuckSrc = `package p

import "sync"

func Range(vals []int) {
	ch := make(chan int)
	go func() {
		for v := range ch {
			_ = v
		}
	}()
	for _, v := range vals {
		ch <- v
	}
}

func Sel() {
	a := make(chan int)
	b := make(chan int)
	go func() {
		select {
		case <-a:
		case b <- 1:
		}
	}()
}

func WG() {
	var wg sync.WaitGroup
	wg.Add(2)
	done := make(chan bool, 1)
	go func() {
		defer wg.Done()
	}()
	go func() {
		wg.Wait()
		done <- true
	}()
}

func Mu() {
	var mu sync.Mutex
	mu.Lock()
	go func() {
		mu.Lock()
		mu.Unlock()
	}()
}

func CondLeak() {
	c := sync.NewCond(&sync.Mutex{})
	ready := false
	go func() {
		c.L.Lock()
		for !ready {
			c.Wait()
		}
		c.L.Unlock()
	}()
}

var global = make(chan int)

func Daemon() {
	go func() {
		for v := range global {
			_ = v
		}
	}()
}

func Passed(keep func(chan int)) {
	ch := make(chan int)
	keep(ch)
	go func() {
		for v := range ch {
			_ = v
		}
	}()
}

func Later() func() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		wg.Wait()
	}()
	return func() { wg.Done() }
}

func First(fs []func() int) int {
	ch := make(chan int)
	for _, f := range fs {
		go func(f func() int) {
			ch <- f()
		}(f)
	}
	return <-ch
}

func Watch(ok bool, release func()) bool {
	done := make(chan struct{})
	go func() {
		<-done
		release()
	}()
	if !ok {
		return false
	}
	close(done)
	return true
}

func Pair() {
	ch := make(chan int)
	go func() {
		ch <- 1
	}()
	go func() {
		<-ch
	}()
}

func Two() {
	a, b := make(chan int), make(chan int)
	go func() {
		x, y := <-a, <-b
		_, _ = x, y
	}()
	b <- 1
}
`

// TestStuck checks which goroutines blocked at a test's end in a plain
// send or receive, a range loop, a select, a lock, a WaitGroup's or a Cond's Wait count as stuck
// for good (check/observedsync.go), on traces as the recorder writes them.
func TestStuck(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(stuckSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &selectAlts{dir: dir}
	for _, tc := range []struct {
		name, tr string
		waits    string // "": not stuck
	}{
		{"range", `g1 fork g1.1 @x_test.go:5:6
g1.1 begin
g1.1 fork g1.1.1 @x.go:7:2
g1.1.1 begin
g1.1 send chan_int#1 @x.go:13:6
g1.1.1 recv chan_int#1 @x.go:8:3
g1.1 end
g1 join g1.1 @x_test.go:5:6
g1.1.1 recv chan_int#1 @x.go:8:3 blocked=true
`, "range over channel"},
		// The test's goroutine, its end not yet recorded (a shared
		// process): its test function has returned.
		{"range-test-returned", `g1 fork g1.1 @x_test.go:5:6
g1.1 begin
g1.1 fork g1.1.1 @x.go:7:2
g1.1.1 begin
g1.1.1 recv chan_int#1 @x.go:8:3 blocked=true
`, "range over channel"},
		// The starter still runs: it may send again.
		{"range-starter-live", `g1 fork g1.1 @x_test.go:5:6
g1.1 begin
g1.1 fork g1.1.2 @x_test.go:6:2
g1.1.2 begin
g1.1.2 fork g1.1.2.1 @x.go:7:2
g1.1.2.1 begin
g1.1.2.1 recv chan_int#1 @x.go:8:3 blocked=true
`, ""},
		{"select", `g1 fork g1.1 @x_test.go:6:6
g1.1 begin
g1.1 fork g1.1.1 @x.go:20:2
g1.1.1 begin
g1.1 end
g1 join g1.1 @x_test.go:6:6
g1.1.1 recv chan_int#1 @x.go:22:8 blocked=true
`, "select"},
		{"wg", `g1 fork g1.1 @x_test.go:7:6
g1.1 begin
g1.1 wg-add WG.wg#1 @x.go:30:8 delta=2
g1.1 fork g1.1.1 @x.go:32:2
g1.1 fork g1.1.2 @x.go:35:2
g1.1.2 begin
g1.1.1 begin
g1.1.1 wg-done WG.wg#1 @x.go:33:16
g1.1.1 end
g1.1 end
g1 join g1.1 @x_test.go:7:6
g1.1.2 wg-wait WG.wg#1 @x.go:36:10 blocked=true
`, "WaitGroup.Wait"},
		// A worker that can call Done still lives.
		{"wg-worker-live", `g1 fork g1.1 @x_test.go:7:6
g1.1 begin
g1.1 wg-add WG.wg#1 @x.go:30:8 delta=2
g1.1 fork g1.1.1 @x.go:32:2
g1.1 fork g1.1.2 @x.go:35:2
g1.1.2 begin
g1.1.1 begin
g1.1 end
g1 join g1.1 @x_test.go:7:6
g1.1.2 wg-wait WG.wg#1 @x.go:36:10 blocked=true
`, ""},
		{"mutex", `g1 fork g1.1 @x_test.go:8:6
g1.1 begin
g1.1 lock Mu.mu#1 @x.go:43:9
g1.1 fork g1.1.1 @x.go:44:2
g1.1.1 begin
g1.1 end
g1 join g1.1 @x_test.go:8:6
g1.1.1 lock Mu.mu#1 @x.go:45:10 blocked=true
`, "Mutex.Lock"},
		{"cond", `g1 fork g1.1 @x_test.go:9:6
g1.1 begin
g1.1 fork g1.1.1 @x.go:53:2
g1.1.1 begin
g1.1.1 lock Cond.L#1 @x.go:54:11
g1.1.1 unlock Cond.L#1 @x.go:56:10
g1.1 end
g1 join g1.1 @x_test.go:9:6
g1.1.1 cond-wait CondLeak.c#1 @x.go:56:10 blocked=true
`, "Cond.Wait"},
		// A package-level channel: a daemon's.
		{"global", `g1 fork g1.1 @x_test.go:9:6
g1.1 begin
g1.1 fork g1.1.1 @x.go:66:2
g1.1.1 begin
g1.1 end
g1 join g1.1 @x_test.go:9:6
g1.1.1 recv chan_int#1 @x.go:67:3 blocked=true
`, ""},
		// Passed to a function: it may keep it.
		{"passed", `g1 fork g1.1 @x_test.go:9:6
g1.1 begin
g1.1 fork g1.1.1 @x.go:76:2
g1.1.1 begin
g1.1 end
g1 join g1.1 @x_test.go:9:6
g1.1.1 recv chan_int#1 @x.go:77:3 blocked=true
`, ""},
		// Done in a closure returned for later.
		{"later", `g1 fork g1.1 @x_test.go:9:6
g1.1 begin
g1.1 wg-add Later.wg#1 @x.go:85:8 delta=1
g1.1 fork g1.1.1 @x.go:86:2
g1.1.1 begin
g1.1 end
g1 join g1.1 @x_test.go:9:6
g1.1.1 wg-wait Later.wg#1 @x.go:87:10 blocked=true
`, ""},
		// A plain send: the receive that took the other sender's value
		// was First's last use of the channel, and First has returned.
		{"send", `g1 fork g1.1 @x_test.go:10:6
g1.1 begin
g1.1 fork g1.1.1 @x.go:94:3
g1.1 fork g1.1.2 @x.go:94:3
g1.1.1 begin
g1.1.2 begin
g1.1.1 send chan_int#1 @x.go:95:7
g1.1 recv chan_int#1 @x.go:98:9
g1.1.1 end
g1.1 end
g1 join g1.1 @x_test.go:10:6
g1.1.2 send chan_int#1 @x.go:95:7 blocked=true
`, "chan send"},
		// A plain receive: Watch returned before its close.
		{"recv", `g1 fork g1.1 @x_test.go:11:6
g1.1 begin
g1.1 fork g1.1.1 @x.go:103:2
g1.1.1 begin
g1.1 end
g1 join g1.1 @x_test.go:11:6
g1.1.1 recv chan_struct{}#1 @x.go:104:3 blocked=true
`, "chan receive"},
		// Watch has not returned: it may close the channel yet.
		{"recv-starter-live", `g1 fork g1.1 @x_test.go:11:6
g1.1 begin
g1.1 fork g1.1.2 @x_test.go:12:2
g1.1.2 begin
g1.1.2 fork g1.1.2.1 @x.go:103:2
g1.1.2.1 begin
g1.1.2.1 recv chan_struct{}#1 @x.go:104:3 blocked=true
`, ""},
		// The receiving goroutine still lives.
		{"send-receiver-live", `g1 fork g1.1 @x_test.go:12:6
g1.1 begin
g1.1 fork g1.1.1 @x.go:116:2
g1.1 fork g1.1.2 @x.go:119:2
g1.1.1 begin
g1.1.2 begin
g1.1 end
g1 join g1.1 @x_test.go:12:6
g1.1.1 send chan_int#1 @x.go:117:6 blocked=true
`, ""},
		// Two receives on one line: the site does not say which.
		{"two-on-a-line", `g1 fork g1.1 @x_test.go:13:6
g1.1 begin
g1.1 fork g1.1.1 @x.go:126:2
g1.1.1 begin
g1.1 send chan_int#2 @x.go:130:4
g1.1.1 recv chan_int#2 @x.go:127:16
g1.1 end
g1 join g1.1 @x_test.go:13:6
g1.1.1 recv chan_int#1 @x.go:127:11 blocked=true
`, ""},
	} {
		tr, err := trace.ReadTrace(strings.NewReader("# pecanvet trace v1\n"+tc.tr), tc.name, trace.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(tr.Blocked) != 1 {
			t.Fatalf("%s: %d blocked events", tc.name, len(tr.Blocked))
		}
		waits, why, ok := s.stuck(newBlockedFacts(tr), 0)
		if ok != (tc.waits != "") || waits != tc.waits && ok {
			t.Errorf("%s: stuck = %q, %q, %v; want %q", tc.name, waits, why, ok, tc.waits)
		}
	}
}
