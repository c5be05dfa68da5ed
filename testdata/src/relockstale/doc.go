// Package relockstale is a double lock that one schedule takes, from a
// stale read (issue 29): a Registry that Load fills at startup, and whose
// Has, holding the lock, loads it first if it is not loaded yet
// (registry.go:18) by calling Load, which takes the lock again
// (registry.go:27). The test starts Load in a goroutine and calls Has a
// little later (a time.Sleep keeps them apart), so in an ordinary run Has
// finds the registry loaded and passes.
//
// Known bug: deadlock. If Has runs before Load's write of loaded
// (registry.go:29), it reads false and calls Load with r.mu held: Load's
// Lock waits for Has's own lock, for ever (sync.Mutex is not reentrant),
// and Load's goroutine waits behind it. go test -race sees nothing: every
// access holds the lock.
//
// pecanvet finds from the source that the condition at registry.go:18
// decides a branch that locks r.mu again while Has holds it, predicts the
// schedule that runs that read before the write it read (pattern
// deadlock/double-lock-stale), and proves it by a replay that ends with
// Has's goroutine blocked in Load's Lock.
package relockstale
