// Package recurretry is a lock-free rolling index that retries by
// recursion (cep21/circuit's RollingBuckets.Advance: `return
// r.Advance(now, clearBucket)`), with its step a plain store.
//
// Known bug: atomicity violation on Index.Int64. Advance loads the index
// through its getter (window.go:10, from window.go:21), stores the next
// bucket with a plain Store (window.go:25), counts the step and calls
// itself again for the next one: two Advances that load the same index
// both store its successor and both count the step (TestAdvance: "moved
// 4 buckets, want 3"). pecanvet reports it at window.go:25, by the
// replay's effect.
//
// The fixed twin steps with CompareAndSwap and calls itself again when
// the swap fails, as circuit does.
//
// go test -race flags nothing: every access is atomic.
package recurretry
