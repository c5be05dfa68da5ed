// Package casstate is a Go idiom subject, after go.uber.org/ratelimit's
// atomic limiter: a Window's bounds are published through an
// atomic.Pointer and read through it without a lock.
//
// Known bug: atomic-set-serializability violation (inconsistent snapshot)
// on bounds.start and bounds.end. Slide moves the published bounds in
// place, start (window.go:33) and end (window.go:36) in two critical
// sections; a Width between them reads start new and end old
// (window.go:46) and returns a width short by the slide (TestSlide fails:
// width 5, want 10). Every access holds the lock: go test -race reports
// nothing.
//
// casstatefixed builds each new bounds in a variable of its own and
// publishes it with one compare-and-swap: what a reader loads was written
// whole before it could load it. There pecanvet used to move another
// Slide's load of the pointer before the CAS that published what it read,
// and so read the fresh bounds half written: a snapshot no run can read
// (ratelimit's limiter_atomic.go:80 asv). Nothing may be reported there.
package casstate
