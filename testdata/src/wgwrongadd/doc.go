// Package wgwrongadd is a Go idiom gone wrong (after Go's
// TestRaceWaitGroupWrongAdd): a fetcher whose goroutines call wg.Add
// themselves, instead of FetchAll calling it before starting them.
//
// Known bug: data race on Fetcher.wg, as the race detector models a
// WaitGroup: an Add that raises the counter from 0 (fetch.go:27) reads it,
// and a Wait that blocks (fetch.go:22) writes it, so an Add from 0 that
// does not happen before the Wait races with it. In the recorded run
// FetchAll waits after the Add and the test passes. In the bad schedule
// Wait comes before the Add and returns at once: the map of sizes is
// read (fetch.go:23) while a fetch writes it (fetch.go:31), a data race
// too (TestFetchAll fails: fetched 0 pages, want 1). The test fetches one
// page: with two, whether a goroutine's Add is the one from 0 (an event
// of the model) depended on the other's, which the schedule does not
// hold, and the replay diverged in some runs. Fetcher's doc says it is
// not safe for concurrent use, so a generated driver's FetchAll‖FetchAll
// race on sizes is shown only with -v.
package wgwrongadd
