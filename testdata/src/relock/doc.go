// Package relock is a double lock that one schedule takes (issue 29): a
// Cache whose Get, holding the read lock, refreshes the entries when
// Invalidate has marked them stale (cache.go:23), and refresh takes the
// write lock (cache.go:33). The test calls Get, then Invalidate from
// another goroutine a little later (a time.Sleep keeps them apart), so an
// ordinary run reads stale = false and passes.
//
// Known bug: deadlock. If Invalidate runs before Get, Get reads stale =
// true and calls refresh with the read lock held: its Lock waits for
// Get's own read lock, for ever (sync.RWMutex is not reentrant). go test
// -race sees nothing: every access holds the lock.
//
// pecanvet finds from the source that the condition at cache.go:23
// decides a branch that locks c.mu again while Get holds it, predicts
// the schedule that runs Invalidate's write (cache.go:40) before that
// read, and proves it by a replay that ends with Get's goroutine blocked
// in refresh's Lock.
package relock
