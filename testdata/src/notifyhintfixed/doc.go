// Package notifyhintfixed is notifyhint with notify sending only a
// wake-up, as ttlcache's notifyExpiration does: the loop re-reads the
// queue under the lock when it wakes. It is silent by design: Add's
// check of the queue's first entry (expirer.go:22) can be stale by the
// time notify tests the pending flag (expirer.go:33), the loop having
// drained the queue and reset the flag between (asv, replayed), but the
// stale value only decides a call that re-tests its flag under the
// re-taken lock, writes only that flag and sends a wake-up whose
// receiver re-reads the queue: a redundant wake-up costs an idle pass
// (static/depend's relockedHint); nothing may be reported.
package notifyhintfixed
