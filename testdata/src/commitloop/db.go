package commitloop

import (
	"maps"
	"sync"
	"sync/atomic"
)

// Root is a committed state: table name to value, never written after
// its commit.
type Root map[string]int

// DB holds the last committed root.
type DB struct {
	mu   sync.Mutex // one commit at a time
	root atomic.Pointer[Root]
}

// NewDB returns a DB with an empty root.
func NewDB() *DB {
	d := &DB{}
	d.root.Store(&Root{})
	return d
}

// Commit applies changes to the root as it stands and publishes the result.
func (d *DB) Commit(changes map[string]int) {
	d.mu.Lock()
	next := maps.Clone(*d.root.Load())
	maps.Copy(next, changes)
	d.root.Store(&next) // want "atomicity violation on .*intermediate state"
	d.mu.Unlock()
}

// Snapshot returns the last committed root.
func (d *DB) Snapshot() Root {
	return *d.root.Load()
}

// Move opens the ledger with total in "in", then moves each batch it
// receives to "out", until done is closed.
func (d *DB) Move(total int, batches <-chan int, done <-chan struct{}) {
	in, out, b := total, 0, 0
	d.Commit(map[string]int{"in": in, "out": out})
	for {
		in, out = in-b, out+b
		d.Commit(map[string]int{"in": in})
		d.Commit(map[string]int{"out": out})
		select {
		case b = <-batches:
		case <-done:
			return
		}
	}
}
