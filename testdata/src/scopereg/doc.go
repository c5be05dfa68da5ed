// Package scopereg is a real-module subject (pecanvet issue 26; the shape
// of uber-go/tally v4.1.17's scope registry, with a count of the scopes in
// the report's range, as tally's reportInternalMetrics counts them): Get
// finds a scope closed, deletes its name (registry.go:53) and, in a second
// critical section, re-checks the name and inserts a new, empty scope
// under it (registry.go:62). Report ranges over the scopes (registry.go:71),
// reports each one's counts, and emits how many scopes there are.
//
// Known bug: an atomicity violation (WRW) on the scopes map: a Report
// between Get's delete and its insert counts one scope fewer than either
// serial order (`scopes = 0, want 1`), a cardinality no state of the
// registry had. TestReport logs it and does not fail: it is reported by
// dependence ("intermediate state: another goroutine reads at
// registry.go:71 the value between the writes at registry.go:53 and
// registry.go:62"). The new scope is made fresh and empty, but the count
// goes up for every entry the range comes to, so the entry missed is a
// step of the loop lost (static/depend's freshEntry does not excuse it).
//
// go test -race flags nothing: every access holds a mutex or is atomic.
package scopereg
