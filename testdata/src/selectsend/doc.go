// Package selectsend is a Go idiom (after Go's TestRaceSelect1): a
// dispatcher hands each job to a worker through a select over two
// unbuffered channels, then counts it in a plain field. TestDispatch
// dispatches two jobs from two goroutines, a little apart.
//
// Known bug: data race (WW, RW) and atomicity violation (RWW) on Dispatcher.sent
// (dispatch.go:18): the two counts are ordered by nothing, since each
// select's send synchronizes only with the worker's receive. In the bad
// schedule both read 0: TestDispatch fails (sent = 1, want 2).
//
// The replay must hold a select before it sends: it records the case that
// fired only afterwards, and an unbuffered send waits in the select for a
// receive that the schedule places after it.
package selectsend
