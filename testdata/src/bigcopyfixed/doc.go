// Package bigcopyfixed is the fixed twin of package bigcopy (a grid whose
// Snapshot copied the cells without the lock).
//
// Fixed: Snapshot copies under the lock. Nothing should be reported.
package bigcopyfixed
