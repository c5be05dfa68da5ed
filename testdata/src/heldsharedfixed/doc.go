// Package heldsharedfixed is heldshared with the watched locks exclusive
// (sync.Mutex), as heldlockfixed's: a lock has one holder at a time, whose
// Unlock deletes its record before the next holder's Lock inserts its own.
// What is left is silent by design. In TestReport the first owner holds a
// while the second takes and releases b, then takes b itself; the
// predicted schedule moves the second owner's range over the held locks
// (heldlock.go:56), in its Lock of b, before the first owner's whole Lock
// and Unlock of b, which insert b's record (heldlock.go:82) and delete it
// (heldlock.go:89), and the replay reproduces that atomicity violation
// (RWW: the range, the other's insert, the unit's delete at
// heldlock.go:89), the range's value used (heldlock.go:63). But a map write
// replaces one element: the other owner's record was deleted by its own
// Unlock, and the unit's delete removes the record its own Lock inserted
// after that, so no write of the other's is lost (static/depend's spared,
// from the replay's trace: check's Event.Spares). heldlockfixed's
// heldlock.go:56 av, reported once under load in session 46's
// TestFixedTwins, is this shape; the test's hold of a makes its order the
// recorded one here. Nothing should be reported.
package heldsharedfixed
