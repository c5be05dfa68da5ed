// Package testmainglobal is a Go idiom subject: a connection limiter
// configured through a package-level variable, set by the package's own
// TestMain before the tests run.
//
// Known bug: a data race on the package variable maxConns. TestMain loads
// the test configuration in a goroutine of its own (limits.go:13, the
// write in SetMax) while m.Run already starts the tests, whose Admit reads
// it (limits.go:18). Nothing orders the goroutine with the test but a
// time.Sleep. (pecanvet's traces start with each test: it sees the writes
// of the reloads that fall within the test. A goroutine that TestMain or
// init starts and that is done before the test starts is not in the
// trace; go test -race would still flag its race.) In the bad schedule the test reads the default limit 4 and
// admits a third connection ("admitted connection 3 with limit 2").
//
// The package-level initializer (limits.go:8) and what TestMain does
// itself before m.Run happen before every test, so they race with nothing.
//
// go test -race flags it in a single run.
package testmainglobal
