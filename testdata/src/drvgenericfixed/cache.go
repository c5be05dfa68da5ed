package drvgenericfixed

import "sync"

// Cache maps keys to values. It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
	n  int // the entries stored, so that Len does not walk m
}

// New returns an empty cache.
func New[K comparable, V any]() *Cache[K, V] {
	return &Cache[K, V]{m: map[K]V{}}
}

// Add stores v under k unless k is present, and reports whether it
// stored it. The check and the store are one critical section.
func (c *Cache[K, V]) Add(k K, v V) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		return false
	}
	c.m[k] = v
	c.n++
	return true
}

// Len returns the number of entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
