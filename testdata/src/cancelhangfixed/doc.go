// Package cancelhangfixed is cancelhang with its test fixed: it waits
// for the callback's goroutine or for the context, whichever is done
// (machine_test.go:24), so a cancel that comes before Fire's check
// (machine.go:30), which then never runs the callback, does not leave it
// waiting for good.
//
// Nothing should be reported: the perturbed recording, which runs the
// cancelling goroutine first, ends; no run hangs.
package cancelhangfixed
