// Package stopwaitfixed is stopwait with pond's fix: the done channel has
// a buffer of one (pool.go:43), so the stopper's send completes even
// after StopAndWaitFor's deadline passed. The run loop's idle timer and
// the test's wait helper are as in stopwait and strand nothing. Nothing
// should be reported.
package stopwaitfixed
