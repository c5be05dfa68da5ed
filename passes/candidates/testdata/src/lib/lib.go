// Package lib has an unsynchronized counter and no concurrency of its own
// (fast path), but exports summaries of its methods as facts.
package lib

type Counter struct{ n int }

func (c *Counter) Inc() { c.n++ }

func (c *Counter) Get() int { return c.n }
