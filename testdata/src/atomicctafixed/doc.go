// Package atomicctafixed is the fixed twin of package atomiccta.
//
// Fixed: Observe raises the peak with a CompareAndSwap loop: a store that
// another Observe overtook fails and is retried with the new peak. Nothing
// should be reported.
package atomicctafixed
