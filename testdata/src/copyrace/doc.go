// Package copyrace is a Go idiom subject: a Buffer's writers fill it
// under its lock; Snapshot copies the bytes out with the builtin copy and
// forgets the lock.
//
// Known bug: data race on the buffer's bytes. copy reads the source's
// elements (buffer.go:26) while Write writes them (buffer.go:19) without
// synchronization; no expression but the copy shows the reads. If the
// snapshot is taken before the write lands, it misses bytes (TestSnapshot
// fails).
//
// go test -race flags it in a single run.
package copyrace
