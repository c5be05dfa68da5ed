//go:build go1.21

package rt

import (
	"context"
	"strings"
	"testing"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestCtxAfterFunc: context.AfterFunc's callback is forked at the call;
// a stop that kept it from running drops it from what Drain waits for.
func TestCtxAfterFunc(t *testing.T) {
	read := recordTo(t)
	x := heap[int]()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	W(unsafe.Pointer(x), tW)
	CtxAfterFuncAt(tCtx)(ctx, func() {
		R(unsafe.Pointer(x), tW)
		close(done)
	})
	stop := CtxAfterFuncAt(tCtx)(ctx, func() { t.Error("stopped callback ran") })
	if !stop() {
		t.Fatal("stop did not stop the callback")
	}
	mu.Lock()
	pending, _ := rec.liveKids(curGoid(), 0)
	mu.Unlock()
	cancel()
	<-done
	tr := read()
	consistent(t, tr)
	if pending != 1 {
		t.Errorf("%d forked goroutines pending after stop, want 1 (the callback not stopped)", pending)
	}
	var forks, begins int
	for _, e := range tr.Events {
		switch e.Op {
		case trace.Fork:
			forks++
		case trace.Begin:
			begins++
		}
	}
	if forks != 2 || begins != 1 {
		t.Errorf("%d forks, %d begins; want 2, 1:\n%s", forks, begins, strings.Join(lines(tr), "\n"))
	}
}
