// Package counterid is a Go idiom subject (pecanvet issue 26: a counter
// read back for a metric against one read back for an id): Register
// hands out ids from an atomic counter, `r.next.Add(1)` then `id :=
// r.next.Load()` (registry.go:22, :23), files the name under the id and
// returns it; record counts the registration in a second counter and sets
// a gauge to its total (registry.go:33, :34).
//
// Known bug: atomicity violation (stale read-back, RWR) on Registry.next:
// another Register's add between the add and the load gives both callers
// the same id, and the second name overwrites the first in the map.
// TestRegister logs the ids and does not fail: it is reported by
// dependence (stale read-back: the id keys the map and is returned).
// The gauge's read-back of Registry.added, with another Register's add
// between, is no bug and must stay silent: the total is the gauge's
// purpose, and the other Register sets the gauge again after its own
// load (static/depend's `superseded`).
//
// go test -race flags nothing: every access is atomic or holds a lock.
package counterid
