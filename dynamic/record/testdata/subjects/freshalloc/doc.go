// Package freshalloc is a Go idiom subject after Go's race test
// TestNoRaceTinyAlloc: two workers each give every item a fresh int, a
// fresh struct and a fresh 2 KB slice (all escaping to the heap through the
// worker's own Keep record), use them and drop them, then add their sum to
// a shared total.
//
// Known bug: the total. t.n += sum at work.go:30 reads and writes
// Totals.n without a lock (data race; the lost update it allows is an RWW
// atomicity violation, which Work, a function rather than a method, does
// not make a unit of work, so only the race is reported); if the two
// workers' updates interleave, one is lost (TestWork fails: the total is
// one worker's sum short).
//
// Not a bug, and not to be reported: the per-item variables at
// work.go:21-28. Each is private to its worker. The items add up to
// megabytes, so the GC runs while the workers work and the allocator hands
// one worker's dropped items' addresses to the other's new ones: a tool
// that names variables by address sees the two workers write "the same"
// variable with nothing ordering them.
//
// go test -race flags the total in a single run, and never the items.
package freshalloc
