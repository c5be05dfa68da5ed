package claimdrainfixed

import (
	"sync"
	"testing"
	"time"
)

// TestFire: a second Fire while the first one's handler runs; once both
// returned and the handler was let go, both triggers ran.
func TestFire(t *testing.T) {
	// The first trigger's handler is held until the second Fire returned,
	// for a second at most: when the second Fire queues its trigger
	// before the first one's claim, it runs the first trigger itself, in
	// this goroutine, and waiting for its own return would hang the test.
	// pecanvet found that schedule (session 33: the test hung, not the
	// machine); claimdrain's TestFire still has the hang, which its
	// reported bug does not need.
	gate := make(chan struct{})
	m := &Machine{handle: func(t int) {
		if t == 1 {
			select {
			case <-gate:
			case <-time.After(time.Second):
			}
		}
	}}
	done := make(chan struct{})
	go func() {
		m.Fire(1)
		close(done)
	}()
	time.Sleep(3 * time.Millisecond)
	m.Fire(2)
	close(gate)
	<-done
	if got := m.Ran(); len(got) != 2 {
		t.Errorf("ran %v, want both triggers", got)
	}
}

// TestFireFromHandler: the first trigger's handler fires two more from
// goroutines of its own (stateless's entry action that fires); once they
// returned, all three ran.
func TestFireFromHandler(t *testing.T) {
	var wg sync.WaitGroup
	var m *Machine
	m = &Machine{handle: func(t int) {
		if t == 1 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				m.Fire(2)
			}()
			go func() {
				defer wg.Done()
				m.Fire(3)
			}()
		}
	}}
	m.Fire(1)
	wg.Wait()
	if got := m.Ran(); len(got) != 3 {
		t.Errorf("ran %v, want all three triggers", got)
	}
}
