// Package drvexpire is the expiry-worker shape of OrlovEvgeny/go-mcache's
// gcmap (trial 31): a package without test files whose type keeps the
// keys to expire under a mutex, next to time and sync, so that the
// drivers pecanvet generates for it (static/driver) import fmt, os,
// reflect and testing, which no package of the load imports: their
// type-check reads those from export data (dynamic/instrument's
// stdExports, one go list for all of them since session 50).
//
// Known bug: Expire appends the key under the mutex but counts it after
// letting the mutex go (expire.go:26): two concurrent Expire calls race
// on Expirer.pending, and one count is lost (Pending() = 1 where either
// order leaves 2): a data race and an atomicity violation (RWW) at
// expire.go:26, found only by a generated driver calling Expire and
// Expire. Pending's locked read (expire.go:33) races with it too (the
// check reports that race at expire.go:26, with the others: no want at
// :33).
// Expirer holds a sync.Mutex, so it is meant for concurrent use.
//
// -race, 1 run: no test to run.
package drvexpire
