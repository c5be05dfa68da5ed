// Package loaderfixed is the fixed twin of package loader (ConTest "Loader",
// PECAN Table 1).
//
// Fixed: the counter is an atomic.Int32 and the completion check uses the
// value returned by the same Add, so exactly one loader sees the final count
// and closes done. Nothing should be reported.
package loaderfixed
