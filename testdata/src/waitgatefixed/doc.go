// Package waitgatefixed is waitgate fixed as moby/locker v1.0.1 is
// written: Leave reads the waiter count and frees the buffer before it
// releases the lock (gate.go:32–35), so a user that counted itself while
// the first one was inside is seen, and the buffer is kept for it.
//
// It is silent by design. The predicted schedule puts the second
// Enter's add (gate.go:19) between the first user's add or take-back
// (gate.go:19, :21) and its Leave's read (gate.go:32), and the replay
// reproduces it: the first user reads back the second's registration,
// not its own value, and keeps the buffer. But the count read back
// counts waiters for the lock the first user holds: it does nothing
// with it before its release, the second user takes the lock next, its
// Leave reads the count at the same site and finds what the first user
// alone would have found, and frees the buffer (check's `handed`,
// static/depend's `handedOn`; moby/locker's locker.go:41 and :46 avs of
// session 32's trial 18 were this). Main's build before it reported its
// gate.go:19 and gate.go:21 avs (stale read-back).
package waitgatefixed
