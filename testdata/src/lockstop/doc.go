// Package lockstop is a hold-and-wait deadlock between a mutex and a
// stop channel (issue 29; moby#28462's shape): a poller's loop
// (poller.go:24) selects on its unbuffered quit channel and a timer whose
// branch polls under the poller's lock (poller.go:34) and comes back to
// the select. Stop sends on quit holding that lock (poller.go:43).
//
// Known bug: deadlock. When the timer fires just as Stop takes the lock,
// the loop takes its timer branch and waits for the lock that Stop holds,
// while Stop waits in its send for the loop to come back and receive:
// both are blocked forever (poller.go:43 and poller.go:34). The test
// passes all the same when the loop is waiting in its select when Stop
// comes (it usually is: a poll takes no time). go test -race sees nothing.
//
// pecanvet predicts it from the recorded run (the loop's receive of the
// quit send, a case of a select whose other branch loops back, where the
// sender holds a lock the loop takes) and proves it by a replay that
// holds the sender at its send, has the select take its timer branch,
// and then lets everything run: the process hangs with the loop blocked
// in the lock and Stop in its send.
package lockstop
