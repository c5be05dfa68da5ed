// Package wgleakfixed is wgleak fixed: a sender calls Done on every
// return (a deferred call), so the waiter's Wait returns and the waiter
// ends; Flush reports the first failed send. Nothing should be reported.
//
// It also has a Wait that must stay silent: a reporter goroutine, started
// once, that waits on a package-level WaitGroup whose Add the package's
// Track calls and whose Done only Untrack does. Every run ends TestTrack
// with it blocked in Wait (flush.go:62); the WaitGroup is reachable by any
// later call of Untrack, so the reporter is not stuck:
// check/observedsync.go takes only a WaitGroup local to the function
// that started the goroutine.
package wgleakfixed
