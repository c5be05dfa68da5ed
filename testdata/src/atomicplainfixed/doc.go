// Package atomicplainfixed is the fixed twin of package atomicplain (a hit
// counter incremented atomically).
//
// Fixed: Hits loads the counter with atomic.LoadInt64, so every access of
// Counter.hits is atomic, and two atomic accesses never race. Nothing
// should be reported.
package atomicplainfixed
