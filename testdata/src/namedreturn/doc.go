// Package namedreturn is a Go language subject: a return statement writes
// the named results whose expressions are not the results themselves.
// Shop.Quote names its unit price as a result, audits it in a goroutine
// of its own (which captures the named result) and returns.
//
// Known bug: a data race on the named result unit. For a bulk order the
// return statement `return unit - 1, total - n` writes unit (quote.go:24)
// while the audit goroutine reads it (quote.go:18), with nothing but a
// time.Sleep between them. In the bad schedule the audit records the
// discounted price instead of the list price (TestBulk fails: "audited
// 99, want 100").
//
// The other return, `return unit, total`, returns unit as itself: it
// writes nothing (the compiler drops the self-assignment), so it races
// with no read.
//
// go test -race flags it in a single run.
package namedreturn
