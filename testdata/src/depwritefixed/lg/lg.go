// Package lg formats warnings and counts them under a lock; it starts no
// goroutine.
package lg

import (
	"fmt"
	"sync"
)

var (
	mu       sync.Mutex
	warnings int
)

// Warn formats a warning and counts it.
func Warn(format string, args ...any) string {
	mu.Lock()
	warnings++
	mu.Unlock()
	return "WARN " + fmt.Sprintf(format, args...)
}

// Warnings returns the number of warnings so far.
func Warnings() int {
	mu.Lock()
	defer mu.Unlock()
	return warnings
}
