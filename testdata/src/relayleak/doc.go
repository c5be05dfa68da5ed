// Package relayleak is a real-module subject (pecanvet issue 26 and 29;
// the shape of ThreeDotsLabs/watermill v1.5.1's subscriber decorator,
// message/decorator.go:54, read by subscriber.BulkRead): Subscribe, a
// method, starts a goroutine that forwards every value of a source
// channel on an unbuffered channel (relay.go:14); Read takes one value
// from it in a select with a timeout (relay.go:25, relay.go:27). The
// test's source sends after 2 ms, well within Read's second.
//
// Known bug: goroutine leak. If the source is slower than Read's
// timeout, Read returns and nobody receives the value: the relay blocks
// forever in its send (relay.go:14). go test -race sees nothing.
//
// pecanvet predicts the leak from the recorded run and proves it by a
// replay that holds the relay at its send until Read took the timeout.
// The relay was started elsewhere (not in Read's activation), so being
// held is no proof by itself (check.heldLeak); here the source's sleep
// happens before the relay's send and after Read's timer was armed
// (predict.leakPaced): a slower source is a real schedule that strands
// it, and the leak is reported.
package relayleak
