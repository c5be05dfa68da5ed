// Package sweep is a Go idiom subject, beyond -race (the expiry loops of
// cache2go and go-cache): a cache whose Sweep ranges over its map under
// the lock and, for each expired entry, unlocks to call the eviction
// callback, then locks again and deletes the key.
//
// Known bug: atomicity violation (RWW) on the cache's map: the key the
// range yields at sweep.go:34 decides the delete at sweep.go:39, after the
// callback ran without the lock. Another goroutine's Set of that key can
// fall in between, and Sweep deletes the fresh entry: the value set is
// lost. The test asserts nothing about the outcome, so no replay fails:
// pecanvet reports it because the key read decides the delete (the
// dependence criterion). Every access holds the mutex, so go test -race
// reports nothing.
package sweep
