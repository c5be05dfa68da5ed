// Package jigsawfixed is the fixed twin of package jigsaw (Jigsaw 2.2.6,
// PECAN Figure 7).
//
// Fixed: the queue offers Take, which waits on a sync.Cond until the queue
// is non-empty and removes the first event in the same critical section;
// GetNextEvent uses it. Nothing should be reported.
package jigsawfixed
