// Package heldshared is heldlock's lock-order checker (pecanvet issue 26;
// linkdata/deadlock v0.5.5's lockOrder) watching read locks: it records
// each lock as held when taken, one record per lock, and deletes the
// record when the lock is released, each under the checker's mutex; before
// a lock is taken it ranges over the held locks for its owner's (before,
// heldlock.go:56). The locks watched are sync.RWMutexes taken for reading,
// which two owners can hold at once, and both owners' records go under the
// one key of the lock.
//
// Known bug: an atomicity violation (RWW) on the held map, a lost write:
// one owner's RLock of b ranges over the held locks (heldlock.go:56) and
// uses what it finds (the order it records, heldlock.go:63); another
// owner read-locks b and records its hold (heldlock.go:82); the first
// takes b too, its record replacing the other's, and its RUnlock deletes
// b's record (heldlock.go:89) while the other still holds b: the other's
// hold is lost, and the checker misses the orders it takes locks in from
// then on. TestReport passes: reported by dependence ("lost write: the
// value read at heldlock.go:56 is used at heldlock.go:63, and the unit
// then overwrites it at heldlock.go:89"). The replay's trace shows the
// other owner's record still in place when the unit's own insert replaces
// it, so the delete is not spared (static/depend's spared): heldsharedfixed
// is the boundary.
//
// go test -race flags nothing: every access holds the checker's mutex.
package heldshared
