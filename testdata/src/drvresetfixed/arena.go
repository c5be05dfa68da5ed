package drvresetfixed

import "sync"

// Arena allocates from one allocator at a time.
type Arena struct {
	mu   sync.Mutex
	cur  *Allocator
	pool *Pool
}

// NewArena makes an arena.
func NewArena() *Arena {
	p := NewPool(1)
	return &Arena{cur: p.Get(64), pool: p}
}

// Alloc hands out n bytes.
func (ar *Arena) Alloc(n int) []byte {
	ar.mu.Lock()
	a := ar.cur
	ar.mu.Unlock()
	return a.Allocate(n)
}

// Trim starts the arena on an allocator from the pool while it serves;
// the bytes the old one handed out stay their holders' (the fix: no
// rewind of an allocator in use).
func (ar *Arena) Trim() {
	ar.mu.Lock()
	ar.cur = ar.pool.Get(64)
	ar.mu.Unlock()
}
