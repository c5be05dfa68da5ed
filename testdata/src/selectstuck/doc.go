// Package selectstuck is a goroutine leak that the recorded run itself
// shows (goleak's finding; issue 29), in a select with no default: First
// asks every fetcher at once, each from its own goroutine that offers its
// answer on an unbuffered channel or gives up when done is closed
// (first.go:10 select, first.go:11 send, first.go:12 receive), and
// returns the first answer (first.go:16). It never closes done.
//
// Known bug: goroutine leak. Every fetcher but the first blocks forever
// in its select (first.go:10). go test -race sees nothing: there is no
// data race, and the test passes.
//
// pecanvet's recorder notes the select each loser was blocked in when the
// test ended (by its first case, first.go:11); both channels are local to
// First and used only in channel operations; First's goroutine, the only
// other one that can receive or close, has returned, and every other
// fetcher has ended or is blocked in the same select
// (check/observedsync.go). A replay of the recorded order proves it.
package selectstuck
