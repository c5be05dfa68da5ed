// Package condcountfixed is condcount fixed: a producer counts itself
// finished under the Cond's lock, in the critical section that appends
// its items (drain.go:22), and signals after the unlock. The consumer's
// guard re-checks queue and count under the lock before each Wait, and a
// signaller's critical section comes wholly before or after the
// consumer's, so a signal that comes before a Wait comes after the state
// the guard then reads: no signal is lost (predict.SeenBeforeWait). The
// same with Signal or Broadcast under the lock. Nothing should be
// reported.
//
// This is the design an engineer reported as a false lost signal
// (deadlock/lost-signal, "reproduced as a deadlock"): the replay held the
// other producers at their gates once the schedule was done, so the
// consumer, waiting for them, looked blocked for ever. A lost signal's
// replay now lets every goroutine run free after the schedule
// (dynamic/rt's lostFree) and judges the Wait once nothing moves.
package condcountfixed
