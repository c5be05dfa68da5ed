// Package bubblesort is a Go version of the ConTest "BubbleSort" programs
// (atomic-sets paper, Table 1 "bubbleSort", "BubbleSort2"): a bubble sort
// over a synchronized array whose Get and Set hold the array's mutex, while
// a monitor goroutine takes snapshots of the array to show the progress.
// Swap is written like Java's Collections.swap, s.Set(i, s.Set(j,
// s.Get(i))): three synchronized calls, not one atomic step.
//
// Known bug: atomic-set-serializability violation on the atomic set of the
// array's elements (pattern 10 of the atomic-sets paper: W(l1) R'(l2) R'(l1)
// W(l2)). Swap writes element j at bubblesort.go:33 (inner Set) and element
// i at bubblesort.go:33 (outer Set) in two critical sections; Snapshot reads
// all elements at bubblesort.go:48 in one critical section that can fall in
// between. The monitor then sees the array with one value duplicated and
// another missing — not a permutation of the input (TestMonitor fails).
//
// Every access is made with the mutex held, so go test -race does not flag
// it.
package bubblesort
