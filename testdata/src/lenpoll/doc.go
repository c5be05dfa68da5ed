// Package lenpoll is a Go idiom (after Go's TestRaceChanSendLen): a
// loader fills a result field in a goroutine and signals on a buffered
// channel; the caller waits by polling len of the channel instead of
// receiving from it.
//
// Known bug: data race (RW) on Loader.result (loader.go:30 read,
// loader.go:19 write). len of a channel does not synchronize, so nothing
// orders the read after the write, although the read always comes later:
// no schedule runs the two back to back (every reordering keeps the caller
// polling), so replay cannot show it. The recorded run has no
// synchronization between them, and Go's race detector, running the test,
// reports the race between the same two sites: that is how pecanvet
// proves it (replay/racerun).
//
// go test -race flags it in a single run.
package lenpoll
