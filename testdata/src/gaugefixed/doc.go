// Package gaugefixed is the fixed twin of package gauge (an atomic gauge of
// the calls in progress).
//
// Fixed: Reset clears only the count of calls done, not the gauge of the
// calls in progress. What remains is the short call's Add(1) and Add(-1)
// falling between the long call's: additions commute, whatever their order
// the gauge ends at 0, so it is no atomicity violation. Nothing should be
// reported.
package gaugefixed
