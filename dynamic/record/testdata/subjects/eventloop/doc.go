// Package eventloop is a Go idiom: a goroutine that serves a for-select
// loop, applying each value it receives, and a reader of the value applied
// last. TestLoop sends two values, then reads the current one.
//
// Known bug: atomicity violation (WRW) on Loop.cur. Run marks the state
// Applying (loop.go:24, the write at loop.go:35 in set) before it writes
// the value (loop.go:25); a reader between the two sees Applying (TestLoop
// fails: reader saw -1).
//
// Run is one method call, but each receive is a blocking point: the loop
// is one unit of work per value, so the reader falling between the write
// of one value and that of the next is no violation and must not be
// reported (eventloopfixed keeps only it).
package eventloop
