// Package observedleak is a goroutine leak that the recorded run itself
// shows (goleak's finding; issue 29): Lookup starts a goroutine that sends
// resolve's answer on an unbuffered channel (lookup.go:14) and waits for
// it in a select with a timeout (lookup.go:17, lookup.go:19). The test's
// resolver takes 50 ms and its timeout is 1 ms, so every run takes the
// timeout, and the test passes.
//
// Known bug: goroutine leak. Lookup returns through its timeout and
// nobody ever receives: the sender blocks forever in its send
// (lookup.go:14), holding the channel and whatever resolve returned. go
// test -race sees nothing: there is no data race. No schedule needs
// predicting: the send never happened, so the trace holds no matched
// send and receive for the leak finder (selectleak's).
//
// pecanvet's recorder notes the send its goroutine was blocked in when
// the test ended; the channel is local to Lookup, shared only with the
// goroutine, and Lookup receives from it only in a select with an escape
// branch (check/observed.go), so nothing live can complete the send. A
// replay of the recorded order proves it: the test returns with the
// sender blocked in lookup.go:14.
package observedleak
