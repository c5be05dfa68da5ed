package restwaitfixed

import (
	"sync"
	"sync/atomic"
	"time"
)

// Hub hands published events to its listener, which runs until the
// process ends (nothing stops it); a ticker wakes the listener every
// period until Close.
type Hub struct {
	c       *sync.Cond
	pending atomic.Int64
	got     atomic.Int64
	done    chan struct{}
}

// New returns a hub with its listener and ticker started.
func New(period time.Duration) *Hub {
	h := &Hub{c: sync.NewCond(&sync.Mutex{}), done: make(chan struct{})}
	go h.listen()
	go h.tick(period)
	return h
}

// listen counts the events published, waiting while there is none.
func (h *Hub) listen() {
	for {
		h.c.L.Lock()
		for h.pending.Load() == 0 {
			h.c.Wait()
		}
		n := h.pending.Swap(0)
		h.c.L.Unlock()
		h.got.Add(n)
	}
}

// tick wakes the listener every period, so that a broadcast of Publish
// that fell before the listener's Wait delays the event by a period at
// most.
func (h *Hub) tick(period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-h.done:
			return
		case <-t.C:
			h.c.Broadcast()
		}
	}
}

// Publish counts an event, outside the lock, and wakes the listener.
func (h *Hub) Publish() {
	h.pending.Add(1)
	h.c.Broadcast()
}

// Got returns the events the listener has taken.
func (h *Hub) Got() int64 { return h.got.Load() }

// Close stops the ticker; the listener stays waiting.
func (h *Hub) Close() { close(h.done) }
