package copyracefixed

import "sync"

// Buffer is a fixed-size byte buffer.
type Buffer struct {
	mu   sync.Mutex
	data []byte
}

// New returns a zeroed buffer of n bytes.
func New(n int) *Buffer { return &Buffer{data: make([]byte, n)} }

// Write stores p at offset off.
func (b *Buffer) Write(off int, p string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := 0; i < len(p); i++ {
		b.data[off+i] = p[i]
	}
}

// Snapshot returns a copy of the buffer.
func (b *Buffer) Snapshot() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]byte, len(b.data))
	copy(out, b.data)
	return out
}
