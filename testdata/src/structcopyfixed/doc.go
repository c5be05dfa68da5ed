// Package structcopyfixed is the fixed twin of package structcopy.
//
// Fixed: Limits copies the struct with the lock held. Nothing should be
// reported.
package structcopyfixed
