// Package sendclosed is a Go idiom subject: a Notifier delivers events to a
// subscriber over a buffered channel and can be closed. Notify checks the
// closed flag under the mutex, releases it, and then sends.
//
// Known bug: atomicity violation (check-then-act on Notifier.closed and the
// channel) that surfaces as a send on a closed channel. Notify reads
// n.closed at notifier.go:23, unlocks, and sends on n.ch at notifier.go:28;
// Close sets the flag at notifier.go:37 and closes the channel at
// notifier.go:38 under the lock. If Close runs between Notify's check and
// its send, the send panics: "send on closed channel". The send and the
// close are also a data race on the channel (no happens-before between
// them).
//
// go test -race flags it in a single run (send vs. close).
package sendclosed
