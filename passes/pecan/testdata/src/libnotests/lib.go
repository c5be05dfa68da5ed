// Package libnotests runs a goroutine and has no tests, and no type whose
// methods a generated driver would call from two goroutines: the analyzer
// has nothing to run for it.
package libnotests

// Counter counts; nothing in it is meant for goroutines.
type Counter struct{ n int }

// Add adds d.
func (c *Counter) Add(d int) { c.n += d }

// Sum adds xs up on another goroutine.
func Sum(xs []int) int {
	done := make(chan int)
	go func() {
		var c Counter
		for _, x := range xs {
			c.Add(x)
		}
		done <- c.n
	}()
	return <-done
}
