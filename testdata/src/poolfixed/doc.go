// Package poolfixed is the fixed twin of package pool (Apache Commons Pool
// 1.2, Penelope section 6).
//
// Fixed (as in Pool 1.3): Borrow copies the factory in the same critical
// section in which it checks that the pool is open, and uses that copy to
// make and activate the object; Close and SetFactory no longer affect a
// Borrow in progress. Nothing should be reported.
package poolfixed
