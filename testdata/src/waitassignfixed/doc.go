// Package waitassignfixed is waitassign with the fix: Fetch's result
// channel has a buffer of one (fetch.go:18), so the fetcher's send
// completes even after Fetch's deadline passed. The test and its wait
// helper are as in waitassign: the helper's goroutine is left blocked
// only when the helper's timeout has failed the test. Nothing should be
// reported.
package waitassignfixed
