// Package oncerun is teivah/broadcast v0.1.0's deadlock through sync.Once
// (issue 29): Relay.Close holds the relay's lock (relay.go:27) and closes
// each listener inside the listener's Once (relay.go:30), while
// Listener.Close runs, inside the same Once (relay.go:50), a function that
// takes the relay's lock (relay.go:52). Once.Do makes every other caller
// wait until the function returns, so a Once is a lock held by the call
// that runs the function. The test closes listener a, then the relay
// (2 ms later: it closes b) and then b (5 ms: b's Close finds it closed);
// an ordinary run passes.
//
// Known bug: deadlock through sync.Once. If b's Close gets into Do before
// the relay's Close does, while the relay's Close holds the lock, b's
// function waits for the lock and the relay's Close waits in Do for that
// function: the test hangs. go test -race sees nothing: there is no data
// race. In the recorded run b's Close never ran its function, so no trace
// shows it taking the lock: the evidence is a's Close, whose function, run
// at the same call of Do, took the relay's lock.
//
// pecanvet records each Do as a lock of the Once (rt's OnceDo), predicts
// that b's Do runs its own function first (deadlock/once-run) and proves
// it by a replay that deadlocks.
package oncerun
