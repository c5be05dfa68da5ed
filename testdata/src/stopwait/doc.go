// Package stopwait is pond's StopAndWaitFor leak (issue 29; alitto/pond
// v1.9.2 pond.go:345, the shape of kubernetes#5316) amid two selects
// that strand nothing. A Pool's run loop executes submitted tasks and
// selects on them, an idle timer and a stop channel (pool.go:27-34).
// StopAndWaitFor starts a goroutine that sends on p.stop and then on an
// unbuffered done channel (pool.go:46), and waits for done in a select
// with a deadline (pool.go:49, pool.go:51). The test waits for its task
// through a wait(wg) helper whose goroutine sends on an unbuffered
// channel, in a select whose timeout fails the test (pool_test.go).
//
// Known bug: goroutine leak. If the deadline passes before the stopper
// sends on done, StopAndWaitFor returns and nobody ever receives: the
// stopper blocks forever at pool.go:46.
//
// Not bugs, and not to be reported: the run loop's idle-timer branch
// (pool.go:30) comes back to the same select, which then takes the task
// or the stop it passed over; and the wait helper's goroutine is left
// blocked only when the test's timeout branch has failed the test: that
// is the test's assertion, not a leak of the program.
package stopwait
