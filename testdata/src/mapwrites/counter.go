package mapwrites

import "strings"

// Counter counts words.
type Counter struct {
	counts map[string]int
}

// New returns an empty counter.
func New() *Counter { return &Counter{counts: make(map[string]int)} }

// Add counts the words of text.
func (c *Counter) Add(text string) {
	for _, w := range strings.Fields(text) {
		c.counts[strings.ToLower(w)]++ // want "data race on " "atomicity violation on "
	}
}

// Count returns how often w was counted.
func (c *Counter) Count(w string) int { return c.counts[w] }
