// Package busywake is a real-module subject (pecanvet issue 26, session
// 37; golang-queue/queue v0.3.0's metric and schedule): a worker that
// finishes takes itself off the busy count (an atomic add, pool.go:23)
// and then, under the pool's lock, reads the count back through a getter
// (pool.go:26) and wakes the dispatcher when it is below the limit, a
// plain field.
//
// Known bug: atomicity violation (stale read-back, RWR/WWR) on
// Pool.busy. Two workers are busy and the limit is 1: run one after the
// other, the first sees 1 (not below) and the second 0, and the
// dispatcher is woken once; with the second worker's decrement between
// the first one's and its read-back, both read 0 and both wake it: `2
// wake-ups for 2 workers done, a serial order gives 1`
// (pool_test.go:31, logged; the test passes: dependence only). The
// test's first schedule, with no worker busy, read 0 and woke the
// dispatcher, but the first worker's own value is 1: no earlier read
// that woke it read as much, so nothing tells that its own value would
// have woken it too (static/depend's witnessKept must not excuse it).
// Every access is atomic or holds the lock, so go test -race reports
// nothing.
package busywake
