// Package depatomicfixed is the fixed twin of package depatomic (a helper
// package's hit counter that its users add to atomically).
//
// Fixed: the helper's Hits loads the counter with atomic.LoadInt64, so
// every access of Counter.N is atomic, and two atomic accesses never
// race. Nothing should be reported.
package depatomicfixed
