// Package wakeretry is a Go idiom subject after
// github.com/subchen/go-trylock/v2 v2.0.0's lock (pecanvet issue 26,
// trylock.go:151 asv): a readers-writer lock whose state is one atomic
// int32 (0 free, -1 a writer, n > 0 readers) and whose waiters sleep on a
// broadcast channel. A release that frees the lock (Unlock; RUnlock when
// its add leaves 0) broadcasts: it swaps a fresh channel into RW.ch under
// RW.lock and closes the one it replaced. Waiters fetch the channel
// before they try, so no release after a try is lost.
//
// Known bug: an atomic-set-serializability violation on RW.state and
// RW.ch. The writer's Lock takes a wake-up for the lock itself: woken, it
// stores -1 without trying again. RUnlock's add leaves 0 (lock.go:54) and
// decides its broadcast (lock.go:74); a reader that takes a share between
// the two (RLock's CAS, lock.go:37) holds the lock when the broadcast
// wakes the writer, which then holds it beside the reader; the reader's
// RUnlock finds -1 and panics ("wakeretry: RUnlock of an unlocked RW").
// The stale count decides a broadcast that wakes a waiter who trusts it.
// The fixed twin's writer goes round its loop when woken, as go-trylock's
// waiters do: a broadcast with nothing to wake is then a retry, and the
// same interleaving is harmless (static/depend's wakeRetried).
//
// Reported at lock.go:54 with the replay's panic when a member of the
// bug's group showed it (check's group: at one site, a lead with an effect
// before one without, since session 39), else with the check-then-act.
//
// go test -race flags nothing: every access is atomic or under RW.lock.
package wakeretry
