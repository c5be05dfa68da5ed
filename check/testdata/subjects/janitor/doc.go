// Package janitor is a Go idiom subject, beyond -race: a timer-driven
// loop (Run) that, on each tick, counts the entries touched since the
// last sweep (count) and resets the count (reset) in two critical
// sections, then sends the count on a channel.
//
// Known bug: atomicity violation (lost write, RWW) on Janitor.dirty: the
// count read at janitor.go:29 is sent on (used), and the reset at
// janitor.go:36 overwrites the variable; a Touch between the two is
// never counted. The test asserts nothing about the counts, so no replay
// fails: pecanvet reports it because the value read is used and the
// variable then overwritten (the dependence criterion). Every access
// holds the mutex, so go test -race reports nothing.
package janitor
