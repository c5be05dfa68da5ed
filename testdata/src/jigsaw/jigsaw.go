package jigsaw

import (
	"slices"
	"sync"
	"time"
)

// Event is something for the server to handle.
type Event struct{ Name string }

// Queue is a synchronized vector of events.
type Queue struct {
	mu    sync.Mutex
	items []Event
}

// Add appends e.
func (q *Queue) Add(e Event) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, e)
}

// Size returns the number of queued events.
func (q *Queue) Size() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items) // want "atomicity violation on "
}

// ElementAt returns event i.
func (q *Queue) ElementAt(i int) Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.items[i] // want "atomicity violation on "
}

// RemoveElementAt removes event i.
func (q *Queue) RemoveElementAt(i int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = slices.Delete(q.items, i, i+1)
}

// EventManager hands queued events to dispatcher goroutines.
type EventManager struct {
	queue *Queue
	poll  time.Duration
}

// NewEventManager returns a manager of q.
func NewEventManager(q *Queue) *EventManager {
	return &EventManager{queue: q, poll: time.Millisecond}
}

// GetNextEvent waits for an event and takes it off the queue.
func (m *EventManager) GetNextEvent() Event {
	for m.queue.Size() == 0 {
		time.Sleep(m.poll)
	}
	e := m.queue.ElementAt(0)
	m.queue.RemoveElementAt(0)
	return e
}
