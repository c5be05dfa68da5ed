// Package atomicplain is a Go idiom gone wrong: a hit counter that the
// workers increment with atomic.AddInt64 while the reader loads it with a
// plain read, as if one atomic side were enough. TestHits counts one hit
// on another goroutine and reads the count after it.
//
// Known bug: data race on Counter.hits between the atomic add
// (counter.go:13) and the plain read (counter.go:18). The race detector
// reports an atomic access racing with a plain one; only two atomic
// accesses never race. In the bad schedule the read runs before the add
// (TestHits fails: hits = 0, want 1).
package atomicplain
