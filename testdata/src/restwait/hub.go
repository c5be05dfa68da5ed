package restwait

import (
	"sync"
	"sync/atomic"
)

// Hub hands published events to its listener, which runs until the
// process ends (nothing stops it).
type Hub struct {
	c       *sync.Cond
	pending atomic.Int64
	got     atomic.Int64
}

// New returns a hub with its listener started.
func New() *Hub {
	h := &Hub{c: sync.NewCond(&sync.Mutex{})}
	go h.listen()
	return h
}

// listen counts the events published, waiting while there is none.
func (h *Hub) listen() {
	for {
		h.c.L.Lock()
		for h.pending.Load() == 0 {
			h.c.Wait() // want "lost signal: g[0-9.]+ can broadcast Hub\\.c#1 \\(hub\\.go:39\\) before g[0-9.]+ waits on it \\(hub\\.go:28\\), and the Wait then blocks forever; reproduced, the replay deadlocks"
		}
		n := h.pending.Swap(0)
		h.c.L.Unlock()
		h.got.Add(n)
	}
}

// Publish counts an event, outside the lock, and wakes the listener.
func (h *Hub) Publish() {
	h.pending.Add(1)
	h.c.Broadcast()
}

// Got returns the events the listener has taken.
func (h *Hub) Got() int64 { return h.got.Load() }
