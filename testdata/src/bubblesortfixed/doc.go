// Package bubblesortfixed is the fixed twin of package bubblesort (ConTest
// "BubbleSort", atomic-sets paper Table 1).
//
// Fixed: Swap exchanges the two elements in one critical section, so no
// snapshot can see half a swap. Nothing should be reported.
package bubblesortfixed
