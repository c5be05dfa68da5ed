// Package jobqueue is a real-module subject (pecanvet issue 26, session
// 49; slok/goresilience v0.2.0's dynamicQueue, concurrencylimit/execute/
// queue.go, with a second consumer): TryTake tests empty(),
// `len(q.jobs) < 1` under the lock (queue.go:22), and when the queue is
// not empty takes the lock again to take the head (queue.go:32, :33).
//
// Known bug: an atomicity violation (RWR/RWW) on Queue.jobs, a
// check-then-act: the other consumer's take between the test and the
// take empties the queue, and q.jobs[0] panics (index out of range),
// which no serial order of the two TryTakes does: the second finds the
// queue empty. The test's answer on the emptied queue (empty) differs
// from the one it acted on, so static/depend's lenAlike must not excuse
// it: it must be reported. jobqueuefixed has one consumer and a producer
// that only appends, as goresilience's queue, and nothing may be
// reported there.
//
// go test -race flags nothing: every access holds the lock.
package jobqueue
