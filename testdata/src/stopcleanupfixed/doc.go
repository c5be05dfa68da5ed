// Package stopcleanupfixed is the fixed twin of package stopcleanup (a
// session store with a cleanup goroutine, after alexedwards/scs's
// memstore).
//
// Fixed: New creates the stop channel before it starts the cleanup
// goroutine, which only receives from it, so Stop reads a channel the go
// statement orders before it. Nothing should be reported.
package stopcleanupfixed
