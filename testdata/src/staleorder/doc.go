// Package staleorder is a lock-order inversion down the path a stale
// read picks (issue 29; the shape of moby#4951): a Pool of connections
// under one lock, each connection with a lock of its own. Evict, holding
// the pool's lock, looks the connection up (pool.go:26) and, if it is
// there, locks it (pool.go:27) and drains it; drain drops the pool's lock
// while it flushes and takes it again, still holding the connection's
// lock, to delete the entry (pool.go:40). That goroutine then takes the
// two locks in the order conn, pool. The test evicts one connection from
// two goroutines, the second a little later (a time.Sleep keeps them
// apart): in an ordinary run it finds the entry gone and returns.
//
// Known bug: deadlock. If the second Evict's lookup runs while the first
// flushes, before its delete, it finds the connection and waits for its
// lock while holding the pool's; the first, back from the flush, waits
// for the pool's lock while holding the connection's. go test -race sees
// nothing: every access holds the pool's lock.
//
// pecanvet finds from the source that the lookup at pool.go:26 decides a
// path that takes another mutex while the pool's is held, predicts the
// schedule that runs that read before the delete it read (pattern
// deadlock/lock-order-stale), and proves it by a replay that ends with
// each Evict blocked in the lock the other holds.
package staleorder
