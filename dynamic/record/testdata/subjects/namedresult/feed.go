package namedresult

import "time"

// Feed serves prices.
type Feed struct {
	cached int
	fetch  func() int
	wait   time.Duration
}

// New returns a feed whose refresh calls fetch; Latest waits up to wait.
func New(cached int, fetch func() int, wait time.Duration) *Feed {
	return &Feed{cached: cached, fetch: fetch, wait: wait}
}

// Latest returns the newest price it can get within the feed's wait.
func (f *Feed) Latest() (price int) { // want "data race on Feed\\.Latest\\.price"
	price = f.cached
	go func() {
		price = f.fetch()
	}()
	time.Sleep(f.wait)
	return
}
