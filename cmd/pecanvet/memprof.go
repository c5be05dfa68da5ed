package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"time"
)

// With PECANVET_MEMPROFILE=FILE set, pecanvet writes a heap profile to
// FILE each time the heap in use grows past its previous peak by 128 MiB,
// so that the file holds the allocations of the highest peak seen. Peak
// memory is transient (a trace's prediction, a queue of schedules): a
// profile at exit would miss it. For measuring the tool, not for users.
func init() {
	path := os.Getenv("PECANVET_MEMPROFILE")
	if path == "" {
		return
	}
	runtime.MemProfileRate = 64 << 10
	go func() {
		var peak uint64
		var ms runtime.MemStats
		for range time.Tick(200 * time.Millisecond) {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse < peak+128<<20 {
				continue
			}
			peak = ms.HeapInuse
			if f, err := os.Create(path + ".tmp"); err == nil {
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
				os.Rename(path+".tmp", path)
			}
		}
	}()
}

// softMemoryLimit is the Go heap's soft limit for a pecanvet process,
// unless GOMEMLIMIT sets one. A trace's prediction holds about 150 MB
// live on ants' longest tests, but with the default GC target the process
// grew to twice that and more (530 MB), beside the test processes it runs
// and go vet's other packages: ants' vet tree came within a few percent
// of 1 GB. Over the limit the GC works harder (at most half the CPU),
// which is slower but bounded.
const softMemoryLimit = 320 << 20

// limitMemory sets softMemoryLimit. Test and replay processes do not
// inherit it: it is not in their environment.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
	}
}
