// Package sharedbuf is a Go idiom gone wrong (standard-library state used
// from two goroutines): a Journal collects the lines its workers add in a
// bytes.Buffer, which is not safe for concurrent use; TestJournal runs two
// workers, the second a few milliseconds after the first, and checks that
// both lines are there.
//
// Known bug: data race on Journal.buf. Two goroutines call
// buf.WriteString (journal.go:17) with nothing between them: the buffer's
// fields (its slice, its length) are written by both, in package bytes,
// which is not instrumented; the recorder sees each call as a write of the
// buffer. Run together, the two appends can overwrite each other (a line
// lost or garbled: `journal "b\n", want 2 lines`). -race reports it
// inside package bytes.
package sharedbuf
