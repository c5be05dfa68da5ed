// Package pluseq adds to a counter with x += y and x++, without a lock,
// from two goroutines kept apart by a sleep: a replay that puts one
// goroutine's update between the other's read and write loses it.
package pluseq

// Counter counts.
type Counter struct{ n, m int }

// Add adds k to n.
func (c *Counter) Add(k int) { c.n += k }

// Inc adds one to m.
func (c *Counter) Inc() { c.m++ }
