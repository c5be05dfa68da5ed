package sliceclear

import "sync"

// Buffer holds values until it is cleared.
type Buffer struct {
	mu   sync.Mutex
	vals []int
	// between runs in Drop after its clear, before it sums what is left
	// (a test's hook).
	between func()
}

// Add buffers v.
func (b *Buffer) Add(v int) {
	b.mu.Lock()
	b.vals = append(b.vals, v)
	b.mu.Unlock()
}

// Clear drops the buffered values (tally's clearMetrics).
func (b *Buffer) Clear() {
	b.mu.Lock()
	b.vals = nil // want "atomicity violation on Buffer\\.vals: another goroutine.s write can fall between this write and the read at buffer\\.go:37; reproduced; stale read-back"
	b.mu.Unlock()
}

// Drop clears the buffer, then sums what is left.
func (b *Buffer) Drop() int {
	b.Clear()
	if b.between != nil {
		b.between()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	t := 0
	for _, v := range b.vals {
		t += v
	}
	return t
}
