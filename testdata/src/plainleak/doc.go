// Package plainleak is two goroutine leaks that the recorded run itself
// shows (goleak's finding; issue 29), each in a plain channel operation,
// no select's case:
//
//   - First asks every replica from its own goroutine and returns the
//     first answer (Pike, "Go Concurrency Patterns", 2012), received at
//     first.go:12 from an unbuffered channel: every other replica blocks
//     forever in its send (first.go:9).
//   - Apply starts a goroutine that calls release once Apply closes done
//     (apply.go:12 receive, apply.go:21 close); an empty change makes it
//     return its error first (apply.go:17), and nobody closes done.
//
// Known bug: goroutine leaks. go test -race sees nothing: there is no
// data race, and the tests pass.
//
// pecanvet's recorder notes the send and the receive the goroutines were
// blocked in when the tests ended; each channel is local to the function
// that started the goroutine, used there only in channel operations, and
// that function, the only one that can receive, send or close, has
// returned (check/observedsync.go), so nothing live can complete them. A
// replay of the recorded order proves each.
package plainleak
