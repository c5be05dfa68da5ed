// Package rangefunc is a Go idiom subject: a Ring's readings are written
// under its lock and iterated with a range-over-func iterator (iter.Seq)
// that forgot the lock.
//
// Known bug: data race on the slots. The iterator reads each slot
// (ring.go:28), in the goroutine that ranges over it, while Put writes one
// (ring.go:20) without synchronization. If the iteration reads the slot
// before the write lands, the sum misses the reading (TestAll fails).
//
// go test -race flags it in a single run.
package rangefunc
