// Package notifyhint is a real-module subject (pecanvet issue 26; the
// shape of ReneKroon/ttlcache v2.11.0's SetWithTTL and notifyExpiration,
// with a wake-up that carries what the check saw): Add queues a deadline
// under the lock, reads the queue's first entry, unlocks, and when its
// entry is first calls notify, which under the lock again tests the
// pending flag, sets it, takes the queue's first deadline and sends it
// to the loop. Run, woken or not, resets the flag and drains the queue
// under the lock.
//
// Known bug: atomicity violation on Expirer.queue: Add's append
// (expirer.go:21) and notify's read of the first entry (expirer.go:38)
// are two critical sections; if the loop drains the queue between them
// (expirer.go:49, after resetting the flag at expirer.go:47), notify's
// fresh test of the flag (expirer.go:33) lets it through and it indexes
// the empty queue: `index out of range [0] with length 0` (TestAdd
// panics). The same interleaving seen from the check (Add's read at
// expirer.go:22, then notify's flag) is an asv whose method acts on the
// checked queue past its fresh test (static/depend's relockedHint does
// not excuse it). Every access is under the lock: go test -race reports
// nothing.
package notifyhint
