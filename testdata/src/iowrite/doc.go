// Package iowrite is a Go language subject (after Go's TestRaceIssue5567):
// a Summer hashes each chunk it is handed with hash.Hash.Write, while the
// producer reuses the chunk's buffer for the next one.
//
// Known bug: data race on the buffer's bytes. The hash's Write reads them
// (sum.go:20) in code that is not instrumented (hash/crc32), while the
// producer's next Fill writes them (sum.go:27) without synchronization:
// the channel orders each fill before the hashing of its chunk, not the
// hashing before the next fill. If the next fill comes first, the first
// chunk is hashed with the second one's bytes (TestSum fails).
//
// go test -race flags it in a single run.
package iowrite
