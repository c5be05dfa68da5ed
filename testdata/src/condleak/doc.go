// Package condleak is a goroutine leak that the recorded run itself
// shows (goleak's finding; issue 29), in a Cond's Wait: Collect's
// consumer waits on a Cond until it has taken n items (collect.go:33),
// and each of the n producers appends its item and signals
// (collect.go:24). A producer with nothing to give returns without a
// word (collect.go:19); Collect gives up after d (collect.go:44).
//
// Known bug: goroutine leak (a wait nobody will signal). The consumer
// waits for an item that never comes, blocked forever in Wait
// (collect.go:33). go test -race sees nothing: there is no data race,
// and the test passes.
//
// pecanvet's recorder notes the Wait the consumer was blocked in when the
// test ended; the Cond is local to Collect, used only through its
// methods, and every goroutine that can signal it (the producers) has
// ended, as has Collect's (check/observedsync.go). A replay of the
// recorded order proves it.
package condleak
