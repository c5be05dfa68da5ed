//go:build go1.24 && (amd64 || arm64) && !purego

package rt

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// wgReads returns how many reads of a WaitGroup's memory (the race
// detector's model of an Add from 0) g1 recorded.
func wgReads(g1 []string) int {
	n := 0
	for _, l := range g1 {
		if strings.HasPrefix(l, "read wg#") {
			n++
		}
	}
	return n
}

var escapedWG *sync.WaitGroup

// TestWaitGroupStaleCount: the counter rt keeps for a WaitGroup belongs to
// that WaitGroup in that recording. A count left above 0 by an earlier
// recording (its Done came after the trace ended: TestBasic's children
// may do that) or by a collected WaitGroup at the same address made the
// next Add from 0 go unrecorded (TestBasic missed "read wg#2" in full runs
// under load, when the allocator reused an address).
func TestWaitGroupStaleCount(t *testing.T) {
	t.Run("recording", func(t *testing.T) {
		wg := new(sync.WaitGroup)
		escapedWG = wg
		read := recordTo(t)
		WGAdd(wg, 1, sWGAdd)
		read()
		wg.Done() // not recorded: the trace is finished
		read = recordTo(t)
		WGAdd(wg, 1, sWGAdd)
		WGDone(wg, sWGDone)
		WGWait(wg, sWGWait)
		g1 := ofG(read(), "g1")
		if wgReads(g1) != 1 || slices.Contains(g1, "write wg#2") {
			t.Errorf("a new recording's Add from 0 (and Wait that does not block):\n got %q", g1)
		}
		escapedWG = nil
	})
	t.Run("reused", func(t *testing.T) {
		read := recordTo(t)
		wg := new(sync.WaitGroup)
		escapedWG = wg
		addr := uintptr(unsafe.Pointer(wg))
		WGAdd(wg, 1, sWGAdd) // never done: dropped with work outstanding
		wg, escapedWG = nil, nil
		runtime.GC()
		runtime.GC()
		var hold []*sync.WaitGroup
		var y *sync.WaitGroup
		for i := 0; i < 1<<20 && y == nil; i++ {
			p := new(sync.WaitGroup)
			escapedWG = p
			if uintptr(unsafe.Pointer(p)) == addr {
				y = p
			} else {
				hold = append(hold, p)
			}
		}
		if y == nil {
			t.Fatal("the address was never reused")
		}
		WGAdd(y, 1, sWGAdd)
		WGDone(y, sWGDone)
		WGWait(y, sWGWait)
		g1 := ofG(read(), "g1")
		if wgReads(g1) != 2 || slices.ContainsFunc(g1, func(l string) bool { return strings.HasPrefix(l, "write wg#") }) {
			t.Errorf("a WaitGroup at a collected one's address (two Adds from 0, a Wait that does not block):\n got %q", g1)
		}
		runtime.KeepAlive(hold)
		escapedWG = nil
	})
}
