// Package jobqueue is a real-module subject (pecanvet issue 26, session
// 49; slok/goresilience v0.2.0's dynamicQueue, concurrencylimit/execute/
// queue.go, with a goroutine that can empty the queue): Drain tests
// empty(), `len(q.jobs) < 1` under the lock (queue.go:32), and when the
// queue is not empty takes the lock again to move its jobs to done as
// one batch (queue.go:44, :45); Clear sets the queue to nil (queue.go:24).
//
// Known bug: an atomicity violation (RWR/RWW) on Queue.jobs, a
// check-then-act: a Clear between the test and the move empties the
// queue, and Drain counts an empty batch (`1 batches, 0 jobs drained`,
// logged; the test passes: dependence only), which no serial order of
// Drain and Clear does. The test's answer on the emptied queue (empty)
// differs from the one Drain acted on, so static/depend's lenAlike must
// not excuse it: it must be reported. jobqueuefixed has one consumer and
// a producer that only appends, as goresilience's queue, and nothing may
// be reported there.
//
// go test -race flags nothing: every access holds the lock.
package jobqueue
