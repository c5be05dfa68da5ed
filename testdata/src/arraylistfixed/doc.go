// Package arraylistfixed is the fixed twin of package arraylist
// (java.util.ArrayList in a synchronized wrapper; PECAN Table 1).
//
// Fixed: AddAll copies the source list in one critical section of the source
// (src.Slice) and appends the copy, instead of iterating the source without
// its lock. Nothing should be reported.
package arraylistfixed
