package cleanupracefixed

import (
	"runtime"
	"sync"
	"unsafe"
)

// Buffer is what the pool hands out.
type Buffer struct {
	data []byte
	p    unsafe.Pointer // keeps the allocation out of the tiny allocator
}

// Pool hands out buffers and counts those the collector freed.
type Pool struct {
	mu      sync.Mutex
	freed   int
	Reclaim chan bool // a value per buffer freed, after it is counted
}

// NewPool returns an empty pool.
func NewPool() *Pool { return &Pool{Reclaim: make(chan bool, 16)} }

// Get returns a new buffer; its cleanup counts it freed.
func (p *Pool) Get() *Buffer {
	b := &Buffer{data: make([]byte, 64)}
	runtime.AddCleanup(b, func(p *Pool) {
		p.mu.Lock()
		p.freed++
		p.mu.Unlock()
		p.Reclaim <- true
	}, p)
	return b
}

// Freed returns the number of buffers freed.
func (p *Pool) Freed() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.freed
}
