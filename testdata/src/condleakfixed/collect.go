package condleakfixed

import (
	"sync"
	"time"
)

// Collect runs n producers and a consumer that takes their items off a
// queue guarded by a Cond; it returns the items the consumer took, or
// nil if it did not finish within d.
func Collect(n int, produce func(int) (string, bool), d time.Duration) []string {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	var q []string
	for i := 0; i < n; i++ {
		go func() {
			s, ok := produce(i)
			if !ok {
				s = "" // counted all the same: the consumer waits for n
			}
			mu.Lock()
			q = append(q, s)
			mu.Unlock()
			c.Signal()
		}()
	}
	out := make(chan []string, 1)
	go func() {
		var got []string
		taken := 0
		mu.Lock()
		for taken < n {
			for len(q) == 0 {
				c.Wait()
			}
			for _, s := range q {
				if s != "" {
					got = append(got, s)
				}
				taken++
			}
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
