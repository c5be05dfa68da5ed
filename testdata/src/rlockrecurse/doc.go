// Package rlockrecurse is a recursive read lock (issue 29; the shape of
// kubernetes#62464): Store.Get holds s.mu for reading (store.go:23) and
// calls Default, which read-locks s.mu again (store.go:15). The test runs
// Get in one goroutine and SetDefault, which write-locks s.mu
// (store.go:33), in another; a time.Sleep keeps them apart, so an
// ordinary run passes.
//
// Known bug: deadlock. sync.RWMutex forbids recursive read locking: if
// SetDefault's Lock comes between Get's read lock and Default's, the
// writer waits for Get's read lock, and Default's RLock waits behind the
// writer (a blocked Lock keeps new readers out). Both goroutines block for
// ever and the test hangs. go test -race sees nothing: there is no data
// race.
//
// pecanvet predicts it from the recorded run (a read lock taken again
// with the first held, and a writer of the same lock in another
// goroutine) and proves it by a replay that deadlocks with Get's
// goroutine blocked in store.go:15 and SetDefault's in store.go:33.
package rlockrecurse
