package main

import (
	"runtime/debug"
	"testing"
)

// TestLimitMemory: pecanvet's heap has a soft limit unless GOMEMLIMIT
// sets one.
func TestLimitMemory(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(1 << 40)
	limitMemory()
	if got := debug.SetMemoryLimit(-1); got != softMemoryLimit {
		t.Errorf("limit %d, want %d", got, softMemoryLimit)
	}
	t.Setenv("GOMEMLIMIT", "2GiB")
	debug.SetMemoryLimit(1 << 40)
	limitMemory()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("with GOMEMLIMIT set, limit %d, want it left alone", got)
	}
}
