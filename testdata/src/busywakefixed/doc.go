// Package busywakefixed is golang-queue/queue v0.3.0's metric and
// schedule as they are (busywake's Pool), with the limit above the busy
// count: two workers busy, a limit of 3 (WithWorkerCount(4) and its
// start loop in golang-queue's TestMetricData).
//
// It is silent by design. A worker's decrement (pool.go:23), another
// worker's decrement, then the first one's read-back under the lock
// (pool.go:26) replay (av RWR/WWR on Pool.busy, a stale read-back that
// decides the wake-up), but the test's first schedule, with the two
// workers busy, read the count at the same site, compared it with the
// same limit (unwritten since) and woke the dispatcher, on a value at
// least the first worker's own (2, beside its 1: every write of the
// count is an atomic add of a constant, so the replay's adds give the
// difference): on its own value the worker would have woken it too, as
// it did (check's `witnesses`, from the replay's own trace;
// static/depend's `witnessKept`; golang-queue's metric.go:40 av was
// this). Nothing should be reported.
package busywakefixed
