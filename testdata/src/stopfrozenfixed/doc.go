// Package stopfrozenfixed is ants v2.12.1's Pool, small and unbounded
// (pecanvet issue 26, session 32, branch ants): stopfrozen with revert
// re-checking IsClosed under the lock before it puts the worker back
// (ants.go:562, its issue 113's fix).
//
// Silent by design. A Submit whose fast check read "open" before
// Release's CAS and locked reset (an atomic-set violation, pattern 11,
// that replay reproduces: ants.go:380 asv, triaged false) finds the
// stack empty and starts a worker for its task: the task runs as if
// submitted just before Release, and the worker ends at its re-check.
// The stack stays empty after the stop, since its only grow re-checks
// the flag under the lock the reset runs under, so the stale "open" can
// leave nothing in it (static/depend's stopFrozen). Main's build before
// it reported pool.go:79 asv (check-then-act).
package stopfrozenfixed
