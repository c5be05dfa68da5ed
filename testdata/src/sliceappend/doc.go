// Package sliceappend is a Go idiom subject: Collect fetches several URLs
// concurrently, one goroutine each, and appends the sizes to a slice
// captured by the goroutines' closures.
//
// Known bug: data race on the captured slice variable sizes (its header:
// pointer, length, capacity), with the lost update it allows (atomicity
// violation RWW). The append at collect.go:15 reads and writes sizes without
// synchronization. If two goroutines' appends interleave, both write the
// same element and one result is lost (TestCollect fails: 2 sizes for 3
// URLs).
//
// go test -race flags it in a single run.
package sliceappend
