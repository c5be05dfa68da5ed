// Package wgwrongadd is a Go idiom gone wrong (after Go's
// TestRaceWaitGroupWrongAdd): a fetcher whose goroutines call wg.Add
// themselves, instead of FetchAll calling it before starting them.
//
// Known bug: WaitGroup.Add after Wait (the Add at fetch.go:27 comes too
// late: FetchAll may already wait). The race detector models it as a data
// race on Fetcher.wg: an Add that raises the counter from 0 reads it, and
// a Wait that blocks (fetch.go:22) writes it, so an Add from 0 that does
// not happen before the Wait races with it; pecanvet reports it as the
// early Wait (pattern sync/wg-add-after-wait) and, with the sync patterns
// off, as that data race. In the recorded run
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
