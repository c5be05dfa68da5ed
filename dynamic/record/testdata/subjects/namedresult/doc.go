// Package namedresult is a Go idiom subject: Feed.Latest returns the cached
// price at once and starts a refresh that writes the named result, giving
// the refresh until a deadline to land.
//
// Known bug: data race on the named result price. The refresh goroutine
// writes it (feed.go:19) while the return reads it (feed.go:16, where the
// result is declared: the return reads the results after the deferred
// calls ran) with nothing between them but a time.Sleep. If the return
// reads first, Latest returns the stale price (TestLatest fails).
//
// go test -race flags it in a single run.
package namedresult
