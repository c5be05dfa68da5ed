// Package flight is a Go idiom after golang.org/x/sync/singleflight: Do
// marks its key pending, releases the lock while the call runs, and takes
// it again to clear the key and count the call. TestDo runs two calls on
// different keys, the second after the first.
//
// Known bug: atomicity violation (RWW) on Group.done. Do reads the count
// (flight.go:21) in its first critical section and writes it back plus one
// (flight.go:28) in its second; a call that finishes in between is lost
// (TestDo fails: done 1).
//
// Do's own unlock (flight.go:22) splits it on purpose: the other call's
// writes of Group.pending falling between this call's two writes of it is
// the point of publishing the pending key, has no effect, and must not be
// reported by default (flightfixed keeps only it).
package flight
