// Package rangeleak is a goroutine leak that the recorded run itself
// shows (goleak's finding; issue 29), in a range loop over a channel:
// Store hands each record to a writer goroutine over an unbuffered
// channel (store.go:13 range, store.go:21 send) and closes the channel
// when all are sent (store.go:23). An empty record makes it return its
// error first (store.go:19), and nobody closes the channel.
//
// Known bug: goroutine leak. The writer blocks forever in its range loop
// (store.go:13), holding the channel and the sink. go test -race sees
// nothing: there is no data race, and the test passes.
//
// pecanvet's recorder notes the range loop's receive the writer was
// blocked in when the test ended; the channel is local to Store, used
// only in channel operations, and Store's goroutine (which alone can send
// or close) has returned (check/observedsync.go), so nothing live can
// complete the receive. A replay of the recorded order proves it.
package rangeleak
