// Package lg formats warnings and counts them; it starts no goroutine
// and takes no lock.
package lg

import "fmt"

var warnings int

// Warn formats a warning and counts it.
func Warn(format string, args ...any) string {
	warnings++
	return "WARN " + fmt.Sprintf(format, args...)
}

// Warnings returns the number of warnings so far.
func Warnings() int { return warnings }
