// Package drvgeneric is the ledger shape of issue 27 in a generic type: a
// Cache[K, V] whose Add checks that the key is absent in one critical
// section and stores it (and counts it) in another, a check-then-act.
// Its only test is sequential: it adds "a" twice and expects the second
// Add to store nothing (cache_test.go:7-17).
//
// Generated drivers used to skip generic types. The driver is now an
// instance of the type: the one TestAdd builds (New[string, float64]()),
// with its setup copied up to its first Add, calling Add("a", 1) and
// Add("a", 2) from two goroutines. In the recorded run the second check
// sees the first store and returns false; the drivers' stale-read pattern
// moves the second check before the first store.
//
// Known bug: atomicity violation on the cache's map between the check at
// cache.go:21 and the store at cache.go:27. Both Adds store and leave
// Len() = 2, which neither order gives (one of them returns false and
// Len() is 1).
//
// Every access holds the mutex, so go test -race flags nothing, and the
// test, being sequential, shows nothing either.
package drvgeneric
