package bufwriter

import (
	"io"
	"sync"
)

// Writer buffers writes to an io.Writer.
type Writer struct {
	mu  sync.Mutex
	out io.Writer
	buf []byte
	n   int // bytes buffered
}

// New returns a writer to out with a buffer of size bytes.
func New(out io.Writer, size int) *Writer {
	return &Writer{out: out, buf: make([]byte, size)}
}

// Write buffers p, flushing first if it does not fit.
func (w *Writer) Write(p []byte) (int, error) {
	n := w.n                    // want "data race on Writer\\.n" "atomicity violation on Writer\\.n"
	if n+len(p) <= len(w.buf) { // fast path: it fits
		copy(w.buf[n:], p)
		w.n = n + len(p) // want "data race on "
		return len(p), nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.flush(); err != nil {
		return 0, err
	}
	if len(p) > len(w.buf) {
		return w.out.Write(p)
	}
	w.n = copy(w.buf, p)
	return len(p), nil
}

// Flush writes the buffered bytes out.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.flush()
}

func (w *Writer) flush() error {
	if w.n == 0 {
		return nil
	}
	_, err := w.out.Write(w.buf[:w.n])
	w.n = 0
	return err
}
