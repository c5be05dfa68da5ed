// Package atomiccta is a Go idiom subject: a Gauge tracks the peak of a
// value with an atomic.Int64; Observe loads the peak and stores the new
// value if it is higher.
//
// Known bug: atomicity violation (check-then-act) on Gauge.peak: the Load
// (gauge.go:12) and the Store (gauge.go:13) are each atomic, but the pair is
// not. If another Observe's Load and Store fall between them, the lower
// value is stored last and the peak is lost (TestObserve fails). Every
// access is atomic: there is no data race, and go test -race reports
// nothing.
package atomiccta
