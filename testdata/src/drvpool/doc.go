// Package drvpool is the pool shape of issue 27: a goroutine pool built
// with a function literal (NewPool(2, func(x int) {...})), started by
// Start and stopped by Stop, whose Submit counts the jobs without the
// mutex that Submitted reads the count under. Its only test submits from
// one goroutine (pool_test.go:8-25), so no recorded run has two
// submitters: pecanvet finds the bug only through a generated driver
// (static/driver) whose setup is copied from TestPool (pool_test.go:9-16:
// the function literal over the test's own mutex and sum, and Start),
// which calls Submit(3) and Submit(4) from two goroutines and then the
// test's Stop. Built without the test, the pool has no started worker and
// every Submit blocks.
//
// Known bug: data races (RW, WW) on Pool.submitted between two Submits'
// unlocked increments (pool.go:37), and between Submit's increment and
// Submitted's locked read (pool.go:45). Two concurrent Submits can lose
// one count: Submitted() = 1 where either order leaves 2. Pool holds a
// sync.Mutex, so it is meant for concurrent use and each race is reported
// as any race is.
//
// -race, 1 run: the test has one submitter; no race.
package drvpool
