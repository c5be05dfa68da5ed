// Package managerfixed is the fixed twin of package manager (ConTest
// "Manager", PECAN Table 1).
//
// Fixed: Acquire finds and takes a free resource in one critical section, so
// no other client can take the same resource in between. Nothing should be
// reported.
package managerfixed
