// Package bytestring is a Go language subject: a Line buffer's bytes are
// edited under its lock; String converts them to a string without it, and
// Extend appends a string to them without it.
//
// Known bugs: data races on the []byte elements. The conversion
// string(l.buf) reads every byte (line.go:25), and append(l.buf,
// s...) reads every byte it copies when it grows the slice (line.go:30),
// while Set writes one (line.go:19) without synchronization. If String or
// Extend comes after the edit is due, it returns the old text (TestString
// and TestExtend fail).
//
// go test -race flags both in a single run.
package bytestring
