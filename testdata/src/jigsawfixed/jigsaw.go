package jigsawfixed

import (
	"slices"
	"sync"
)

// Event is something for the server to handle.
type Event struct{ Name string }

// Queue is a synchronized queue of events.
type Queue struct {
	mu       sync.Mutex
	nonEmpty sync.Cond
	items    []Event
}

func (q *Queue) cond() *sync.Cond {
	if q.nonEmpty.L == nil {
		q.nonEmpty.L = &q.mu
	}
	return &q.nonEmpty
}

// Add appends e.
func (q *Queue) Add(e Event) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, e)
	q.cond().Signal()
}

// Size returns the number of queued events.
func (q *Queue) Size() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

// Take waits for an event and removes it from the queue.
func (q *Queue) Take() Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 {
		q.cond().Wait()
	}
	e := q.items[0]
	q.items = slices.Delete(q.items, 0, 1)
	return e
}

// EventManager hands queued events to dispatcher goroutines.
type EventManager struct {
	queue *Queue
}

// NewEventManager returns a manager of q.
func NewEventManager(q *Queue) *EventManager {
	return &EventManager{queue: q}
}

// GetNextEvent waits for an event and takes it off the queue.
func (m *EventManager) GetNextEvent() Event {
	return m.queue.Take()
}
