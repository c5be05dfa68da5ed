// Package afterfunc is a Go idiom subject whose only goroutine comes from
// the standard library: time.AfterFunc runs the expiry callback on a
// goroutine of its own. The package has no go statement, no channel and no
// sync import.
//
// Known bug: a data race on Session.expired: the callback's write at
// session.go:16 against the read at session.go:23 (Expired), with nothing
// ordering them (the test's time.Sleep is not synchronization). In the bad
// schedule the test reads the flag before the callback ran and fails
// ("session not expired after its lifetime").
//
// go test -race flags it in a single run.
package afterfunc
