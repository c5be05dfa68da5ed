package dep

import (
	"sync/atomic"
	"testing"
)

// poll calls cond until it returns true (pogreb's assert.CompleteWithin).
func poll(t *testing.T, cond func() bool) {
	for !cond() {
	}
}

func TestCompactorBusy(t *testing.T) {
	c := &Compactor{}
	go c.Compact()
	poll(t, func() bool { return atomic.LoadInt32(&c.running) == 1 }) // compactor probe
	if _, err := c.Compact(); err != errCompactBusy {
		t.Log(err)
	}
	var seen int32
	poll(t, func() bool {
		v := atomic.LoadInt32(&c.running) // compactor kept probe
		seen = v
		return v == 1
	})
	_ = seen
}
