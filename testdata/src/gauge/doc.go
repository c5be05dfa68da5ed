// Package gauge is a Go idiom: an atomic gauge of the calls in progress,
// incremented before and decremented after each call (as conc's pool
// tests count running goroutines), and a Reset between batches.
// TestGauge runs a long call, a short one during it, and a Reset after
// both.
//
// Known bug: atomicity violation (WWW) on Gauge.running. Reset stores 0
// (gauge.go:21) while a call is still running, between its Add(1)
// (gauge.go:13) and its Add(-1) (gauge.go:15): the gauge ends at -1
// (TestGauge fails: running = -1).
//
// The short call's Add(1) and Add(-1) also fall between the long call's:
// that interleaving is no bug, because additions commute, and must not be
// reported (gaugefixed keeps only it).
//
// The long call's f sleeps, so its Add(1) and Add(-1) are two units (a
// unit never spans a blocking point): the report is the short call's
// unit, which has none. A schedule that puts the Reset inside it also
// runs the Reset before the long call's Add(-1), past the Reset's 500 ms
// sleep, and fails with running = -2; the serial orders of units that do
// the same fail with -1. -2 is a count only the split short call gives,
// so the effect is the interleaving's, not the sleep's (check's
// straddlesCall; session 54).
package gauge
