package rt

import (
	"reflect"
	"sync"
	"testing"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

const mwLock int32 = 2600 + iota // after select_test.go's 2500…

var _ = Register(mwLock, []Site{
	{Pos: "mw.go:1:1", Obj: "mu"},
	{Pos: "mw.go:2:1", Obj: "mu"},
	{Pos: "mw.go:3:1", Obj: "mu"},
})

// TestMutexWord: LockWord and UnlockWord record an atomic update of the
// mutex's word (marked as an addition: they commute among themselves),
// on the object a plain write of the whole mutex writes, so the two race.
func TestMutexWord(t *testing.T) {
	done := recordTo(t)
	mu := heap[sync.Mutex]()
	LockWord(mu, mwLock)
	UnlockWord(mu, mwLock+1)
	WV(mu, mwLock+2)
	*mu = sync.Mutex{}
	tr := done()
	var rmw, w []trace.Event
	for _, e := range tr.Events {
		switch e.Op {
		case trace.AtomicRMW:
			rmw = append(rmw, e)
		case trace.Write:
			w = append(w, e)
		}
	}
	if len(rmw) != 2 || len(w) != 1 {
		t.Fatalf("%d atomic updates and %d writes, want 2 and 1: %+v", len(rmw), len(w), tr.Events)
	}
	for _, e := range rmw {
		if e.Flags != trace.FlagAdd || e.Obj != w[0].Obj {
			t.Errorf("update %+v: want flag add, on the written object %d", e, w[0].Obj)
		}
	}
}

// TestKnownParts: a copy of a value with more parts than maxRange records
// the first maxRange and, past them, only the parts that were objects
// already (another access named them).
func TestKnownParts(t *testing.T) {
	done := recordTo(t)
	grid := heap[[64][64]int]()
	W(unsafe.Pointer(&grid[40][7]), mwLock)
	RV(grid, mwLock+1)
	tr := done()
	var reads []trace.Event
	var w trace.Event
	for _, e := range tr.Events {
		switch e.Op {
		case trace.Read:
			reads = append(reads, e)
		case trace.Write:
			w = e
		}
	}
	if len(reads) != maxRange+1 || reads[maxRange].Obj != w.Obj {
		t.Fatalf("%d reads (the last on object %d), want %d, the last on the written object %d", len(reads), reads[len(reads)-1].Obj, maxRange+1, w.Obj)
	}

	// Fewer parts past the bound than objects: the parts are probed.
	done = recordTo(t)
	other := heap[[100]int]()
	for i := range other {
		W(unsafe.Pointer(&other[i]), mwLock)
	}
	arr := heap[[300]int]()
	W(unsafe.Pointer(&arr[290]), mwLock)
	W(unsafe.Pointer(&arr[280]), mwLock)
	RV(arr, mwLock+1)
	tr = done()
	objs := map[int32]bool{}
	reads = reads[:0]
	for _, e := range tr.Events {
		switch e.Op {
		case trace.Read:
			reads = append(reads, e)
		case trace.Write:
			objs[e.Obj] = true
		}
	}
	if len(reads) != maxRange+2 || !objs[reads[maxRange].Obj] || !objs[reads[maxRange+1].Obj] || reads[maxRange].Obj == reads[maxRange+1].Obj {
		t.Fatalf("%d reads, want %d, the last two on the two written elements", len(reads), maxRange+2)
	}
}

func TestIsPart(t *testing.T) {
	type pt struct {
		x    int32
		y    int64
		mu   sync.Mutex
		tail [3]int16
	}
	ty := reflect.TypeOf([4]pt{})
	sz := reflect.TypeOf(pt{}).Size()
	for _, c := range []struct {
		off  uintptr
		want bool
	}{
		{0, true}, {4, false}, {8, true}, {16, false}, {sz + 8, true}, {3*sz + 24 + 2, true}, {3*sz + 25, false}, {4 * sz, false},
	} {
		if got := isPart(ty, c.off); got != c.want {
			t.Errorf("isPart(%v, %d) = %v, want %v", ty, c.off, got, c.want)
		}
	}
}
