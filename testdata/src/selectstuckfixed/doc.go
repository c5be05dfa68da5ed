// Package selectstuckfixed is selectstuck fixed: First closes done when
// it returns (a deferred close), so every fetcher that loses takes its
// select's done case and ends. Nothing should be reported.
//
// It also has a select that must stay silent: a watcher goroutine,
// started once, that selects on two package-level channels. Every run
// ends TestWatch with it blocked in that select (first.go:32); its
// channels are package-level, reachable by any later call of Notify, so
// it is not stuck: check/observedsync.go takes only channels local to the
// function that started the goroutine.
package selectstuckfixed
