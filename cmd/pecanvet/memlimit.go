package main

import (
	"os"
	"runtime/debug"
)

// memoryLimit is the Go runtime's soft memory limit for pecanvet itself
// unless GOMEMLIMIT says otherwise. Prediction's working set on a long
// trace is a few hundred megabytes (the trace, the PTG and its clocks,
// the lock filter), short-lived, one trace at a time; with the default
// GOGC alone the heap grows to twice that before a collection, and peak
// RSS passes 1 GB on ants's tests. The limit makes the collector run
// earlier as the heap nears it; it does not fail an allocation. The
// tests pecanvet runs are other processes and keep their defaults.
const memoryLimit = 640 << 20

func init() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}
