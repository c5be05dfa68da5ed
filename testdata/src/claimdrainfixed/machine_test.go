package claimdrainfixed

import (
	"sync"
	"testing"
	"time"
)

// TestFire: a second Fire while the first one's handler runs; once both
// returned and the handler was let go, both triggers ran.
func TestFire(t *testing.T) {
	var gate sync.Mutex
	gate.Lock()
	m := &Machine{handle: func(t int) {
		if t == 1 {
			gate.Lock() // held until the second Fire returned
			gate.Unlock()
		}
	}}
	done := make(chan struct{})
	go func() {
		m.Fire(1)
		close(done)
	}()
	time.Sleep(3 * time.Millisecond)
	m.Fire(2)
	gate.Unlock()
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
