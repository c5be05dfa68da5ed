// Package plainleakfixed is plainleak fixed: First's channel has a buffer
// of one answer per replica, so no replica blocks in its send, and Apply
// closes done on every return (a deferred call). Nothing should be
// reported.
//
// It also has a daemon that must stay silent: Kick wakes a flusher
// goroutine, started once, blocked in a plain receive from a
// package-level channel (flush.go:18) at the end of TestKick in every
// run; any later Kick can reach that channel, so the goroutine is not
// stuck: check/observedsync.go takes only a channel local to the function
// that started the goroutine.
package plainleakfixed
