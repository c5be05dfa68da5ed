// Package timedtest is a subject for control replays (issue 26): a hit
// counter whose test makes a timing assumption that a replay breaks.
//
// Known bug: atomicity violation (RWW, lost update) on Counter.n: Inc
// loads the count (timedtest.go:12) and stores it plus one
// (timedtest.go:13); another Inc's store in between is lost. The test
// (timedtest_test.go) starts two Incs, sleeps 50 ms, reads the count
// (which assumes both are done: they are in an ordinary run), counts its
// own hit, waits and checks the total. Under the schedule that puts a
// goroutine's store inside the test's own Inc, a goroutine is held past
// the sleep, so the early check fails (timedtest_test.go:26, a timing
// failure), and the lost update makes the total 2, not 3
// (timedtest_test.go:29, the interleaving's failure). A serial control
// of that schedule (the other goroutine's steps before or after the
// unit) fails only at :26, so the failure at :29 is the effect
// reported. Every access is atomic: go test -race reports nothing.
package timedtest
