// Package cg mixes a cgo file with plain Go.
package cg

import "sync"

// Total accumulates.
var Total int

var mu sync.Mutex

// Add adds under a lock.
func Add(n int) {
	mu.Lock()
	Total += n
	mu.Unlock()
}
