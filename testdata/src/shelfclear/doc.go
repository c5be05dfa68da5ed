// Package shelfclear is a real-module cousin (pecanvet issue 26; the shape
// of uber-go/tally v4.1.17's registry and clearMetrics,
// scope_registry.go:120 and scope.go:555 asv, with the clear counting
// what it deleted): Purge looks a shelf up in the registry and clears it,
// returning how many items it cleared (-1 when none is listed); Drop
// unlists a shelf and clears it.
//
// Known bug: an atomic-set-serializability violation (asv-11) on the
// registry's map and the shelf's items: a Drop between Purge's lookup
// (shelf.go:36) and its clear's range (shelf.go:16), unlisting the shelf
// (shelf.go:51) and clearing it (shelf.go:17), makes Purge report a shelf
// found with 0 items cleared, which neither serial order gives (Purge
// first: 1; Drop first: -1). TestPurgeDrop's gate holds the Purge after
// its lookup, so the recorded run is that interleaving; it logs `Purge
// found the shelf and cleared 0 items` and does not fail: the bug is
// reported by dependence ("check-then-act: the value read at shelf.go:36
// decides the call of Shelf.clear that makes the read at shelf.go:16").
// Without the count the second clear deletes nothing a serial order keeps
// (shelfclearfixed); a clear that counts is no clear loop (static/depend's
// clearedAgain does not excuse it).
//
// go test -race flags nothing: every access holds a mutex.
package shelfclear
