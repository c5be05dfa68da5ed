package resetwindow

import "sync"

type bucket struct {
	total int
}

// Window counts requests in size buckets; slide replaces the oldest
// bucket with a fresh current one (goresilience's bucketWindow).
type Window struct {
	mu      sync.Mutex
	size    int
	buckets []*bucket
	current *bucket
	next    int
}

func NewWindow(size int) *Window {
	w := &Window{size: size}
	w.reset()
	return w
}

// reset installs a fresh window, current bucket and next index.
func (w *Window) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	buckets := make([]*bucket, w.size)
	for i := range buckets {
		buckets[i] = &bucket{}
	}
	w.buckets = buckets // want "atomicity violation on Window\\.buckets.*total 0 after two slides, want 1"
	w.current = buckets[0]
	w.next = 1
}

// clear installs a fresh window and current bucket, keeping the next
// index: the bug (a slide between reset and clear leaves its index in the
// fresh window).
func (w *Window) clear() {
	w.mu.Lock()
	defer w.mu.Unlock()
	buckets := make([]*bucket, w.size)
	for i := range buckets {
		buckets[i] = &bucket{}
	}
	w.buckets = buckets
	w.current = buckets[0]
}

// slide replaces the oldest bucket with a new current one.
func (w *Window) slide() {
	w.mu.Lock()
	b := &bucket{}
	w.buckets[w.next] = b
	w.current = b
	w.next++
	if w.next >= len(w.buckets) {
		w.next = 0
	}
	w.mu.Unlock()
}

// Inc counts one request in the current bucket.
func (w *Window) Inc() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.current.total++
}

// Total sums the window.
func (w *Window) Total() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, b := range w.buckets {
		n += b.total
	}
	return n
}

// Breaker resets its window on every change of state.
type Breaker struct {
	mu    sync.Mutex
	state string
	rec   *Window
}

func NewBreaker(size int) *Breaker {
	return &Breaker{state: "closed", rec: NewWindow(size)}
}

func (c *Breaker) move(s string, full bool) {
	c.mu.Lock()
	c.state = s
	c.mu.Unlock()
	if full {
		c.rec.reset()
	} else {
		c.rec.clear()
	}
}

// Restart moves the breaker to half-open, resetting the window, and back
// to closed, clearing it.
func (c *Breaker) Restart() {
	c.move("half-open", true)
	c.move("closed", false)
}
