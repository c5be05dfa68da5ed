// Package cancelhang is a hang that a recorded run shows (issue 29),
// looplab/fsm's TestContextInCallbacks in small: Machine.Fire gives up
// on a context cancelled before its transition (machine.go:30), and only
// the transition runs the enter callback (machine.go:37), which starts
// the goroutine that closes the channel the test waits on
// (machine_test.go:14). The test cancels from a goroutine of its own
// (machine_test.go:19).
//
// Known bug: a hang for good. When the cancelling goroutine runs before
// Fire reaches its check, Fire returns context.Canceled, the callback
// never runs, done is never closed, and the test blocks forever in its
// receive (machine_test.go:24): go test waits out its timeout there. In
// an ordinary run the goroutine starts after Fire has made its
// transition, and the test passes; go test -race sees nothing (there is
// no data race).
//
// pecanvet's perturbed recording runs a goroutine as soon as it is
// started (dynamic/rt/perturb.go, seed 1), so the cancel comes first and
// every goroutine blocks; the recorder's hang watcher ends the run and
// writes the blocked operations (dynamic/rt: observeHung), and a replay
// of the recorded order proves that the process hangs with the test
// blocked there (check/observedhang.go).
package cancelhang
