// Package linkedlist is a Go version of java.util.LinkedList (PECAN Table 1
// "LinkedList"): a generic doubly linked list with a cached size. Like the
// JDK class it is not synchronized; the driver (TestTwoAppends) uses one
// list from two goroutines, as the drivers of the PECAN evaluation did.
//
// Known bug: data races and atomic-set-serializability violations on the
// atomic set {List.tail, node.next, List.size}. AddLast reads l.tail at
// linkedlist.go:25, links the new node after it at linkedlist.go:29, writes
// l.tail at linkedlist.go:31 and increments l.size at linkedlist.go:32. If a
// second AddLast reads the old tail before the first one has written the new
// one (RWW on List.tail), both nodes are linked after the same tail: one of
// them is unreachable from head while size counts it (TestTwoAppends fails:
// the list walks only three elements while its size is 4).
//
// go test -race flags it in a single run.
//
// Expected: the data races and atomicity violations above are reported; the
// atomic-set-serializability violations between tail and size change no
// value AddLast goes on to use beyond what the data race and the atomicity
// violation on tail show: interleavings without effect, shown with -v.
package linkedlist
