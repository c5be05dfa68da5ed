// Package oncelockfixed is oncelock with Register calling init before it
// takes the registry's lock (the fix one writes for teivah/broadcast's
// Relay.Close too: not calling Do under the lock the Once's function
// takes). A lazily initialised registry whose function takes a lock that
// no caller of Do holds: the Once is still recorded as a lock, but no
// goroutine takes the two in the other order. Nothing should be reported.
package oncelockfixed
