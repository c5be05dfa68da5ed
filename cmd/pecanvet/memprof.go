package main

import (
	"os"
	"runtime"
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
