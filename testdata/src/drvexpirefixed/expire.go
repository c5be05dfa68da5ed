package drvexpirefixed

import (
	"sync"
	"time"
)

// Expirer keeps keys to expire and how many are pending.
type Expirer struct {
	mu      sync.Mutex
	keys    []string
	at      []time.Time
	pending int
}

// NewExpirer returns an empty expirer.
func NewExpirer() *Expirer { return &Expirer{} }

// Expire schedules key to expire a minute from now.
func (e *Expirer) Expire(key string) {
	e.mu.Lock()
	e.keys = append(e.keys, key)
	e.at = append(e.at, time.Now().Add(time.Minute))
	e.pending++
	e.mu.Unlock()
}

// Pending returns how many keys wait to expire.
func (e *Expirer) Pending() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.pending
}
