// Package drvassign is a bus whose Publish counts deliveries without the
// lock Delivered reads them under. Its only test is sequential and sets the
// bus up with a subscriber that assigns the test's variable `last`, read
// only after the test's first Publish (simonfxr/pubsub's TestSubscribe and
// its `fired`).
//
// The generated driver copies TestPublish up to its first Publish. Before
// session 50 the copied setup declared `last` and only assigned it, the
// compiler said "declared and not used: last", and the driver was built
// without the setup, on a bus with no subscriber: its two Publish calls
// delivered nothing and the bug went unseen. A variable the setup only
// assigns is now marked used (`_ = &last`), so the driver keeps the setup.
// The mark takes the variable's address and reads nothing: the test's timer
// sets `ready` under its mutex, and a mark `_ = ready` was itself reported
// as a race in the driver file (cache2go's TestCallbacks).
//
// Known bug: data race on sub.delivered (bus.go:35); two concurrent
// Publish calls can leave Delivered() = 1 where either order leaves 2.
// Every other access holds the mutex, and go test -race flags nothing: the
// test publishes from one goroutine.
package drvassign
