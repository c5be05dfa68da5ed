// Package atomiclimit is a Go idiom: a limiter that admits at most max
// holders, counted with sync/atomic, and a count of the work running,
// kept with atomic adds that others read.
//
// Known bug: atomicity violation (RWW) on Limiter.n. Acquire loads the
// count (limit.go:17) and, if it is below max, stores one more
// (limit.go:18): each is atomic, the pair is not, and another Acquire
// can load the same count between them: two holders are counted as one,
// and a third caller is admitted to a two-holder limit (TestAcquire
// fails: 3 admitted). Every access of the
// count is atomic, so pecanvet asks its replay for an effect; this one
// has it.
//
// The running count (Work's adds, limit.go:29 and :31) is read by
// Running between its updates, on purpose: that is not reported
// (atomiclimitfixed keeps only it).
//
// go test -race flags nothing: every access is atomic.
package atomiclimit
