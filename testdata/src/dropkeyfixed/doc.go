// Package dropkeyfixed is dropkey without the count, the shape of tally's
// subscope: Drop looks a name up under the read lock and, when it found
// it, calls removeWithRLock, which drops the read lock and deletes the name
// under the write lock. Two Drops of one name can still both find it
// (cache.go:29) and both delete it (cache.go:45), and the replay reproduces
// that atomicity violation (RWW), but the second delete, of a key no
// longer there, is a no-op, and the lookup decides nothing else: the state
// after is the serial order's, the second Drop finding nothing
// (static/depend's idleDelete). Tally's scope_registry.go:269 av is this
// interleaving, but its path also reports the scope it found and clears
// its metrics, which the report loop did too: that stays judged. Nothing
// should be reported.
package dropkeyfixed
