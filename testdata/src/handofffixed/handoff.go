package handofffixed

import "sync"

// call is one pending or finished computation for a key.
type call struct {
	wg  sync.WaitGroup
	val int
}

// Group runs one computation per key at a time, as singleflight does:
// a duplicate caller finds the pending call and takes its result.
type Group struct {
	mu sync.Mutex
	m  map[string]*call
}

// New returns an empty group.
func New() *Group { return &Group{m: map[string]*call{}} }

// Do returns fn's result for key; a caller that finds the key's call
// pending waits for it and shares its result.
func (g *Group) Do(key string, fn func() int) int {
	g.mu.Lock()
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.val
	}
	c := new(call)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()

	c.val = fn()
	c.wg.Done()

	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
	return c.val
}
