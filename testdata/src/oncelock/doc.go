// Package oncelock is a deadlock through sync.Once's internal lock (issue
// 29; teivah/broadcast v0.1.0's Relay.Close and Listener.Close are this
// shape): the first call of Registry.init runs its Once's function, which
// locks the registry (registry.go:21), while Register holds that lock
// (registry.go:38) and calls init (registry.go:40). Once.Do makes every
// other caller wait until the function returns, so a Once is a lock held by
// the call that runs the function. The test runs Default and, 5 ms later,
// Register; an ordinary run passes.
//
// Known bug: lock-order inversion (deadlock) between the Once and
// Registry.mu. If Default's call enters Do (registry.go:20) and Register
// then takes the lock (registry.go:38) before the function takes it, each
// waits for the other: Register in Do for the function to return, the
// function for the lock. The test hangs. go test -race sees nothing: there
// is no data race.
//
// pecanvet records each Do as a lock of the Once, held by the call that
// runs the function while it runs, predicts the inversion and proves it by
// a replay that deadlocks.
package oncelock
