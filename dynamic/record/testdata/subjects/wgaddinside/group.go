package wgaddinside

import "sync"

// Group runs tasks concurrently and collects their results.
type Group struct {
	wg      sync.WaitGroup
	mu      sync.Mutex
	results []int
}

// Go runs f in a new goroutine.
func (g *Group) Go(f func() int) {
	go g.run(f)
}

func (g *Group) run(f func() int) {
	g.wg.Add(1)
	defer g.wg.Done()
	r := f()
	g.mu.Lock()
	g.results = append(g.results, r) // want "data race on Group\\.results"
	g.mu.Unlock()
}

// Wait waits for the tasks started with Go and returns their results.
func (g *Group) Wait() []int {
	g.wg.Wait()
	return g.results
}
