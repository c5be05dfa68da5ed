// Package poolsum is a Go idiom: a package with no goroutine, channel or
// sync of its own hands a callback to a worker pool of its module
// (poolsum/workers), which runs it on goroutines of its own. Sum adds the
// squares of the items into one variable from the callback.
//
// Known bug: data race (RW, WW) on Sum.total: the callbacks add to it
// from the pool's goroutines (sum.go:10). The sum comes out short when two
// additions interleave (TestSum fails).
//
// pecanvet checks the package although it has no concurrency of its own,
// because a package of its module that it imports has some, and it records
// that package's goroutines and synchronization (not its plain accesses).
//
// go test -race flags it in a single run.
package poolsum
