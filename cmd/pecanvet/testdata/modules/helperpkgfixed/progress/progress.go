// Package progress reports a count while it is still counting, through
// the module's package tally: the race on Tally.n is tally's, but only
// progress's tests run its two sides at once.
package progress

import "example.com/helperpkgfixed/tally"

// Run counts k events and returns the count seen while counting and the
// final count.
func Run(k int) (seen, final int64) {
	var t tally.Tally
	done := make(chan struct{})
	t.Count(k, done)
	seen = t.N()
	<-done
	return seen, t.N()
}
