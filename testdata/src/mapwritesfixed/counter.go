package mapwritesfixed

import (
	"strings"
	"sync"
)

// Counter counts words.
type Counter struct {
	mu     sync.Mutex
	counts map[string]int
}

// New returns an empty counter.
func New() *Counter { return &Counter{counts: make(map[string]int)} }

// Add counts the words of text.
func (c *Counter) Add(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, w := range strings.Fields(text) {
		c.counts[strings.ToLower(w)]++
	}
}

// Count returns how often w was counted.
func (c *Counter) Count(w string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[w]
}
