// Package heaptimer is a real-module subject's buggy cousin (pecanvet
// issue 26, session 53, branch timer53; antlabs/timer v0.1.4's min-heap
// timer, min_heap.go, with Stop's check and its removal in two critical
// sections): a heap of pending callbacks under one mutex, a Run loop that
// waits on its time.Timer or on an add, pops the due nodes and starts
// their callbacks.
//
// Known bug: atomicity violation on Node.index and the heap slice: Stop
// reads the node's index and the heap's length under the lock
// (heap.go:70-71), lets it go, and removes at that index under the lock
// again (heap.go:77). In TestStopPending an AfterFunc of another
// goroutine, due sooner, that falls between them pushes its node and
// swaps it to the top: Stop then removes the new node instead of its
// own (the test fails: heap_test.go:61 "count = 1, want 2"), or
// panics in heap.Remove's Swap ("index out of range [1] with length 1",
// heap.go:22). pecanvet reports it at heap.go:70 (av on Node.index) and
// heap.go:71 (av on the heap slice), by dependence (the index read
// decides the removal) and by effect. TestFireWithinSleep's schedules,
// which hold the Run loop past the test's sleep, are its timing's, as in
// heaptimerfixed, and are not reported.
package heaptimer
