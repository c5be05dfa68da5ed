package cockroach16167

import (
	"sync"
	"testing"
	"time"
)

func TestPrepareDuringGossipUpdate(t *testing.T) {
	e, s := newExecutorAndSession()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(20 * time.Millisecond) // gossip delivers the config later
		e.Start(1)
	}()
	e.execParsed(s)
	wg.Wait()
	if s.PreparedStatements.n != 1 {
		t.Errorf("prepared %d statements, want 1", s.PreparedStatements.n)
	}
	if c := e.getDatabaseCache(); c.version != 1 {
		t.Errorf("database cache version %d after the update, want 1", c.version)
	}
}
