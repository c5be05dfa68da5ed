package drvreset

import "sync"

// Allocator hands out bytes of its buffer, from an offset it advances.
type Allocator struct {
	mu  sync.Mutex
	buf []byte
	off int
}

// NewAllocator makes an allocator of size bytes.
func NewAllocator(size int) *Allocator {
	return &Allocator{buf: make([]byte, size)}
}

// Allocate hands out n bytes that no one else holds.
func (a *Allocator) Allocate(n int) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	off := a.off // want "data race on Allocator\\.off: this read and another goroutine.s write \\(allocator.go:32\\).*found by a generated driver calling Allocate and Reset"
	if off+n > len(a.buf) {
		a.buf = make([]byte, 2*len(a.buf)+n)
		off = 0
	}
	a.off = off + n // want "data race on Allocator\\.off: this write and another goroutine.s write \\(allocator.go:32\\).*found by a generated driver calling Allocate and Reset"
	return a.buf[off : off+n : off+n]
}

// Reset rewinds the allocator to reuse every byte it handed out.
func (a *Allocator) Reset() {
	a.off = 0
}

// Pool keeps allocators for reuse.
type Pool struct{ ch chan *Allocator }

// NewPool makes a pool of at most n allocators.
func NewPool(n int) *Pool {
	return &Pool{ch: make(chan *Allocator, n)}
}

// Get takes an allocator from the pool, rewound, or makes one.
func (p *Pool) Get(size int) *Allocator {
	select {
	case a := <-p.ch:
		a.Reset()
		return a
	default:
		return NewAllocator(size)
	}
}

// Put gives a back to the pool.
func (p *Pool) Put(a *Allocator) {
	select {
	case p.ch <- a:
	default:
	}
}
