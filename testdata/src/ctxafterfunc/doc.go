// Package ctxafterfunc is a Go idiom subject whose only goroutine comes
// from the standard library: context.AfterFunc runs the close callback on
// a goroutine of its own once the context is done. No go statement,
// channel or sync import.
//
// Known bug: a data race on Conn.closed: the callback's write at
// conn.go:17 against the read at conn.go:25 (Closed), with nothing
// ordering them (the test's time.Sleep after cancel is not
// synchronization). In the bad schedule the test reads the flag before
// the callback ran and fails ("conn not closed after cancel").
//
// The callback reads Conn.peer, written before the context.AfterFunc call
// (conn.go:16 against conn.go:14): the call happens before the callback,
// so that pair is no race.
//
// go test -race flags it in a single run.
package ctxafterfunc
