package startinbox

import (
	"sync"
	"testing"
	"time"
)

// TestRestart: a stopped inbox is started again 2 ms after a sender
// sent to it; Start hands the queued message over.
func TestRestart(t *testing.T) {
	in := &Inbox{}
	in.Stop()
	got := make(chan int, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		in.Send(1)
	}()
	time.Sleep(2 * time.Millisecond)
	in.Start(func(m int) { got <- m })
	if m := <-got; m != 1 {
		t.Errorf("handled %d, want 1", m)
	}
	wg.Wait()
}

// TestSendThenRestart: a started inbox handles a message; then a sender
// sends another, and 2 ms later the inbox is stopped and started again;
// both are handled, by one process goroutine at a time.
func TestSendThenRestart(t *testing.T) {
	in := &Inbox{}
	got := make(chan int, 1)
	h := func(m int) { got <- m }
	in.Start(h)
	in.Send(1)
	if m := <-got; m != 1 {
		t.Errorf("handled %d, want 1", m)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		in.Send(2)
	}()
	time.Sleep(2 * time.Millisecond)
	in.Stop()
	in.Start(h)
	if m := <-got; m != 2 {
		t.Errorf("handled %d, want 2", m)
	}
	wg.Wait()
	if in.Overlapped() {
		t.Errorf("two process goroutines ran at once")
	}
}
