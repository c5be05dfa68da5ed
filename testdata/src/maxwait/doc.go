// Package maxwait is a subject for the clock a replay holds (issue 26,
// session 49): a job queue with one worker that sheds jobs which waited
// longer than MaxWait (CoDel's shedding, after slok/goresilience v0.2.0's
// concurrencylimit/execute: queue.go's dequeuer, TestCodel's paced jobs,
// TestExecuteLIFO's 5 ms MaxWaitTime), and a real check-then-act.
//
// Known bug: atomicity violation (RWR/RWW, check-then-act) on Queue.jobs:
// the worker checks Len (queue.go:58) in one critical section and takes
// the first job (queue.go:75 read, :76 write) in another; a Cancel
// (queue.go:50, the test's shutdown) between them empties the queue, and
// the take panics ("index out of range [0] with length 0" at queue.go:75).
// Reported by that effect.
//
// The test (queue_test.go) also has a timing assumption: five jobs,
// submitted 2 ms apart, each 1 ms long, must all run (none waiting past
// the 5 ms MaxWait), which holds in an ordinary run. Under a replay whose
// clock ran with real time, held steps made jobs wait past MaxWait and
// the test failed for that too (see maxwaitfixed); the report above does
// not rest on it. Every access is under a mutex: go test -race reports
// nothing.
package maxwait
