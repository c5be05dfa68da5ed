// Package recvcopyfixed is the fixed twin of package recvcopy.
//
// Fixed: Describe calls Summary with the lock held. Nothing should be
// reported.
package recvcopyfixed
