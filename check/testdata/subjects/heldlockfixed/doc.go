// Package heldlockfixed is heldlock with the holder's record made whole in
// one critical section (heldlock.go:82), as linkdata/deadlock's postLock
// does. What is left is silent by design: another goroutine's Holders or
// before ranges over the held locks between the record's insert and its
// delete when the lock is released (heldlock.go:89); the replay reproduces
// that atomicity violation (WRW), and the reader uses what it found. But
// the delete gives up the entry the insert made, at the same key, and the
// entry holds its value by value: the state between is the lock being
// held, which the checker exists to publish, not half of an update
// (static/depend's heldEntry; linkdata/deadlock's lockorder.go:47 av was
// this). Nothing should be reported.
package heldlockfixed
