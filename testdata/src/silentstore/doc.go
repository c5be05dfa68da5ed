// Package silentstore is a Go idiom subject (pecanvet issue 26,
// goburrow/cache's write storing an entry's writeTime onto itself): a
// Gauge tracks the peak of a value with an atomic.Int64; Observe loads the
// peak and stores the new value if it is higher; Restore stores a saved
// peak.
//
// Known bug: atomicity violation (check-then-act) on Gauge.peak: if
// Restore's Store (gauge.go:21) falls between Observe's Load (gauge.go:13)
// and Store (gauge.go:14), Observe stores its lower value over the
// restored peak, which is lost (TestRestore fails: peak 20, want 30).
// Every access is atomic: go test -race reports nothing. The fixed twin
// differs only in the value Restore stores: the one already there.
package silentstore
