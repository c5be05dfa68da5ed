// Package oncerunfixed is oncerun with Listener.Close taking the relay's
// lock before the listener's Once, the order Relay.Close takes them in:
// whichever call of Do runs the function, it holds the relay's lock, and
// no goroutine waits in Do holding a lock the function needs. Nothing
// should be reported.
package oncerunfixed
