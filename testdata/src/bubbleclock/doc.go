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
// nothing orders them. Inside the bubble no replay can put the Inc
// between them: a goroutine the replay holds is not durably blocked
// (dynamic/rt's park.go), so the bubble's clock waits for it as it would
// for a running one. The generated driver, outside any bubble, calls
// Twice twice at once and loses an update (test fails).
package bubbleclock
