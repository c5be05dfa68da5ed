// Package elevator is a Go version of the "elevator" simulation of the
// Penelope evaluation (section 6; originally from von Praun and Gross):
// lifts, one goroutine each, serve the calls pressed on the floors of a
// building. The building's list of pending calls is guarded by a mutex.
//
// Known bug: atomicity violation (RWR / RWW on Building.pending). A lift
// looks at the oldest pending call (nextCall, the read at elevator.go:29)
// and claims it (claim, the read and write at elevator.go:38) in two
// separate critical sections. If another lift claims the same call in
// between, both lifts travel to that floor and the next call is never served
// (TestTwoLifts fails: floor 3 served twice, floor 5 never).
//
// Note: Penelope reported that its predicted atomicity violations in the
// original elevator were benign (the original claims a call atomically).
// This version splits the claim on purpose, so that the subject has a real
// bug; its fixed twin is the atomic original.
//
// Every access is made with the mutex held, so go test -race does not flag
// it.
//
// Expected: the atomicity violations above are reported; the
// atomic-set-serializability violations between pending and served change
// no value the units go on to use (served is only incremented):
// interleavings without effect, shown with -v.
package elevator
