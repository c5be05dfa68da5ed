package pingpong

import (
	"sync"
	"testing"
	"time"
)

func TestRally(t *testing.T) {
	table := NewTable()
	ping, pong := NewPlayer("ping", table), NewPlayer("pong", table)

	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		time.Sleep(5 * time.Millisecond) // pong returns the ball
		pong.Hit()
		wg.Done() // not deferred: a panic in Hit ends the run as a panic, not as a race between the crash and the check below
	}()
	ping.Hit()
	wg.Wait()

	if b := table.Ball(); b == nil || b.Hits != 2 {
		t.Fatalf("ball %+v, want 2 hits", b)
	}
	if ping.hits != 1 || pong.hits != 1 {
		t.Errorf("hits: ping %d, pong %d", ping.hits, pong.hits)
	}
}
