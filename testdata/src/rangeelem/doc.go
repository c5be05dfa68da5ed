// Package rangeelem is a Go idiom subject: Stats counts events per kind
// in a slice; Record updates a counter under the lock, Total sums them
// with a range loop that forgot the lock.
//
// Known bug: data race on the counters (the slice's elements). Total's
// range loop reads each element (stats.go:24) while Record writes one
// (stats.go:17) without synchronization; the only shared accesses are the
// range's element reads, which no expression of the loop body shows. If
// Total reads before the last Record's write, the total misses an event
// (TestTotal fails).
//
// go test -race flags it in a single run.
package rangeelem
