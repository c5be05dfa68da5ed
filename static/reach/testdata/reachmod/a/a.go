// Package a has one function for each way a test reaches code: a call, a
// closure, an interface call, a callback from the standard library, a
// generic function, a goroutine, a method value, and one no test reaches.
package a

import (
	"sort"
	"sync"
)

type Counter struct {
	mu sync.Mutex
	n  int
}

func NewCounter() *Counter { return &Counter{} }

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Doer's implementations are reached through an interface call.
type Doer interface{ Do() int }

type X struct{}

func (X) Do() int { return 1 }

type Y struct{}

func (*Y) Do() int { return 2 }

func Run(d Doer) int { return d.Do() }

// byLen is sorted by sort.Sort, which calls Less back.
type byLen []string

func (b byLen) Len() int           { return len(b) }
func (b byLen) Less(i, j int) bool { return len(b[i]) < len(b[j]) }
func (b byLen) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

func SortByLen(s []string) { sort.Sort(byLen(s)) }

func Map[T any](xs []T, f func(T) T) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func double(x int) int { return 2 * x }

func Doubles(xs []int) []int { return Map(xs, double) }

// Spawn runs work in a goroutine.
func Spawn(c *Counter) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.Inc()
	}()
	wg.Wait()
}

// Apply calls a method value.
func Apply(c *Counter) {
	f := c.Inc
	f()
}

var initialized int

func init() { initialized = setup() }

func setup() int { return 1 }

// Lone is called by no test.
func Lone() int { return 42 }
