// Package stopclose is a send on a channel that its receiver closes on
// its way out (issue 29; the shape of knative/serving#5865): a Feed's
// goroutine applies the values sent on an unbuffered channel in a select
// loop (feed.go:29) that returns when Stop closes the stop channel
// (feed.go:27), and it closes its own input channel as it returns
// (feed.go:24), as the sign that it has finished. Update sends a value
// (feed.go:39). The test updates from a goroutine and stops 5 ms later,
// so an ordinary run applies the value first and passes.
//
// Known bug: panic "send on closed channel". If Stop comes while Update
// has yet to send, the select finds only its stop case ready and
// returns, the deferred close closes the input, and Update's send
// panics (feed.go:39). The recorded run orders the send before the
// close through the loop's receive of it, so go test -race reports
// nothing.
//
// pecanvet predicts it from the select's stop case (predict's
// StopCloseFirsts): Update held at its send, Stop's close first, the
// select taking the stop case and the deferred close; the replay panics
// there.
package stopclose
