package condcountfixed

import (
	"sync"
	"time"
)

// Drain runs n producers, each queueing the items produce gives it and
// then counting itself finished, and a consumer that takes items off the
// queue until it is empty and no producer is left. It returns the items
// taken, or nil if the consumer did not finish within d.
func Drain(n int, produce func(int) []string, d time.Duration) []string {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	var q []string
	left := n
	for i := 0; i < n; i++ {
		go func() {
			items := produce(i)
			mu.Lock()
			q = append(q, items...)
			left--
			mu.Unlock()
			c.Signal()
		}()
	}
	out := make(chan []string, 1)
	go func() {
		var got []string
		mu.Lock()
		for {
			for len(q) == 0 && left > 0 {
				c.Wait()
			}
			if len(q) == 0 {
				break
			}
			got = append(got, q...)
			q = q[:0]
		}
		mu.Unlock()
		out <- got
	}()
	select {
	case got := <-out:
		return got
	case <-time.After(d):
		return nil
	}
}
