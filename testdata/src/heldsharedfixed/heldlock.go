package heldsharedfixed

import (
	"fmt"
	"sort"
	"sync"
)

// Checker records the locks each owner holds and the order in which it
// took them, to find two owners taking two locks in opposite orders.
type Checker struct {
	mu         sync.Mutex
	held       map[*Mutex]holder
	order      map[[2]*Mutex]string
	Inversions int
}

// holder is who holds a lock, and where it took it.
type holder struct {
	owner int
	site  string
}

// NewChecker returns an empty checker.
func NewChecker() *Checker {
	return &Checker{held: map[*Mutex]holder{}, order: map[[2]*Mutex]string{}}
}

// Mutex is a mutex whose Lock and Unlock the checker watches.
type Mutex struct {
	mu sync.Mutex
	c  *Checker
}

// NewMutex returns a mutex watched by c.
func (c *Checker) NewMutex() *Mutex { return &Mutex{c: c} }

// Lock locks m for owner, taken at site.
func (m *Mutex) Lock(owner int, site string) {
	m.c.before(m, owner)
	m.mu.Lock()
	m.c.taken(m, owner, site)
}

// Unlock unlocks m.
func (m *Mutex) Unlock() {
	m.c.released(m)
	m.mu.Unlock()
}

// before notes, for each lock owner already holds, that it took m after
// it, and counts an inversion when m was taken before it elsewhere.
func (c *Checker) before(m *Mutex, owner int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for o, h := range c.held {
		if o == m || h.owner != owner {
			continue
		}
		if _, ok := c.order[[2]*Mutex{m, o}]; ok {
			c.Inversions++
		}
		c.order[[2]*Mutex{o, m}] = h.site
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
func (c *Checker) taken(m *Mutex, owner int, site string) {
	c.mu.Lock()
	c.held[m] = holder{owner, site}
	c.mu.Unlock()
}

// released forgets m's holder.
func (c *Checker) released(m *Mutex) {
	c.mu.Lock()
	delete(c.held, m)
	c.mu.Unlock()
}
