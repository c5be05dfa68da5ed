package bytestring

import "sync"

// Line is an editable line of text.
type Line struct {
	mu  sync.Mutex
	buf []byte
}

// New returns a line holding s, with no spare capacity.
func New(s string) *Line {
	return &Line{buf: []byte(s)[:len(s):len(s)]}
}

// Set replaces the byte at i.
func (l *Line) Set(i int, c byte) {
	l.mu.Lock()
	l.buf[i] = c // want "data race on \\[\\]byte_elem"
	l.mu.Unlock()
}

// String returns the line's text.
func (l *Line) String() string {
	return string(l.buf)
}

// Extend returns the line's text followed by s.
func (l *Line) Extend(s string) []byte {
	return append(l.buf, s...)
}
