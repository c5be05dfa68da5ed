// Package publishtake is a real-module subject (pecanvet issue 26; the
// shape of sethvargo/go-limiter v0.7.1's memorystore, with its bucket
// published before it is filled): Take looks the key's bucket up under
// a read lock, and on a miss makes an empty bucket, inserts it under the
// write lock, unlocks, and fills it and takes its first token under the
// bucket's own lock (fillTake).
//
// Known bug: atomic-set-serializability violation on the map and
// bucket.available: the first Take's insert (store.go:30) and its fill
// (store.go:38) are two critical sections of two locks; a second Take
// whose lookup (store.go:23) falls between them finds the bucket empty
// (store.go:46) and is refused (store.go:50), though the key's first use
// gave it three tokens: `take 1 refused` (TestTake fails). Without the
// test's check, the lookup decides the call of take that reads available
// (static/depend: inconsistent snapshot), and fillTake is another method
// than the take the reader ran, so the publisher does not use the bucket
// as any caller does. Every access is under a lock: go test -race
// reports nothing.
package publishtake
