// Package stopleak is the commonest goroutine leak of a worker loop with
// a quit channel (issue 29; grpc-go#660's shape): the loop Start runs
// starts each probe in a goroutine that sends its outcome on an
// unbuffered channel (monitor.go:25), and waits for it in a select
// (monitor.go:30) that also receives from the quit channel
// (monitor.go:28), which Stop closes from another goroutine
// (monitor.go:42).
//
// Known bug: goroutine leak. When Stop comes during a probe, the loop
// returns through its quit case and nobody ever receives the probe's
// outcome: the probe's goroutine blocks forever in its send
// (monitor.go:25). The test passes all the same (it checks only that the
// monitor stopped and counted); only a leak checker run after it would
// see the goroutine left, when the test stopped the monitor mid-probe
// (as it usually does: a probe takes 2 ms of each round). The test
// sleeps 9 ms and then waits until a round is counted before it stops
// the monitor: under load one round can take longer than 9 ms, and a
// test that stopped before any round (failing "no round counted") would
// record no probe's send and receive to predict from. go test -race
// sees nothing: there is no data race.
//
// pecanvet predicts the leak from the recorded run (a send and its
// receive, the receive a case of a select whose quit case saw the
// channel closed by another goroutine) and proves it by a replay that
// runs the close before the select, holds the sender at its send until
// the select has returned through its quit case, and then lets it send:
// the test returns with the sender blocked in monitor.go:25. When the
// recorded run itself stopped the monitor mid-probe, the sender is
// blocked there at the test's end: the channel is local to run, which
// alone receives from it and has returned, so that observed leak
// (check/observedsync.go) is the report, the prediction under it;
// either message is expected.
package stopleak
