// Package divergecta is a Go idiom subject: a Table creates one Entry per
// key on first use, counting the creations, and then counts a use of it.
//
// Known bug: atomicity violation (check-then-act across two critical
// sections) on the map: Use reads t.m[k] under the lock (table.go:18),
// releases it, and creates and stores the entry under the lock again
// (table.go:23) if it found none. In the recorded run the second caller
// comes 5 ms later, finds the entry and only counts a use (table.go:28).
// The predicted av/RWR (the second caller's read at table.go:18, the
// first's write at table.go:23, the second's read at table.go:28) moves
// the second caller's check ahead of the first's store: it finds no entry
// and takes the other branch (its lock at table.go:22, where the schedule
// expects the one at table.go:27), so the replay diverges before the
// schedule's end. pecanvet goes on from there with the program running
// free (an exploration after a changed read): both callers create and
// count an entry, `created 2 entries, want 1` (TestUse fails). Every
// access holds the lock: go test -race reports nothing.
package divergecta
