// Package ioread is a Go language subject: a Loader fills its buffer from
// an io.Reader under its lock; Peek reads the buffer without it.
//
// Known bug: data race on the buffer's bytes. The reader's Read writes
// them (loader.go:20) in code that is not instrumented (strings.Reader),
// while Peek reads one (loader.go:26) without synchronization. If Peek
// reads after the load is due, it sees no data (TestPeek fails).
//
// go test -race flags it in a single run.
package ioread
