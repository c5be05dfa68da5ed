// Package countqueue is a real-module subject (pecanvet issue 26, session
// 50; slok/goresilience v0.2.0's dynamicQueue with its queueStats,
// concurrencylimit/execute/queue.go, with a second consumer): TryTake
// tests empty(), `len(q.jobs) < 1` under the lock (queue.go:24), then in
// a second critical section takes at most one job (queue.go:36, :37) and
// uncounts one (dec, queue.go:68; its read of the count at queue.go:69
// decides whether the count reached zero), as goresilience's dequeuer
// runs decr after its dequeue whatever the dequeue found; Drain, a second
// consumer, takes every queued job at once (queue.go:47) and uncounts
// them (queue.go:62).
//
// Known bug: a check-then-act on Queue.jobs and counter.size: a Drain
// between TryTake's test and its take empties the queue and uncounts its
// jobs; TryTake then takes nothing and still uncounts one, and the count
// ends at -1 (logged; the test passes: dependence only), which no serial
// order of TryTake and Drain gives. Reported as the av (RWR/RWW) on
// Queue.jobs at queue.go:24, the asv on jobs and the count (test, Drain's
// nil and uncount, dec's read at :69) as the same bug. The test's answer
// on the queue Drain leaves (empty) differs from the one TryTake acted
// on (not empty), so neither static/depend's lenAlike (the av) nor its
// lenAhead (the asv, b on the count) may excuse it. countqueuefixed has
// one consumer and a producer that only counts and appends, as
// goresilience's queue, and nothing may be reported there.
//
// go test -race flags nothing: every access holds a lock.
package countqueue
