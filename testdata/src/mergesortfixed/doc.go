// Package mergesortfixed is the fixed twin of package mergesort (ConTest
// "MergeSort", PECAN Table 1).
//
// Fixed: the budget offers TryTake, which checks and takes a helper in one
// critical section, and Sort uses it instead of Available followed by Take.
// Nothing should be reported.
package mergesortfixed
