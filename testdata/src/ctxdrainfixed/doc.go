// Package ctxdrainfixed is the fixed twin of package ctxdrain.
//
// Fixed: the drain goroutine keeps the events it read (under a mutex) and
// the test logs them itself; the goroutine uses the test's T only for
// t.Context(), whose cancellation at the end of the test is how it is told
// to stop: the context is a field package testing sets before the test
// starts, and reading it after the end races with nothing (-race reports
// nothing). Nothing should be reported.
package ctxdrainfixed
