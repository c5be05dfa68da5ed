// Package waitgate is a waiter count read outside its lock (pecanvet
// issue 26, session 33, branch locker; moby/locker v1.0.1's Locker with
// its count read moved after the release): a Gate lets one user in at a
// time. Enter counts itself as a waiter (gate.go:19), takes the lock,
// takes its count back (gate.go:21) and makes the buffer if the last
// user freed it (gate.go:22); Leave releases the lock and then frees the
// buffer when it counts no waiter (gate.go:33, :34). TestTwoUsers lets
// two users in 5 ms apart, so an ordinary run frees the buffer after
// each.
//
// Known bug: Leave reads the count after it let the next user in. A
// second Enter that counts itself while the first user is inside, and
// takes the lock and its count back before the first user's Leave reads
// the count, finds it 0: the first user frees the buffer the second is
// using, and the second's Use panics (index out of range), unlocked
// against the free (a data race on Gate.buf besides).
//
// pecanvet predicts the second Enter's add between the first user's own
// add (or its take-back) and its Leave's read (an atomicity violation on
// Gate.waiters, gate.go:19 and :21, stale read-back at gate.go:33: the
// lock no longer held there, nothing hands the decision on), and the
// free between the second user's nil check and its Use (gate.go:22),
// and proves them by replays that panic.
package waitgate
