// Package cleanuprace is a Go idiom gone wrong (after Go's
// TestRaceBetweenCleanups): a pool of buffers that counts, in
// runtime.AddCleanup callbacks, the buffers the garbage collector freed,
// with a plain counter. TestReclaimed drops two buffers and collects them.
//
// Known bug: data race on Pool.freed between the cleanups of two buffers
// (pool.go:27, read and write): the runtime runs cleanups on goroutines of
// its own, concurrently since Go 1.25, ordered after their AddCleanup call
// only. One cleanup's read and the other's write can run back to back;
// with both reads before either write a count is lost (freed 1, want 2).
package cleanuprace
