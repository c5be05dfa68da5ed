// Package spinpool is a worker stack guarded by a spin lock of its own
// behind a sync.Locker, with a sync.Cond on it: the shape of ants' pool
// (github.com/panjf2000/ants/v2, pkg/sync's spinLock and poolCommon).
//
// Known bug: data race on Stack.items. Len reads the slice without the
// lock (stack.go:55) while Put appends under it (stack.go:36).
//
// What it checks of pecanvet: a type of the user's own with Lock and
// Unlock is a lock. Its CompareAndSwap loop is not data (no atomic-set
// violation between the lock word and the stack it guards), and a Take
// woken by a Signal does not keep the spin lock from the goroutine the
// schedule hands it to. go test -race flags the race in a single run.
package spinpool
