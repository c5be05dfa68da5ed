// Package drvcursor has a cursor that locks while it steps (as bigcache's
// EntryInfoIterator does) and a store meant for concurrent use: only the
// store gets drivers; a cursor is each goroutine's own.
package drvcursor

import "sync"

// Store holds numbers.
type Store struct {
	mu sync.Mutex
	xs []int
}

// Put adds x.
func (s *Store) Put(x int) {
	s.mu.Lock()
	s.xs = append(s.xs, x)
	s.mu.Unlock()
}

// Len forgets the lock.
func (s *Store) Len() int { return len(s.xs) }

// Cursor walks a store.
func (s *Store) Cursor() *Cursor { return &Cursor{s: s, i: -1} }

// Cursor steps through a store's numbers.
type Cursor struct {
	mu    sync.Mutex
	s     *Store
	i     int
	cur   int
	valid bool
}

// SetNext moves to the next number and reports whether there is one.
func (c *Cursor) SetNext() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	c.i++
	c.valid = c.i < len(c.s.xs)
	if c.valid {
		c.cur = c.s.xs[c.i]
	}
	return c.valid
}

// Value is the number the cursor is at.
func (c *Cursor) Value() (int, bool) { return c.cur, c.valid }
