// Package namelockerfixed is moby/locker's Locker (github.com/moby/locker
// v1.0.1) with one hook added: Lock(name) finds or makes the name's entry
// under l.mu (locker.go:47, :50; a mutex and a count of waiters), counts
// itself on it, and locks the entry; Unlock looks the entry up again
// (:68) and deletes it only when no one is counted on it (:75). The
// hook, a pause between the count and the lock of the entry, lets the
// test hold the first user u there at a gate (a mutex, which orders
// nothing for the predictor and does not end u's unit) while the second
// user r finds u's entry (:47) between its create (:50) and u's delete
// (:75), takes the name's lock first, and in its Unlock (:68) keeps the
// entry for u, still counted: r is done with the entry, its count taken
// back and the lock released, before the delete, and what it found is
// the entry its own Lock would have made, run first (static/depend's
// madeEntry). Main's build before that rule reported the :50 av
// (intermediate state, the reader at :47 and at :68), moby/locker's
// locker.go:81 av. Nothing should be reported.
//
// It has no buggy twin: a variant counting itself after l.mu's release
// (moby's shape before its fix), under the same test, never had the
// harmful order predicted (its Unlock deleting the entry before the
// reader counts itself): in the passing recording the unit's count read
// reads the reader's take-back, an atomic read-from that every predicted
// order keeps. The rule's must-not-fire cases are static/depend's
// TestJudgeMadeEntry and check's TestSettled and TestSettledSince.
package namelockerfixed
