// Package genericfixed is the fixed twin of package generic.
//
// Fixed: Get holds the lock too. Nothing should be reported.
package genericfixed
