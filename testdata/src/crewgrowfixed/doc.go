// Package crewgrowfixed is crewgrow with Grow replaced by Hire, which
// adds a worker only below the limit, testing the count under the lock
// (crew.go:68) before it raises it (crew.go:72), as pond v2's trySubmit
// does (pool.go:417, :430). What is left is silent by design: a worker
// tests "not over" (crew.go:29) and takes a job, and a round later,
// finding the queue empty, leaves (crew.go:25); another worker's leave,
// or a Hire, can fall between (an atomicity violation on Crew.n that
// replay reproduces, as pond v2's readTask at pool.go:478, then :467),
// but a count lowered in between, or raised under Hire's test (to at
// most max), is still not over the limit: had the worker read it then,
// it would have taken the same branch, so nothing it went on to do
// depends on the stale value (static/depend's boundKept, guardKeeps).
// Nothing should be reported.
package crewgrowfixed
