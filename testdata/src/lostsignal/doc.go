// Package lostsignal is a lost condition-variable signal (issue 29; the
// shape of cockroach#69408): Mailbox.Take waits on m.ready
// (mailbox.go:31) without checking whether the message is already there,
// and Put signals it (mailbox.go:24). The test runs Take in a goroutine
// and Put a little later (a time.Sleep keeps them apart), so an ordinary
// run passes.
//
// Known bug: deadlock. Cond.Signal wakes only goroutines already waiting:
// if Put runs before Take reaches its Wait, the signal is lost, Take
// waits for ever and the test hangs in <-done. go test -race sees
// nothing: there is no data race.
//
// pecanvet predicts it from the recorded run (the signal that woke the
// Wait can come before the Wait) and proves it by a replay that ends with
// Take's goroutine blocked in mailbox.go:31 once nothing moves.
package lostsignal
