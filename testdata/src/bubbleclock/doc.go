// Package bubbleclock is a Go idiom subject: a meter tested inside a
// testing/synctest bubble (pion/transport's vnet tests, trial 16).
//
// Known bug: atomicity violation (split read-modify-write) on Meter.n:
// Twice reads the count under the lock (meter.go:21), lets it go, and
// writes back the value read plus two under the lock again (meter.go:24).
// An Inc between them is lost. The test's worker sleeps 1 ms of the
// bubble's fake time before its Inc, so in the bubble it always comes
// after Twice (the bubble's clock moves only once every goroutine of it
// is durably blocked), and go test -race reports nothing; with real time
// nothing orders them. The replay holds the test's goroutine at its gate
// (durably blocked to synctest), so how the test ends there is no
// evidence; the report rests on the dependence: the value read is
// written back.
package bubbleclock
