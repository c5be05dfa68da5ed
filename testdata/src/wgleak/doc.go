// Package wgleak is a goroutine leak that the recorded run itself shows
// (goleak's finding; issue 29), in a WaitGroup's Wait: Flush sends each
// item from its own goroutine, counted by a WaitGroup (flush.go:15 Add),
// and a waiter goroutine closes done once all have called Done
// (flush.go:25 Wait); Flush waits for done at most d (flush.go:28). A
// failed send returns without calling Done (flush.go:18).
//
// Known bug: goroutine leak. The counter never reaches zero: the waiter
// blocks forever in Wait (flush.go:25), and Flush reports a timeout for a
// batch whose sends all ended. go test -race sees nothing: there is no
// data race, and the test passes.
//
// pecanvet's recorder notes the Wait the waiter was blocked in when the
// test ended; the WaitGroup is local to Flush, used only through its
// methods, and every goroutine that can call Add or Done (Flush's own,
// the senders) has ended (check/observedsync.go), so nothing live can
// bring the counter to zero. A replay of the recorded order proves it.
package wgleak
