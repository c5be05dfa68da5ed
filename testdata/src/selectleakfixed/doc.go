// Package selectleakfixed is selectleak with the fix: the result channel
// has a buffer of one (fetch.go:12), so the sender never waits for a
// receiver and ends even when Fetch timed out. Nothing should be
// reported.
package selectleakfixed
