// Package rangeleakfixed is rangeleak fixed: Store closes the channel and
// waits for the writer on every return (a deferred call), so the writer's
// range loop ends. Nothing should be reported.
//
// It also has a daemon that must stay silent: Audit hands lines to a
// logger goroutine, started once, that ranges over a package-level
// channel. Every run ends TestAudit with that goroutine blocked in its
// range loop (store.go:42); the channel is reachable by any later call of
// Audit, so the goroutine is not stuck: check/observedsync.go takes only
// a channel local to the function that started the goroutine.
package rangeleakfixed
