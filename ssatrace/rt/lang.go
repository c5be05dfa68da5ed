package rt

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// maxRange bounds the elements one copy or append records: each element is
// an object of its own, and a bulk copy of a large buffer would otherwise
// flood the trace. Past the bound, a whole-value copy (memParts) records
// only the parts other accesses made known (knownParts).
const maxRange = 256

// RRange records reads of the n elements of size bytes starting at p, in
// order, just before a copy or an append reads them.
func RRange(p unsafe.Pointer, n int, size uintptr, site int32) {
	memRange(p, n, size, site, trace.Read)
}

// WRange records writes of the n elements of size bytes starting at p.
func WRange(p unsafe.Pointer, n int, size uintptr, site int32) {
	memRange(p, n, size, site, trace.Write)
}

func memRange(p unsafe.Pointer, n int, size uintptr, site int32, op trace.Op) {
	if !active.Load() || p == nil || n <= 0 {
		return
	}
	if n > maxRange {
		n = maxRange
	}
	if size == 0 {
		n = 1 // zero-size elements share one address
	}
	for i := 0; i < n; i++ {
		a := unsafe.Add(p, uintptr(i)*size)
		gate(a, site, op)
		record(a, classMem, site, op, 0, 0)
	}
}

// RV records a read of the whole value at p, a struct or an array: one
// read of each of its scalar parts (fields and elements, recursively; at
// most maxRange), the locations an access of one field or element names.
// Parts of sync and sync/atomic types are skipped: they are not plain
// memory.
func RV[T any](p *T, site int32) {
	if active.Load() {
		memParts(unsafe.Pointer(p), reflect.TypeOf(p).Elem(), site, trace.Read)
	}
}

// WV records a write of the whole value at p (see RV).
func WV[T any](p *T, site int32) {
	if active.Load() {
		memParts(unsafe.Pointer(p), reflect.TypeOf(p).Elem(), site, trace.Write)
	}
}

// RRangeV records reads of the n values of type T starting at p, in
// order, just before a copy, an append or a conversion reads them: of each
// value's scalar parts (see RV), so that copying a slice of structs
// conflicts with a write of one element's field. At most maxRange events
// in all, as RRange.
func RRangeV[T any](p *T, n int, site int32) {
	if active.Load() {
		memPartsN(unsafe.Pointer(p), reflect.TypeOf(p).Elem(), n, site, trace.Read)
	}
}

// WRangeV records writes of the n values of type T starting at p (see
// RRangeV).
func WRangeV[T any](p *T, n int, site int32) {
	if active.Load() {
		memPartsN(unsafe.Pointer(p), reflect.TypeOf(p).Elem(), n, site, trace.Write)
	}
}

// memPartsN records op on the parts of n consecutive values of type t at
// p, at most maxRange of them.
func memPartsN(p unsafe.Pointer, t reflect.Type, n int, site int32, op trace.Op) {
	if p == nil || n <= 0 {
		return
	}
	offs := partsOf(t)
	if len(offs) == 0 {
		return
	}
	if t.Size() == 0 {
		n = 1 // zero-size values share one address
	}
	left := maxRange
	for i := 0; i < n && left > 0; i++ {
		base := unsafe.Add(p, uintptr(i)*t.Size())
		for _, off := range offs {
			if left == 0 {
				break
			}
			left--
			a := unsafe.Add(base, off)
			gate(a, site, op)
			record(a, classMem, site, op, 0, 0)
		}
	}
}

// partsOf returns the offsets of t's scalar parts (see partOffsets),
// computed once per type.
func partsOf(t reflect.Type) []uintptr {
	partsMu.Lock()
	offs, ok := parts[t]
	if !ok {
		offs = partOffsets(t, 0, nil)
		if t == mutexType || t == rwMutexType {
			// A mutex read or written as a value: its word, which Lock
			// and Unlock update (LockWord). Inside another value a
			// mutex has no parts (partOffsets).
			offs = []uintptr{0}
		}
		parts[t] = offs
	}
	partsMu.Unlock()
	return offs
}

var (
	mutexType   = reflect.TypeOf((*sync.Mutex)(nil)).Elem()
	rwMutexType = reflect.TypeOf((*sync.RWMutex)(nil)).Elem()

	partsMu sync.Mutex
	parts   = map[reflect.Type][]uintptr{}
)

func memParts(p unsafe.Pointer, t reflect.Type, site int32, op trace.Op) {
	offs := partsOf(t)
	for _, off := range offs {
		a := unsafe.Add(p, off)
		gate(a, site, op)
		record(a, classMem, site, op, 0, 0)
	}
	if len(offs) == maxRange && p != nil {
		knownParts(p, t, offs[len(offs)-1], site, op)
	}
}

// knownParts records op on the parts of the value of type t at p past
// offset after (the parts memParts recorded end there, at maxRange) that
// the recorder already knows as objects: locations some access named
// before. A copy of a large array touches every element, but recording
// each would flood the trace; the elements that another access touched
// are the ones that can race, and they are few. In a replay the copy's
// goroutine takes each such event's turn first and then looks for the
// location, so that the other goroutine's access, scheduled just before
// (a race is two accesses enabled together), has made it known (at most
// maxRange more; none when the recorder knows more than maxKnownScan
// objects, whose scan would cost too much).
func knownParts(p unsafe.Pointer, t reflect.Type, after uintptr, site int32, op trace.Op) {
	if !active.Load() {
		return
	}
	for k := 0; k < maxRange; k++ {
		replaying := false
		mu.Lock()
		if w := rec; w != nil && rp != nil && !rp.free {
			if g := w.cur(); !rp.freed[g.name] {
				replaying = true
				if !rp.expects(g, site, op) {
					mu.Unlock()
					return
				}
			}
		}
		mu.Unlock()
		if replaying {
			gate(nil, site, op)
		}
		mu.Lock()
		off, ok := uintptr(0), false
		if w := rec; w != nil {
			off, ok = w.nextKnown(p, t, after)
		}
		mu.Unlock()
		if !ok {
			return
		}
		a := unsafe.Add(p, off)
		if !replaying {
			gate(a, site, op)
		}
		record(a, classMem, site, op, 0, 0)
		after = off
	}
}

// maxKnownScan bounds the objects knownParts scans.
const maxKnownScan = 1 << 16

// nextKnown returns (mu held) the smallest offset past after of a part of
// the value of type t at p that is a live object of the recorder.
func (w *recorder) nextKnown(p unsafe.Pointer, t reflect.Type, after uintptr) (uintptr, bool) {
	if len(w.objs) > maxKnownScan {
		return 0, false
	}
	lo, hi := uintptr(p)+after, uintptr(p)+t.Size()
	best, found := hi, false
	for k, e := range w.objs {
		if k.class != classMem || k.addr <= lo || k.addr >= best || !live(e.ref) || !isPart(t, k.addr-uintptr(p)) {
			continue
		}
		best, found = k.addr, true
	}
	return best - uintptr(p), found
}

// isPart reports whether off is the offset of a scalar part of t (see
// partOffsets, without its bound).
func isPart(t reflect.Type, off uintptr) bool {
	for {
		if off >= t.Size() {
			return false
		}
		switch t.PkgPath() {
		case "sync", "sync/atomic":
			return false
		}
		switch t.Kind() {
		case reflect.Struct:
			var f reflect.StructField
			in := false
			for i := 0; i < t.NumField(); i++ {
				if g := t.Field(i); g.Offset <= off && off < g.Offset+g.Type.Size() {
					f, in = g, true
					break
				}
			}
			if !in {
				return false
			}
			t, off = f.Type, off-f.Offset
		case reflect.Array:
			es := t.Elem().Size()
			if es == 0 {
				return false
			}
			t, off = t.Elem(), off%es
		default:
			return off == 0
		}
	}
}

// partOffsets appends the offsets of t's scalar parts, from base.
func partOffsets(t reflect.Type, base uintptr, out []uintptr) []uintptr {
	if len(out) >= maxRange || t.Size() == 0 {
		return out
	}
	switch t.PkgPath() {
	case "sync", "sync/atomic":
		return out
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			out = partOffsets(f.Type, base+f.Offset, out)
		}
		return out
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			out = partOffsets(t.Elem(), base+uintptr(i)*t.Elem().Size(), out)
		}
		return out
	}
	return append(out, base)
}
