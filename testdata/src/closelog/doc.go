// Package closelog is a send on a channel that a concurrent path closes
// (issue 29; the shape of grpc-go#1687): a Logger's goroutine collects
// the lines sent on an unbuffered channel (logger.go:18); Log sends a
// line (logger.go:26); Close sends a last line (logger.go:31), closes
// the channel (logger.go:32) and waits for the collector. The test logs
// from a goroutine and closes 5 ms later, so an ordinary run logs first
// and passes.
//
// Known bug: panic "send on closed channel". Nothing orders Log's send
// before Close's close but the collector's receives: if Close's line is
// received first, Close closes the channel while Log has yet to send,
// and Log's send panics (logger.go:26). The recorded run's
// happens-before orders the two (Log's line was received, then Close's),
// so go test -race, which sees that order, reports nothing.
//
// pecanvet predicts the close first by holding Log at its send and
// letting the collector take Close's line instead, and proves it by a
// replay that panics there.
package closelog
