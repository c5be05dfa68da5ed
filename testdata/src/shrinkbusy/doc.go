// Package shrinkbusy is a hang that a recorded run shows (issue 29),
// viney-shih/goroutines v1.1.3's recycler in small: shrink stops the
// workers past the size asked for while it holds the pool's lock
// (pool.go:63), and a worker busy in a task takes its stop only when the
// task ends (pool.go:36). The test's task waits for the test
// (pool_test.go:11), and the test, before it lets the task go, asks for
// the pool's size (pool_test.go:15), which takes the lock (pool.go:83).
//
// Known bug: a hang for good (goroutines' TestPoolSuite hung so, under
// go test and under go test -race). The recycler waits in its send for
// the busy worker, the worker in its task for the test, the test in
// Workers for the recycler's lock; the idle worker waits in its select
// (pool.go:35) on two channels of the pool. go test -race sees nothing:
// there is no data race.
//
// pecanvet's recording hangs. The idle worker's select has no case a
// timer could ready (both channels are the pool's, bidirectional), so
// the recorder's hang watcher counts it as a wait only another goroutine
// could end, as it counts the recorded send, receive and lock (dynamic/rt:
// markHardSelects): it ends the run as hung and writes the blocked
// operations, and a replay of the recorded order proves that the process
// hangs with the test blocked in its Lock (check/observedhang.go). Before
// it, the watcher counted the select as a wait a timer might end and cut
// the recording as "stalled", reporting nothing.
package shrinkbusy
