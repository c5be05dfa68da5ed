// Package shutdownclose is two closes of one channel (pecanvet issue 26;
// the shape of go-sse v0.12.0's Joe.Shutdown): Shutdown closes the hub's
// done channel (hub.go:20) under a deferred recover that turns the second
// close's panic ("close of closed channel") into ErrClosed. The test's
// owner shuts the hub down and wants nil; a signal handler shuts it down
// 5 ms later and ignores the error, so an ordinary run passes.
//
// Known bug: the owner assumes its Shutdown is the first. If the signal
// handler's close runs first, the owner's close panics, is recovered, and
// its Shutdown returns ErrClosed: the test fails. Two closes are no data
// race (a close synchronizes; go test -race reports nothing): the pair is
// a bug only for this effect, which the replay of the reversed closes
// shows.
package shutdownclose
