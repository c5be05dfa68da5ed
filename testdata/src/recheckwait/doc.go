// Package recheckwait is a real-module subject (pecanvet issue 26,
// session 52; the near miss of marusama/semaphore v2.5.0's Acquire):
// when full, Acquire fetches the broadcast channel under the read lock
// and waits on it, without loading the state again as recheckwaitfixed's
// does.
//
// Known bug: a lost wake-up. A Release between Acquire's load
// (sem.go:23) and its channel read (sem.go:32) swaps and closes the old
// channel first; Acquire then waits on the new one, which no Release
// will close, and TestWait fails ("Acquire did not return after
// Release"). pecanvet reports it as an atomicity violation (av RRW) at
// Release's load (sem.go:40): Acquire's load falls between it and
// Release's CAS and acts on the state before the Release; the
// atomic-set violation (asv-11) at sem.go:23 is the same failing test,
// shown with -v.
package recheckwait
