package busyflagfixed

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ErrBusy is Compact's refusal while another compaction runs.
var ErrBusy = errors.New("compaction in progress")

// DB keeps deleted records until a compaction reclaims them.
type DB struct {
	running   int32
	mu        sync.Mutex
	deleted   int
	reclaimed int
	hook      func() // runs in Compact before its look (a test's gate)
}

// Delete marks a record deleted.
func (db *DB) Delete() {
	db.mu.Lock()
	db.deleted++
	db.mu.Unlock()
}

// Compact reclaims the deleted records and returns how many. Returns
// ErrBusy if a compaction is already in progress.
func (db *DB) Compact() (int, error) {
	n := 0
	if !atomic.CompareAndSwapInt32(&db.running, 0, 1) {
		return n, ErrBusy
	}
	defer func() {
		atomic.StoreInt32(&db.running, 0)
	}()
	if db.hook != nil {
		db.hook()
	}
	db.mu.Lock()
	n, db.deleted = db.deleted, 0
	db.reclaimed += n
	db.mu.Unlock()
	return n, nil
}

// Reclaimed returns the number of records reclaimed.
func (db *DB) Reclaimed() int {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.reclaimed
}
