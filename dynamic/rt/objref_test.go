//go:build go1.24 && (amd64 || arm64) && !purego

package rt

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

type reuseT struct {
	a, b *int
	n    [6]int
}

// TestObjectReuse: a variable collected and reallocated at the same address
// is a new object (a new name), while a live one keeps its name.
func TestObjectReuse(t *testing.T) {
	if !handleOK {
		t.Error("weak pointer layout not recognized: live falls back to Value (slow)")
	}
	w := newRecorder(discard{})
	name := func(addr uintptr) string { return w.tab.Name(trace.TabObject, w.object(addr, classMem, "v")) }

	keep := escape(new(reuseT))
	kaddr := uintptr(unsafe.Pointer(&keep.n[3]))
	first := name(kaddr)

	x := escape(new(reuseT))
	addr := uintptr(unsafe.Pointer(&x.n[1]))
	old := name(addr)
	if again := name(addr); again != old {
		t.Fatalf("live object renamed: %s then %s", old, again)
	}
	x, escaped = nil, nil
	runtime.GC()
	runtime.GC()
	// Allocate until the allocator hands out the block again.
	var hold []*reuseT
	var y *reuseT
	for i := 0; i < 1<<20 && y == nil; i++ {
		p := escape(new(reuseT))
		if uintptr(unsafe.Pointer(&p.n[1])) == addr {
			y = p
		} else {
			hold = append(hold, p)
		}
	}
	if y == nil {
		t.Fatal("the address was never reused")
	}
	if nw := name(addr); nw == old {
		t.Fatalf("reallocated variable at %#x kept the old object's name %s", addr, old)
	}
	if got := name(kaddr); got != first {
		t.Fatalf("live object renamed across a GC: %s then %s", first, got)
	}
	runtime.KeepAlive(keep)
	runtime.KeepAlive(y)
	runtime.KeepAlive(hold)
}

// TestObjectNotHeap: globals keep their address's name (they are never
// freed; weak.Make and findObject are not used on them).
func TestObjectNotHeap(t *testing.T) {
	w := newRecorder(discard{})
	addr := uintptr(unsafe.Pointer(&globalVar))
	if r := heapRef(addr); r != (objRef{}) {
		t.Fatal("a global was taken for a heap object")
	}
	a, b := w.object(addr, classMem, "g"), w.object(addr, classMem, "g")
	if a != b {
		t.Fatalf("global renamed: %d then %d", a, b)
	}
}

var globalVar [4]int

// escaped makes escape's argument a heap allocation.
var escaped *reuseT

func escape(p *reuseT) *reuseT {
	escaped = p
	return p
}

// TestObjectNameDropped: once an object's name is written the recorder
// drops its string, and objName (the replay's wrong-object message) still
// gives it.
func TestObjectNameDropped(t *testing.T) {
	w := newRecorder(discard{})
	g := w.goroutine(1)
	x := escape(new(reuseT))
	o := w.object(uintptr(unsafe.Pointer(&x.n[0])), classMem, "reuse.n")
	u := w.unit("Unit")
	w.write(trace.Event{G: g.idx, Op: trace.Write, Obj: o, Site: trace.NoIndex})
	w.write(trace.Event{G: g.idx, Op: trace.RegionBegin, Obj: u, Site: trace.NoIndex})
	if w.tab.Objects[o] != "" {
		t.Errorf("object name kept after it was written: %q", w.tab.Objects[o])
	}
	if got := w.objName(o); got != "reuse.n#1" {
		t.Errorf("objName = %q, want reuse.n#1", got)
	}
	if got := w.objName(u); got != "Unit" {
		t.Errorf("unit name = %q, want Unit", got)
	}
	runtime.KeepAlive(x)
}

// failEnc rejects every event, as an encoder does for one the format
// cannot hold (more names than a table takes).
type failEnc struct{ trunc string }

func (e *failEnc) Encode(trace.Event, *trace.Tables) error {
	return errors.New("cannot write object 7: more than 67108864 object names")
}
func (e *failEnc) SetTruncated(reason string) { e.trunc = reason }
func (e *failEnc) Close() error               { return nil }

// TestDroppedEventsTruncate: events the encoder rejects make the trace say
// that it is not the whole run.
func TestDroppedEventsTruncate(t *testing.T) {
	w := newRecorder(discard{})
	enc := &failEnc{}
	w.enc, w.fl = enc, nil
	g := w.goroutine(1)
	w.write(trace.Event{G: g.idx, Op: trace.Write, Obj: w.object(uintptr(unsafe.Pointer(&globalVar)), classMem, "g"), Site: trace.NoIndex})
	w.close("")
	if !strings.Contains(enc.trunc, "1 events not written: cannot write object 7") {
		t.Errorf("truncation reason %q", enc.trunc)
	}
}
