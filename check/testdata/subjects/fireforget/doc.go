// Package fireforget is a Go idiom subject: a goroutine started and not
// waited for. Stats.HitAsync counts a hit in a goroutine of its own, so
// that the caller need not wait; Hits reads the count.
//
// Known bug: a data race on Stats.hits: the goroutine's read and write at
// stats.go:11 against the read at stats.go:17, with nothing ordering them.
// The test does not wait for the goroutine, so whether the goroutine runs
// before the test returns is up to the scheduler: a recorder that stops at
// the end of the test function misses one side of the race in some runs.
// In the bad schedule the test sees the hit already counted and fails
// ("Hits = 1 right after HitAsync").
//
// go test -race flags it only in runs in which the goroutine runs before
// the process exits.
package fireforget
