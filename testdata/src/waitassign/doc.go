// Package waitassign is a fetch with a deadline whose select assigns
// its timeout error and returns it after the select (r3labs/sse v2.10.0's
// wait helper, server_test.go:17, has this form), beside a test helper of
// the same form. Fetch starts a goroutine that sleeps for the fetch's
// delay and then sends its result on an unbuffered channel, and waits for
// it in a select whose time.After branch sets err (fetch.go:27-31). The
// test runs Fetch in a goroutine that sends the answer on an unbuffered
// channel, and waits for that answer through wait, whose time.After
// branch sets err = errors.New("timeout"); the test fails on that error
// (fetch_test.go).
//
// Known bug: goroutine leak. If the deadline passes before the fetcher
// sends, Fetch returns errTimeout (an answer the test accepts) and nobody
// ever receives: the fetcher blocks forever at fetch.go:23.
//
// Not a bug, and not to be reported: the test's goroutine is left blocked
// in its send (fetch_test.go:31) only when wait's timeout has failed the
// test (fetch_test.go:35): that is the test's assertion, not a leak
// (check's helperTimedOut, the escape branch assigning the error that the
// statement after the select returns).
package waitassign
