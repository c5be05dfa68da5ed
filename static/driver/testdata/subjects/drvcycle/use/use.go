// Package use imports drvcycle.
package use

import "subjects/drvcycle"

// Filled returns a box with n counted.
func Filled(n int) *drvcycle.Box {
	b := drvcycle.New()
	for i := 0; i < n; i++ {
		b.Inc()
	}
	return b
}
