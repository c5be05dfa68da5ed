// Package crewgrowfixed is crewgrow without Grow: the crew's workers are
// all started by Start, before any of them runs, so while they run the
// count only goes down (a worker leaving). What is left is silent by
// design: a worker tests "not over" (crew.go:29) and takes a job, and a
// round later, finding the queue empty, leaves (crew.go:25); another
// worker's leave can fall between (an atomicity violation on Crew.n that
// replay reproduces, as pond v2's readTask at pool.go:478, then :467),
// but a count lowered in between is still not over the limit: had the
// worker read it then, it would have taken the same branch, so nothing
// it went on to do depends on the stale value (static/depend's
// boundKept). Nothing should be reported.
package crewgrowfixed
