package jigsaw

import (
	"sync"
	"testing"
	"time"
)

func TestTwoDispatchers(t *testing.T) {
	q := new(Queue)
	q.Add(Event{"GET /"})
	m := NewEventManager(q)

	var wg sync.WaitGroup
	var second Event
	wg.Add(2)
	go func() { // the network thread queues a second request later
		defer wg.Done()
		time.Sleep(4 * time.Millisecond)
		q.Add(Event{"GET /favicon.ico"})
	}()
	go func() { // a second dispatcher
		defer wg.Done()
		time.Sleep(8 * time.Millisecond)
		second = m.GetNextEvent()
	}()
	first := m.GetNextEvent()
	wg.Wait()

	if first.Name != "GET /" || second.Name != "GET /favicon.ico" {
		t.Errorf("dispatched %q then %q", first.Name, second.Name)
	}
	if q.Size() != 0 {
		t.Errorf("%d events left", q.Size())
	}
}
