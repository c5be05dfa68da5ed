// Package recurretryfixed is recurretry fixed: Advance steps the index
// with CompareAndSwap (window.go:26) from the value it loaded through its
// getter (window.go:10), and calls itself again, with its own argument,
// both when the swap fails and for the next step (cep21/circuit's
// RollingBuckets.Advance). Each call is a round of a retry loop: its load
// reads the index afresh, and its CAS validates it. Nothing should be
// reported.
//
// pecanvet's dependence criterion (static/depend's casloop.go: failsBack
// takes the re-call for the loop's back edge, a getter's call for the
// load) keeps quiet here; without it, it reported an intermediate state
// on Index.Int64 (another Advance's load between two steps of one, the
// second in the re-call) at window.go:26, and could report a stale
// read-back (the re-call's load finding another's CAS).
package recurretryfixed
