package main

import (
	"os"
	"runtime/pprof"
)

// With PECANVET_CPUPROFILE=FILE set, pecanvet writes a CPU profile of its
// own process (not of the test processes it runs) to FILE, from start to
// exit: what a check spends in prediction and bookkeeping, beside the
// children's time /usr/bin/time sums in. For measuring the tool, not for
// users. The returned function stops the profile (deferred by main).
func startCPUProfile() func() {
	path := os.Getenv("PECANVET_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		return func() {}
	}
	if pprof.StartCPUProfile(f) != nil {
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
