// Package countqueuefixed is slok/goresilience v0.2.0's dynamicQueue
// with its queueStats (concurrencylimit/execute/queue.go): one consumer,
// and a producer that counts its job and appends it (Push: inc at
// queue.go:52, the append at queue.go:17); the consumer tests empty()
// (queue.go:24, `len(q.jobs) < 1`), then takes the head and uncounts it
// (queue.go:36-38; dec reads the count at queue.go:58 and :59). Push's
// count and append, and TryTake's take and uncount, are each one
// critical section of the queue's lock; goresilience's are two, which
// lets a take fall between an enqueue's count and its append (an
// intermediate state, goresilience's queue.go:131 asv rows), a shape
// this subject leaves out.
//
// Silent by design: the predicted schedule moves the whole Push between
// TryTake's test and its dec (asv-12 on Queue.jobs and counter.size, as
// goresilience's queue.go:144 asv: the test, the producer's count and
// append, the consumer's read of the count at :59, whose value decides
// the empties count; reproduced), but the test's answer, not empty, is
// its answer on the queue Push leaves, and the replay's trace shows
// Push's steps free to run before the test's critical section: the
// consumer makes no access before them that they conflict with (its test
// against the append excepted), its take reads Push's append and its
// dec Push's count. Run first, Push leaves length 2 where the test read
// 1, false on both, and everything after as it was (static/depend's
// lenAhead, check's Event.Ahead). goresilience's queue.go:144 asv (jobs
// and queueStats.size) was this. Main's build before it reports the asv
// at queue.go:24 (check-then-act, via dec). Nothing should be reported.
package countqueuefixed
