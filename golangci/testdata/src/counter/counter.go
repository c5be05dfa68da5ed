// Package counter counts hits from several goroutines without a lock: a
// data race (and lost updates) on Counter.n.
package counter

// Counter counts hits.
type Counter struct{ n int }

// Hit adds one.
func (c *Counter) Hit() { c.n++ }

// HitAll hits c from k goroutines and waits for them.
func HitAll(c *Counter, k int) {
	done := make(chan bool)
	for i := 0; i < k; i++ {
		go func() {
			c.Hit()
			done <- true
		}()
	}
	for i := 0; i < k; i++ {
		<-done
	}
}
