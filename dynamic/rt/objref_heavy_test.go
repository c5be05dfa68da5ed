//go:build go1.24 && (amd64 || arm64) && !purego

package rt

import (
	"runtime"
	"testing"
	"time"
	"unsafe"
)

// TestRecordAllocHeavy: a test that allocates a fresh variable per
// iteration and touches it (10^7 events, 5*10^6 objects, each a new
// allocation, most at reused addresses) is recorded whole, every
// allocation a new object, within a memory bound far below the 1 GB that
// pecanvet and its children may use: the recorder keeps about 30 bytes per
// object, not its name.
func TestRecordAllocHeavy(t *testing.T) {
	if testing.Short() {
		t.Skip("records 10^7 events (about 15 s)")
	}
	const n = 5_000_000
	recordTo(t) // the trace is not read back: that is the decoder's cost, not the recorder's
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	var peak uint64
	for i := 0; i < n; i++ {
		p := heap[int]()
		R(unsafe.Pointer(p), sRead)
		W(unsafe.Pointer(p), sWrite)
		if i%(1<<20) == 0 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.Sys)
		}
	}
	wall := time.Since(start)
	var after runtime.MemStats
	runtime.GC()
	mu.Lock()
	w := rec
	events, objects, dropped := w.events, w.objNames.n, w.dropped
	// What stays once the allocations are collected: the map entries of
	// dead ones go at the next sweep, which new objects trigger.
	w.sweep()
	mu.Unlock()
	runtime.GC()
	runtime.ReadMemStats(&after)
	peak = max(peak, after.Sys)
	runtime.KeepAlive(w)
	finish("")
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d events in %v (%.0f events/s), %d objects; heap grown by %d MB (%.0f B/object), peak from the OS %d MB",
		events, wall, float64(events)/wall.Seconds(), objects, grown>>20, float64(grown)/float64(objects), peak>>20)
	if dropped != 0 || events < 2*n {
		t.Errorf("%d events written, %d dropped; want %d, none dropped", events, dropped, 2*n)
	}
	if objects != n {
		t.Errorf("%d objects named, want %d (each allocation is a new object)", objects, n)
	}
	if grown > 64*n {
		t.Errorf("recorder state grew by %d bytes for %d objects: over 64 per object", grown, n)
	}
	if peak > 900<<20 { // measured 476 to 677 MB, the most on a machine loaded 50x
		t.Errorf("the process took %d MB from the OS; the bound for pecanvet and its children is 1 GB", peak>>20)
	}
}
