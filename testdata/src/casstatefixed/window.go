package casstatefixed

import "sync/atomic"

// bounds is a window's position; end-start is always the window's width.
type bounds struct {
	start, end int64
}

// Window is a sliding window that readers sample without a lock.
type Window struct {
	cur atomic.Pointer[bounds]
}

// New returns a window [0, width).
func New(width int64) *Window {
	w := &Window{}
	w.cur.Store(&bounds{end: width})
	return w
}

// Slide moves the window d ahead: it builds the new bounds in a variable
// of its own and publishes them with one compare-and-swap.
func (w *Window) Slide(d int64) {
	var next bounds
	for {
		old := w.cur.Load()
		next = bounds{start: old.start + d, end: old.end + d}
		if w.cur.CompareAndSwap(old, &next) {
			return
		}
	}
}

// Width is end-start as one sample.
func (w *Window) Width() int64 {
	b := w.cur.Load()
	return b.end - b.start
}
