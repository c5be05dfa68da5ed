// Package wakeretryfixed is wakeretry with the writer's Lock going round
// its loop when woken, as go-trylock v2.0.0's waiters do: it fetches the
// channel, tries its CAS again, and waits again if the lock is taken.
// RUnlock's stale count (lock.go:54) still decides a broadcast that may
// come after another reader took a share, but the broadcast only swaps in
// a fresh channel and closes the one it read under RW.lock, and every
// waiter it wakes starts its loop over: the wake-up is a retry
// (static/depend's wakeRetried). Nothing should be reported.
package wakeretryfixed
