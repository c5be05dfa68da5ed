// Package jobqueuefixed is jobqueue with one consumer and a producer that
// only appends, as slok/goresilience v0.2.0's dynamicQueue has
// (concurrencylimit/execute/queue.go: the one dequeuer tests
// queueIsEmpty at :144, the enqueuer appends at :93, the dequeuer takes
// at :131). Silent by design: the predicted schedule moves the
// producer's Push (queue.go:14) between TryTake's test (queue.go:22) and
// its take (queue.go:33, :34) and the replay reproduces that atomicity
// violation (RWR, RWW; the value read at :33 used), but the test's
// answer, not empty, is its answer on the queue the take finds: the
// replay's trace records each store of Queue.jobs with the stored
// slice's length (trace.FlagLen), 1 before the test and 2 before the
// take, and empty's only load of the queue is used only through len,
// giving false on both (static/depend's lenAlike, check's Event.Len).
// goresilience's queue.go:144 av (RWR and RWW) was this. Main's build
// before it reports its queue.go:22 av (check-then-act). Nothing should
// be reported.
package jobqueuefixed
