package wgwrongadd

import (
	"sync"
	"time"
)

// Fetcher fetches pages concurrently; it is not safe for concurrent use.
type Fetcher struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	sizes map[string]int
}

// FetchAll fetches every page and returns how many it fetched.
func (f *Fetcher) FetchAll(pages []string) int {
	f.sizes = map[string]int{}
	for _, p := range pages {
		go f.fetch(p)
	}
	time.Sleep(10 * time.Millisecond) // other work meanwhile
	f.wg.Wait()
	return len(f.sizes) // want "data race on map\\[string\\]int"
}

func (f *Fetcher) fetch(page string) {
	f.wg.Add(1) // want "WaitGroup\\.Add after Wait"
	defer f.wg.Done()
	time.Sleep(100 * time.Millisecond) // the request: FetchAll waits while it runs, even on a loaded machine
	f.mu.Lock()
	f.sizes[page] = len(page)
	f.mu.Unlock()
}
