// Package quietfirst is a key whose first instance is quiet: one site
// combination reproduced twice, first without effect or dependence, then
// with an effect (issue 26, "Stable").
//
// Counter's Get (the read at counter.go:15) and Set (the write at
// counter.go:22) each hold the mutex. Reset reads and then sets in two
// critical sections, the read deciding nothing; Incr does the same, the
// write built from the read. TestAReset runs a Set between Reset's two:
// an atomicity violation (RWW) on Counter.n whose interleaving ends as
// the Set-then-Reset order does, and whose value read is not used.
// TestBIncr runs two Incr: the same sites, the same pattern, one
// increment lost (TestBIncr fails: n = 1, want 2).
//
// Known bug: the atomicity violation (RWW) of Incr, reported with
// TestBIncr's failure. The tests are checked in their order, so
// TestAReset's instance of the combination is reproduced first; it has
// neither effect nor dependence and must not stand for the combination:
// before, the queue took the first reproduction as the combination's
// proof and never replayed TestBIncr's, and the bug was not reported.
package quietfirst
