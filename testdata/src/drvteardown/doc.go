// Package drvteardown is the shape of ristretto's Cache and its
// unexported defaultPolicy (session 23's trial 8), with the policy closed
// at run time: Cache.Reset swaps in a new policy and closes the old one
// (cache.go:36) while a Get that took the old one before the swap
// (cache.go:25-27) may still push into it. The tests are one goroutine
// each (cache_test.go), so pecanvet finds the bug through a generated
// driver (static/driver) calling Cache's Get and Reset from two
// goroutines. The package calls policy.Close at run time, not only as a
// step of its owner's teardown, so the drivers of policy's own Close are
// made too (static/driver ownerTeardown keeps them).
//
// Known bug: data race between Push's send on the policy's channel
// (policy.go:23) and Close's close of it (policy.go:35): a Push that
// passed the closed check (policy.go:19) before Reset closed the old
// policy sends on the closed channel, "panic: send on closed channel".
// The same Push reads the closed flag (policy.go:19) that Close writes
// after the close (policy.go:36) with nothing between: a data race of its
// own, reported with the same panic since session 33 (a combination is
// no longer settled by its first reproduction, which had no effect).
//
// -race, 1 run: the tests have one goroutine each; no race.
package drvteardown
