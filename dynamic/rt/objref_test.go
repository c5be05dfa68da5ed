//go:build go1.24 && (amd64 || arm64) && !purego

package rt

import (
	"bytes"
	"errors"
	"runtime"
	"slices"
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
	name := func(addr uintptr) string { return w.objName(w.object(addr, classMem, "v")) }

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

// TestObjectNamesLazy: the recorder keeps no string per object (its
// tables' Objects stay empty); objName (the replay's wrong-object message)
// gives the name, and the encoder writes it into the trace.
func TestObjectNamesLazy(t *testing.T) {
	var out bufOut
	w := newRecorder(&out)
	g := w.goroutine(1)
	x := escape(new(reuseT))
	o := w.object(uintptr(unsafe.Pointer(&x.n[0])), classMem, "reuse.n")
	u := w.unit("Unit")
	o2 := w.object(uintptr(unsafe.Pointer(&x.n[0])), classLock, "reuse.n")
	w.write(trace.Event{G: g.idx, Op: trace.Write, Obj: o, Site: trace.NoIndex})
	w.write(trace.Event{G: g.idx, Op: trace.RegionBegin, Obj: u, Site: trace.NoIndex})
	w.write(trace.Event{G: g.idx, Op: trace.Lock, Obj: o2, Site: trace.NoIndex})
	if len(w.tab.Objects) != 0 {
		t.Errorf("object names kept as strings: %q", w.tab.Objects)
	}
	for _, c := range []struct {
		obj  int32
		want string
	}{{o, "reuse.n#1"}, {u, "Unit"}, {o2, "reuse.n#2"}, {99, ""}} {
		if got := w.objName(c.obj); got != c.want {
			t.Errorf("objName(%d) = %q, want %q", c.obj, got, c.want)
		}
	}
	if err := w.close(""); err != nil {
		t.Fatal(err)
	}
	tr, err := trace.ReadTrace(bytes.NewReader(out.b), "t", trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"reuse.n#1", "Unit", "reuse.n#2"}; !slices.Equal(tr.Objects, want) {
		t.Errorf("trace's objects %q, want %q", tr.Objects, want)
	}
	runtime.KeepAlive(x)
}

// bufOut is an output that keeps what is written.
type bufOut struct{ b []byte }

func (o *bufOut) Write(p []byte) (int, error) { o.b = append(o.b, p...); return len(p), nil }
func (o *bufOut) close() error                { return nil }

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
