package stringbuffer

import (
	"fmt"
	"sync"
)

// Buffer is a synchronized growable byte string.
type Buffer struct {
	mu sync.Mutex
	b  []byte
}

// New returns a buffer holding s.
func New(s string) *Buffer { return &Buffer{b: []byte(s)} }

// Len returns the number of bytes in the buffer.
func (s *Buffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.b) // want "atomicity violation on "
}

// SetLength truncates the buffer, or pads it with zero bytes, to n bytes.
func (s *Buffer) SetLength(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.b) < n {
		s.b = append(s.b, 0)
	}
	s.b = s.b[:n]
}

// getChars copies bytes [begin, end) of the buffer into dst.
func (s *Buffer) getChars(begin, end int, dst []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if end > len(s.b) {
		panic(fmt.Sprintf("stringbuffer: getChars end %d > length %d", end, len(s.b)))
	}
	copy(dst, s.b[begin:end])
}

// Append appends the contents of o to s and returns s.
func (s *Buffer) Append(o *Buffer) *Buffer {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := o.Len()
	old := len(s.b)
	s.b = append(s.b, make([]byte, n)...)
	o.getChars(0, n, s.b[old:])
	return s
}

// String returns the contents of the buffer.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.b)
}
