package ioread

import (
	"io"
	"sync"
)

// Loader holds the last chunk read from a source.
type Loader struct {
	mu  sync.Mutex
	buf []byte
	n   int
}

// Load reads the next chunk from r.
func (l *Loader) Load(r io.Reader) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var err error
	l.n, err = r.Read(l.buf) // want "data race on \\[\\]byte_elem"
	return err
}

// Peek returns the first byte of the buffer.
func (l *Loader) Peek() byte {
	return l.buf[0]
}
