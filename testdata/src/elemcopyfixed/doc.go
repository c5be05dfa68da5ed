// Package elemcopyfixed is the fixed twin of package elemcopy.
//
// Fixed: Snapshot copies the entries with the lock held. Nothing should be
// reported.
package elemcopyfixed
