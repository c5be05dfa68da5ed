package heldshared

import (
	"fmt"
	"sort"
	"sync"
)

// Checker records the locks each owner holds and the order in which it
// took them, to find two owners taking two locks in opposite orders.
type Checker struct {
	mu         sync.Mutex
	held       map[*RWMutex]holder
	order      map[[2]*RWMutex]string
	Inversions int
}

// holder is who holds a lock, and where it took it.
type holder struct {
	owner int
	site  string
}

// NewChecker returns an empty checker.
func NewChecker() *Checker {
	return &Checker{held: map[*RWMutex]holder{}, order: map[[2]*RWMutex]string{}}
}

// RWMutex is a reader/writer mutex whose read locks the checker watches.
type RWMutex struct {
	mu sync.RWMutex
	c  *Checker
}

// NewRWMutex returns a reader/writer mutex watched by c.
func (c *Checker) NewRWMutex() *RWMutex { return &RWMutex{c: c} }

// RLock read-locks m for owner, taken at site.
func (m *RWMutex) RLock(owner int, site string) {
	m.c.before(m, owner)
	m.mu.RLock()
	m.c.taken(m, owner, site)
}

// RUnlock read-unlocks m.
func (m *RWMutex) RUnlock() {
	m.c.released(m)
	m.mu.RUnlock()
}

// before notes, for each lock owner already holds, that it took m after
// it, and counts an inversion when m was taken before it elsewhere.
func (c *Checker) before(m *RWMutex, owner int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for o, h := range c.held { // want "atomicity violation on .*lost write"
		if o == m || h.owner != owner {
			continue
		}
		if _, ok := c.order[[2]*RWMutex{m, o}]; ok {
			c.Inversions++
		}
		c.order[[2]*RWMutex{o, m}] = h.site
	}
}

// Holders lists the locks held, as "owner@site", for a report.
func (c *Checker) Holders() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, h := range c.held {
		out = append(out, fmt.Sprintf("%d@%s", h.owner, h.site))
	}
	sort.Strings(out)
	return out
}

// taken records m as held by owner, whole.
func (c *Checker) taken(m *RWMutex, owner int, site string) {
	c.mu.Lock()
	c.held[m] = holder{owner, site}
	c.mu.Unlock()
}

// released forgets m's holder.
func (c *Checker) released(m *RWMutex) {
	c.mu.Lock()
	delete(c.held, m)
	c.mu.Unlock()
}
