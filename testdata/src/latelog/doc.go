// Package latelog is a Go idiom gone wrong (testing.T used after its test
// returned): a Runner runs each step of a scenario in a subtest of its own,
// the step's work in a background goroutine that logs the step's result
// through the subtest's T; the top-level test waits for all of them with
// Runner.Wait, after the subtests returned.
//
// Known bug: data race on the subtest's T. The background goroutine calls
// t.Logf (runner.go:30) after its subtest ended (runner.go:25, the t.Run
// call: package testing marks the subtest done once its function returned
// and its cleanups ran): nothing orders the log before the end, since the
// goroutine is waited for by the parent test, not by the subtest. Package
// testing then sends the line to the parent test's output, or panics "Log
// in goroutine after TestX/step has completed" once the parent is done
// too; -race reports the race inside package testing (common.done).
package latelog
