package busyflag

import (
	"sync"
	"sync/atomic"
)

// DB keeps deleted records until a compaction reclaims them.
type DB struct {
	running   int32
	mu        sync.Mutex
	deleted   int
	reclaimed int
	hook      func() // runs in Compact before its look (a test's gate)
}

// Delete marks a record deleted and compacts; a compaction already
// running is left to reclaim it.
func (db *DB) Delete() {
	db.mu.Lock()
	db.deleted++
	db.mu.Unlock()
	db.Compact()
}

// Compact reclaims the deleted records, one compaction at a time.
func (db *DB) Compact() {
	if !atomic.CompareAndSwapInt32(&db.running, 0, 1) { // want "atomicity violation on DB\\.running: .*intermediate state"
		return
	}
	if db.hook != nil {
		db.hook()
	}
	db.mu.Lock()
	db.reclaimed += db.deleted
	db.deleted = 0
	db.mu.Unlock()
	atomic.StoreInt32(&db.running, 0)
}

// Reclaimed returns the number of records reclaimed.
func (db *DB) Reclaimed() int {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.reclaimed
}
