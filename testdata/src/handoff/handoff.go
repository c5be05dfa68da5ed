package handoff

import "sync"

// call is one pending or finished computation for a key.
type call struct {
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
// pending shares it.
func (g *Group) Do(key string, fn func() int) int {
	g.mu.Lock()
	if c, ok := g.m[key]; ok { // want "atomicity violation on "
		v := c.val
		g.mu.Unlock()
		return v
	}
	c := new(call)
	g.m[key] = c
	g.mu.Unlock()

	v := fn()

	g.mu.Lock()
	c.val = v
	delete(g.m, key)
	g.mu.Unlock()
	return v
}
