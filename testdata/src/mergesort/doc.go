// Package mergesort is a Go version of the ConTest "MergeSort" program
// (PECAN Table 1): a parallel merge sort that may hand the left half of a
// slice to a helper goroutine. A Budget, shared by all sorts, limits how
// many helpers run at once; its methods are synchronized.
//
// Known bug: atomicity violation (RWR / RWW on Budget.free). Sort checks the
// budget (Available, the read at mergesort.go:18) and then takes a helper
// (Take, the read at mergesort.go:25 and the write at mergesort.go:28) in
// two separate critical sections — an unsynchronized caller of two
// synchronized methods, exactly the case the atomic-sets paper says its
// unit-of-work heuristic misses. If another sort takes the last helper in
// between, Take finds the budget empty and panics ("mergesort: helper budget
// exceeded").
//
// Every access to free is made with the budget's mutex held, so go test
// -race does not flag it.
package mergesort
