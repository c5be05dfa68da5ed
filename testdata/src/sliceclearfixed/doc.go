// Package sliceclearfixed is sliceclear with both writers clearing, the
// shape of uber-go/tally v4.1.17's clearMetrics (scope.go:553/:558/:567
// av, pecanvet issue 26): Drop sets the buffer's slice to nil
// (buffer.go:24, in Clear) and then sums what is left (buffer.go:37); a
// Clear between the two sets it to nil again (buffer.go:24). The replay
// reproduces that atomicity violation (av/WWR), but the read reads nil
// whichever write it sees, what the unit's own write left (static/depend's
// constBack, from check's Event.Prior: every write between stores the
// constant the unit stored). Nothing should be reported.
package sliceclearfixed
