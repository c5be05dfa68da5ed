// Package buggyprg is a Go version of the ConTest "BuggyProgram" (PECAN
// Table 1): a small batch program that splits a computation (sums of squares
// over chunks of input) among worker goroutines that start with a ramp-up
// delay; each worker files its partial result into a shared Report.
//
// Known bug: data races and an atomicity violation on Report.n (the number
// of filled slots) and Report.total. Report.Add is not synchronized: the
// read of r.n at buggyprg.go:22 (used as the slot index) and the increment
// of r.n at buggyprg.go:23 race with the same accesses of another worker,
// and so do the read and write of r.total at buggyprg.go:24. If a second
// worker runs Add between the first one's read of r.n and its increment (RWW
// on r.n), both write the same slot of r.parts (buggyprg.go:22): one partial
// result is lost and the count is wrong (TestRun fails: wrong number of
// parts / wrong checksum).
//
// go test -race flags it in a single run.
//
// Expected: the data races and atomicity violations above are reported; the
// atomic-set-serializability violations between r.n and r.total that replay
// reproduces change no value Add goes on to use (the index read of r.n does
// not reach total) and the test passes under them: they are interleavings
// without effect, shown with -v.
package buggyprg
