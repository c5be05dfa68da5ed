// Package copyracefixed is the fixed twin of package copyrace.
//
// Fixed: Snapshot holds the lock while it copies. Nothing should be
// reported.
package copyracefixed
