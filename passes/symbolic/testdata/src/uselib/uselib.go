// Package uselib calls lib: its sequences include lib's summaries.
package uselib

import "lib"

func Use(c *lib.Counter) { // want Use:`^summary: read lib.Counter.n \[held lib.Counter.mu\], write lib.Counter.n \[held lib.Counter.mu\], read lib.Counter.n, write lib.Counter.n, write lib.Counter.n$`
	c.Lock()
	c.Inc()
	c.Unlock()
	c.Inc()
	c.Loop(2)
}
