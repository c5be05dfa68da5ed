// Package sliceappendfixed is the fixed twin of package sliceappend.
//
// Fixed: the result slice is allocated up front and each goroutine writes
// only its own element, so no two goroutines write the same location, and
// wg.Wait orders the writes before the return. Nothing should be reported.
package sliceappendfixed
