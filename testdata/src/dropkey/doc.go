// Package dropkey is a real-module cousin (pecanvet issue 26; the shape of
// uber-go/tally v4.1.17's subscope and removeWithRLock, scope_registry.go:269
// and :296): Drop looks a name up under the read lock and, when it found
// it, calls removeWithRLock, which drops the read lock, deletes the name
// under the write lock and counts the drop.
//
// Known bug: an atomicity violation (RWW) on the entries map: two Drops of
// one name both find it (cache.go:30), both delete it (cache.go:46), and
// both count a drop, which neither serial order does (the second Drop
// finds nothing). TestDrop's gate holds both Drops after their lookup; it
// logs `drops = 2, want 1` and does not fail: the bug is reported by
// dependence ("check-then-act: the value read at cache.go:30 decides the
// call of Cache.removeWithRLock that makes the write at cache.go:46"). The
// second delete alone is a no-op (dropkeyfixed), but the count that the
// stale lookup also decides is not (static/depend's idleDelete does not
// excuse it).
//
// go test -race flags nothing: every access holds a mutex.
package dropkey
