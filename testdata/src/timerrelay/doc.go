// Package timerrelay is relayleak with a source paced by a timer channel
// instead of a sleep (issue 29's leak pacing): Subscribe starts a
// goroutine that forwards every value of a source channel on an
// unbuffered channel (relay.go:14); Read takes one value from it in a
// select with a timeout (relay.go:25, relay.go:27). The test's source
// waits on <-time.After(2 ms) before it sends, well within Read's
// second.
//
// Known bug: goroutine leak. If the source is slower than Read's
// timeout, Read returns and nobody receives the value: the relay blocks
// forever in its send (relay.go:14). go test -race sees nothing.
//
// pecanvet predicts the leak from the recorded run and proves it by a
// replay that holds the relay at its send until Read took the timeout.
// The relay was started elsewhere, so being held is no proof by itself
// (check.heldLeak); here the source's receive from its own timer
// (a channel only the runtime sends on) happens before the relay's send
// and after Read's timer was armed (predict.leakPaced): the source waits
// on time of its own, a slower source is a real schedule that strands
// the relay, and the leak is reported.
package timerrelay
