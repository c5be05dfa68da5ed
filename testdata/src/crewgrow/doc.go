// Package crewgrow is a Go idiom subject after pond v2's worker loop
// (issue 26): a crew of workers takes queued jobs, each worker testing
// under the lock whether the crew is over its limit (crew.go:28) before
// it takes a job, and leaving, lowering the count, once the queue is
// empty (crew.go:24); Grow adds a worker that starts on a job of its
// own, raising the count without a test (crew.go:66).
//
// Known bug: atomicity violation (check-then-act, RWW) on Crew.n: a
// worker tests "not over" (crew.go:28) and runs its job while Grow's
// increment (crew.go:66) makes the crew one over its limit, and Grow's
// worker runs a job too: more jobs at once than max. The worker acts a
// round later on its stale test (it calls next again, whose leave at
// crew.go:24 lowers the count, because the test said go on). The test
// asserts nothing about the outcome, so no replay fails: pecanvet
// reports it through the dependence criterion. Every access of the
// count holds the mutex, so go test -race reports nothing.
package crewgrow
