//go:build go1.21

// Package loopvarold is a Go idiom subject written in Go 1.21 (the
// //go:build line sets the file's language version; every file of the
// package has it): a Dispatcher starts one worker goroutine per job, pacing
// the starts, and each worker's closure captures the range loop's value
// variable.
//
// Known bug: data race on the loop variable job. Before Go 1.22 a range
// loop declares its iteration variables once for the whole loop: the
// assignment of the next iteration (dispatch.go:18) writes the variable the
// previous worker reads (dispatch.go:22) without synchronization. The pace
// (a time.Sleep, not synchronization) lets every worker read its job first
// in an ordinary run; if the next iteration's assignment comes first, a job
// is processed twice and another never (TestRun fails).
//
// go test -race flags it in a single run. The fixed twin is the same code
// with Go 1.22 semantics.
package loopvarold
