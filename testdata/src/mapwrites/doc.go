// Package mapwrites is a Go idiom subject: a word Counter whose Add is
// called from several goroutines, each counting the words of one document
// into the same map.
//
// Known bug: unsynchronized map writes — a data race on the map
// Counter.counts (the whole map is one location) with the lost update it
// allows (atomicity violation RWW). c.counts[w]++ at counter.go:16 reads and
// writes the map without a lock. If two goroutines' increments of the same
// word interleave, one is lost (TestCount fails: "go" counted 2 times, want
// 3); if two map writes actually overlap, the runtime aborts with "fatal
// error: concurrent map writes".
//
// go test -race flags it in a single run.
package mapwrites
