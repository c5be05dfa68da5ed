package wgwrongaddfixed

import (
	"sync"
	"time"
)

// Fetcher fetches pages concurrently; it is not safe for concurrent use.
type Fetcher struct {
	calls sync.Mutex // one FetchAll at a time: each replaces sizes
	wg    sync.WaitGroup
	mu    sync.Mutex
	sizes map[string]int
}

// FetchAll fetches every page and returns how many it fetched.
func (f *Fetcher) FetchAll(pages []string) int {
	f.calls.Lock()
	defer f.calls.Unlock()
	f.sizes = map[string]int{}
	for _, p := range pages {
		f.wg.Add(1)
		go f.fetch(p)
	}
	time.Sleep(5 * time.Millisecond) // other work meanwhile
	f.wg.Wait()
	return len(f.sizes)
}

func (f *Fetcher) fetch(page string) {
	defer f.wg.Done()
	time.Sleep(10 * time.Millisecond) // the request
	f.mu.Lock()
	f.sizes[page] = len(page)
	f.mu.Unlock()
}
