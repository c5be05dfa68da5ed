// Package heldlock is a real-module subject (pecanvet issue 26; the shape
// of linkdata/deadlock v0.5.5's lockOrder, with the holder's record made
// in two steps): a lock-order checker records each lock as held when it is
// taken and forgets it when it is released, each under the checker's
// mutex, and before a lock is taken ranges over the held locks for its
// owner's (before, heldlock.go:57); Holders lists the held locks with the
// site that took each (heldlock.go:73). Here taken records the lock with
// its owner only (heldlock.go:83) and noted adds the site in a second
// critical section (heldlock.go:89).
//
// Known bug: an atomicity violation (WRW) on the held map: another
// goroutine's Holders (or before) reads the record between taken and noted
// and lists a held lock with no site ("1@"), a state no serial order of the
// two Locks shows. TestReport logs it and does not fail: it is reported by
// dependence ("intermediate state: another goroutine reads at
// heldlock.go:73 the value between the writes at heldlock.go:83 and
// heldlock.go:89"), the second write completing the first. The state
// between noted and released (heldlock.go:96), or taken and released, is a
// whole record of a held lock, which the checker exists to publish, and is
// not reported (static/depend's heldEntry).
//
// go test -race flags nothing: every access holds the checker's mutex.
package heldlock
