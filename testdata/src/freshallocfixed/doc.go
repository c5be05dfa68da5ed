// Package freshallocfixed is the fixed twin of package freshalloc.
//
// Fixed: Work adds to the total under the Totals mutex. What is left is the
// per-item allocations of each worker (work.go:24-31), whose addresses the
// allocator hands from one worker to the other as the GC frees them:
// private variables, not shared ones. Nothing should be reported.
package freshallocfixed
