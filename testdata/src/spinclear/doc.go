// Package spinclear is a real-module subject's cousin (pecanvet issue
// 26, session 53; reugn/async v0.10.0's ConcurrentMap): Clear stores
// clearing true, swaps in an empty map and stores clearing false in a
// defer, and Get, where spinclearfixed's waits the Clear out, refuses
// with ErrClearing when it reads clearing true.
//
// Known bug: atomicity violation (av WRW) on Map.clearing: a Get that
// reads clearing (map.go:40) between Clear's Store(true) (map.go:29) and
// its deferred Store(false) (map.go:30) acts on the intermediate value
// and returns ErrClearing, which neither order of the Get and the whole
// Clear gives (TestClearGet: `Get: spinclear: map is being cleared`).
// pecanvet reports it at map.go:29. It is the boundary of
// static/depend's `spinWaits`: the read's value decides the return, not
// only whether a wait loop goes round.
//
// go test -race flags nothing: every access is atomic.
package spinclear
