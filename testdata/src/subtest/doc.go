// Package subtest is a Go idiom subject: a table-driven test whose cases
// run as parallel subtests (t.Run, t.Parallel) against one shared Tally.
//
// Known bug: a data race on Tally.n: Add's read and write (tally.go:12)
// in one parallel subtest against the same in the other; package testing
// runs parallel subtests concurrently, and Tally has no lock. The
// subtests are kept apart only by a time.Sleep. In the bad schedule an
// increment is lost and the parent's cleanup, which runs after its
// subtests, fails ("tally 1 after 2 cases").
//
// The parent's setup before t.Run and its cleanup after the subtests are
// ordered with them (t.Run starts a subtest after the caller's code before
// it; the parent waits for its subtests to end).
//
// go test -race flags it in a single run.
package subtest
