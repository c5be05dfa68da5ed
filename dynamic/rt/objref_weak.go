//go:build go1.24 && (amd64 || arm64) && !purego

package rt

import (
	"runtime"
	"sync/atomic"
	"unsafe"
	"weak"
)

// Object identity. Go's allocator hands the address of a freed variable to
// the next allocation of its size class, often in another goroutine, so an
// address names different variables over time. The recorder therefore names
// a heap object after its allocation: on first sight it takes a weak pointer
// to the heap block holding the address (runtime.findObject gives its base;
// weak.Make of equal pointers gives the same handle, so all fields of one
// block share it); while that block lives, the weak pointer's Value is not
// nil, and the runtime clears it when the block is collected, before the
// memory can be handed out again. An address whose weak pointer went nil
// holds a new allocation: a new object. Globals, stacks and memory the
// runtime does not manage (mmap, C) are not in a heap block: their address
// identifies them for the whole run.
//
// A weak pointer to an object with a finalizer goes nil when the finalizer
// is queued: an object resurrected by its finalizer is taken for a new one
// (two names for one object loses anomalies on it, never invents one).
type objRef = weak.Pointer[byte]

// findObject is the runtime's lookup of the heap block holding p (base 0:
// not in the heap). Its signature is kept stable for linkname users (see
// go.dev/issue/67401).
//
//go:linkname findObject runtime.findObject
func findObject(p, refBase, refOff uintptr) (base uintptr, s unsafe.Pointer, objIndex uintptr)

// heapBase returns the base of the heap block holding addr, or 0 if addr is
// not in the heap.
func heapBase(addr uintptr) uintptr {
	base, _, _ := findObject(addr, 0, 0)
	return base
}

// makeRef returns a weak pointer to the heap block at base. The block must
// be live: the caller is about to access it.
func makeRef(base uintptr) objRef {
	// A uintptr, not the caller's unsafe.Pointer, crosses the recorder's
	// calls, so that escape analysis does not move every instrumented
	// variable to the heap; the block is kept alive by the caller.
	return weak.Make(*(**byte)(unsafe.Pointer(&base)))
}

// heapRef returns a weak pointer to the heap block holding addr, or the
// zero objRef if addr is not in the heap (the recorder's method caches it).
func heapRef(addr uintptr) objRef {
	base := heapBase(addr)
	if base == 0 {
		return objRef{}
	}
	return makeRef(base)
}

// live reports whether the allocation r refers to still lives (always, for
// an object outside the heap). It runs on every recorded event, so it reads
// the runtime's handle word directly (an atomic load) rather than calling
// r.Value (about 50 ns): the sweeper stores 0 in the handle of a dead block
// before the block is freed, so a non-zero handle means the block was not
// reused. handleOK says that the layout this relies on was verified.
func live(r objRef) bool {
	if r == (objRef{}) {
		return true
	}
	if handleOK {
		return atomic.LoadUintptr(handleOf(r)) != 0
	}
	return r.Value() != nil
}

// handleOf returns the runtime's handle word behind r: a weak.Pointer's
// only field points at it.
func handleOf(r objRef) *uintptr { return *(**uintptr)(unsafe.Pointer(&r)) }

// handleOK is true if a weak pointer is one word that points at a handle
// holding the pointer it was made from, as in every Go release with package
// weak; otherwise live calls Value.
var handleOK = func() bool {
	if unsafe.Sizeof(objRef{}) != unsafe.Sizeof(uintptr(0)) {
		return false
	}
	p := new([2]uintptr)
	r := weak.Make((*byte)(unsafe.Pointer(p)))
	h := handleOf(r)
	ok := h != nil && atomic.LoadUintptr(h) == uintptr(unsafe.Pointer(p))
	runtime.KeepAlive(p)
	return ok
}()
