// Package roombookfixed is roombook's desk with a test whose manager
// assigns green and cancels red (a delete) while a guest reserves blue:
// Reserve's check and its booking are still two critical sections, but
// the manager's writes are of other keys of the map, which change nothing
// the guest's lookup read. The trace names the map as one object (a
// race on it would be a race on its internals, as go test -race sees it);
// each element access also records its key's hash, and the atomicity and
// atomic-set patterns need all of a variable's accesses on one key
// (predict/search keysApart). Nothing should be reported; before keys, an
// atomicity violation on the map (RWW, the lookup deciding the booking)
// was.
package roombookfixed
