package stringbufferfixed

import "sync"

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
	return len(s.b)
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

// Bytes returns a copy of the contents of the buffer.
func (s *Buffer) Bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]byte(nil), s.b...)
}

// Append appends the contents of o to s and returns s.
func (s *Buffer) Append(o *Buffer) *Buffer {
	data := o.Bytes()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b = append(s.b, data...)
	return s
}

// String returns the contents of the buffer.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.b)
}
