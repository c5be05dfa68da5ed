package timerrelay

import "time"

// Relay passes values from a source channel on to its subscriber.
type Relay struct{ n int }

// Subscribe starts a goroutine that forwards every value of in on the
// returned channel, which it closes once in is closed.
func (r *Relay) Subscribe(in <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		for v := range in {
			out <- v // want "goroutine g[0-9.]+ blocked forever in chan send at relay\\.go:14: its receiver returned at relay\\.go:25 \\(leak\\); reproduced"
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
