// Package cleanupracefixed is the fixed twin of package cleanuprace (a
// pool that counts, in runtime.AddCleanup callbacks, the buffers freed).
//
// Fixed: the cleanups and Freed hold the pool's lock around the counter.
// Nothing should be reported.
package cleanupracefixed
