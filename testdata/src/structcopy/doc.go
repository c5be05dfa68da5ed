// Package structcopy is a Go idiom subject: a Server's limits change under
// its lock; Limits returns a copy of the whole struct and forgets the lock.
//
// Known bug: data race on Limits.Burst. Returning s.limits copies the
// struct, reading every field (server.go:25), while SetBurst writes one
// (server.go:19) without synchronization; only the copy reads the field.
// If the copy is taken before the write, the caller sees the old limit
// (TestLimits fails).
//
// go test -race flags it in a single run.
package structcopy
