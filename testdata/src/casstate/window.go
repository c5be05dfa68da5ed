package casstate

import (
	"sync"
	"sync/atomic"
)

// bounds is a window's position; end-start is always the window's width.
type bounds struct {
	mu         sync.Mutex
	start, end int64
}

// Window is a sliding window whose bounds are published once and then
// moved in place.
type Window struct {
	cur atomic.Pointer[bounds]
}

// New returns a window [0, width).
func New(width int64) *Window {
	w := &Window{}
	w.cur.Store(&bounds{end: width})
	return w
}

// Slide moves the window d ahead.
func (w *Window) Slide(d int64) { w.cur.Load().slide(d) }

// slide moves the bounds in place, one end after the other.
func (b *bounds) slide(d int64) {
	b.mu.Lock()
	b.start += d // want "atomic-set-serializability violation on bounds\\.start, bounds\\.end"
	b.mu.Unlock()
	b.mu.Lock()
	b.end += d
	b.mu.Unlock()
}

// Width is end-start as one sample.
func (w *Window) Width() int64 { return w.cur.Load().width() }

func (b *bounds) width() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.end - b.start
}
