package cockroach69408

import "testing"

func TestBlockingBuffer(t *testing.T) {
	// The consumer waits at once; the producer fills the buffer and blocks
	// a little later (it is slower to start).
	if got := runBlockingBuffer(3, 0); got != 6 {
		t.Errorf("sum = %d, want 6", got)
	}
}
