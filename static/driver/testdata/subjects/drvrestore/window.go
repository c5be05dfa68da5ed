// Package drvrestore has a rolling window meant for concurrent use (it
// holds an atomic) whose Restore the package calls only from
// Counter.UnmarshalJSON, documented "Note, this is *NOT* thread safe"
// (cep21/circuit's RollingBuckets.Store), Resize that Grow calls too,
// whose doc says nothing, Reload whose own doc says it is not thread
// safe, and Describe, whose only caller's doc speaks of what it returns.
// No driver calls Restore, Reload or Counter.UnmarshalJSON; Resize and
// Describe keep theirs.
package drvrestore

import (
	"encoding/json"
	"strconv"
	"sync"
	"sync/atomic"
)

// Window is a rolling window of buckets.
type Window struct {
	Width int
	Start int
	Last  atomic.Int64
}

// Advance moves the window to now and returns the bucket's index.
func (w *Window) Advance(now int) int {
	idx := int64((now - w.Start) / w.Width)
	for {
		last := w.Last.Load()
		if last >= idx || w.Last.CompareAndSwap(last, idx) {
			return int(idx)
		}
	}
}

// Restore copies o into w.
func (w *Window) Restore(o *Window) {
	w.Width = o.Width
	w.Start = o.Start
	w.Last.Store(o.Last.Load())
}

// Resize sets the bucket width.
func (w *Window) Resize(width int) {
	w.Width = width
}

// Reload resets the window from its start. Reload is not thread safe.
func (w *Window) Reload() {
	w.Start = 0
	w.Last.Store(0)
}

// Describe names the window.
func (w *Window) Describe() string {
	return strconv.Itoa(w.Width)
}

// Counter counts events in a window.
type Counter struct {
	mu sync.Mutex
	w  Window
}

// UnmarshalJSON stores the previous JSON encoding.  Note, this is *NOT* thread safe.
func (c *Counter) UnmarshalJSON(b []byte) error {
	var o Window
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	c.w.Restore(&o)
	return nil
}

// Grow doubles the window's width.
func (c *Counter) Grow() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.w.Resize(2 * c.w.Width)
}

// Name returns a Builder, which is not safe for concurrent use.
func (c *Counter) Name() string {
	return c.w.Describe()
}
