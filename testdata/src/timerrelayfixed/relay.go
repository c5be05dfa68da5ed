package timerrelayfixed

import "time"

// Relay passes values from a source channel on to its subscriber.
type Relay struct{ n int }

// Subscribe starts a goroutine that forwards every value of in on the
// returned channel, which it closes once in is closed.
func (r *Relay) Subscribe(in <-chan int) <-chan int {
	out := make(chan int, 1)
	go func() {
		for v := range in {
			out <- v
		}
		close(out)
	}()
	r.n++
	return out
}

// Read returns the next value of ch, or false once d has passed.
func Read(ch <-chan int, d time.Duration) (int, bool) {
	select {
	case v, ok := <-ch:
		return v, ok
	case <-time.After(d):
		return 0, false
	}
}
