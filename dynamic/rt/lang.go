package rt

import (
	"reflect"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
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
	offs, names := partsOf(t)
	if len(offs) == 0 {
		return
	}
	if t.Size() == 0 {
		n = 1 // zero-size values share one address
	}
	left := maxRange
	for i := 0; i < n && left > 0; i++ {
		base := unsafe.Add(p, uintptr(i)*t.Size())
		for j, off := range offs {
			if left == 0 {
				break
			}
			left--
			a := unsafe.Add(base, off)
			gate(a, site, op)
			recordPart(a, site, op, names[j])
		}
	}
}

// partsOf returns the offsets of t's scalar parts (see partOffsets) and
// the name of each (see partSet), computed once per type.
func partsOf(t reflect.Type) ([]uintptr, []string) {
	partsMu.Lock()
	ps, ok := parts[t]
	if !ok {
		ps = partOffsets(t, 0, "", partSet{})
		if t == mutexType || t == rwMutexType {
			// A mutex read or written as a value: its word, which Lock
			// and Unlock update (LockWord). Inside another value a
			// mutex has no parts (partOffsets).
			ps = partSet{offs: []uintptr{0}, names: []string{""}}
		}
		parts[t] = ps
	}
	partsMu.Unlock()
	return ps.offs, ps.names
}

// partSet is a type's scalar parts: offsets, and for a struct field the
// name an access of that field gives its location ("Limits.Burst", as
// the instrumenter's describe), "" for others (the copy's site names
// them). An object is named by the first access that makes it known; a
// field named by the copy's site ("Server.limits") in one run and by the
// field's own access in another would make the same finding read
// differently from run to run.
type partSet struct {
	offs  []uintptr
	names []string
}

var (
	mutexType   = reflect.TypeOf((*sync.Mutex)(nil)).Elem()
	rwMutexType = reflect.TypeOf((*sync.RWMutex)(nil)).Elem()

	partsMu sync.Mutex
	parts   = map[reflect.Type]partSet{}
	nparts  = map[reflect.Type]int{}
)

func memParts(p unsafe.Pointer, t reflect.Type, site int32, op trace.Op) {
	offs, names := partsOf(t)
	for i, off := range offs {
		a := unsafe.Add(p, off)
		gate(a, site, op)
		recordPart(a, site, op, names[i])
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
// (a race is two accesses enabled together), has made it known. At most
// maxRange more; the search costs at most maxKnownScan probes (knownOffsets).
func knownParts(p unsafe.Pointer, t reflect.Type, after uintptr, site int32, op trace.Op) {
	if !active.Load() {
		return
	}
	mu.Lock()
	if w := rec; w != nil && rp == nil {
		offs := w.knownOffsets(p, t, after, maxRange)
		mu.Unlock()
		for _, off := range offs {
			a := unsafe.Add(p, off)
			gate(a, site, op)
			record(a, classMem, site, op, 0, 0)
		}
		return
	}
	mu.Unlock()
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
		var offs []uintptr
		if w := rec; w != nil {
			offs = w.knownOffsets(p, t, after, 1)
		}
		mu.Unlock()
		if len(offs) == 0 {
			return
		}
		a := unsafe.Add(p, offs[0])
		if !replaying {
			gate(a, site, op)
		}
		record(a, classMem, site, op, 0, 0)
		after = offs[0]
	}
}

// maxKnownScan bounds the probes of one knownOffsets.
const maxKnownScan = 1 << 14

// knownOffsets returns (mu held), in increasing order, the first n offsets
// past after of parts of the value of type t at p (past its first maxRange
// parts) that are live objects of the recorder. It probes the cheaper
// side: each remaining part's address, or each object; none when both
// exceed maxKnownScan.
func (w *recorder) knownOffsets(p unsafe.Pointer, t reflect.Type, after uintptr, n int) []uintptr {
	base := uintptr(p)
	var out []uintptr
	if rest := numParts(t) - maxRange; rest <= len(w.objs) && rest <= maxKnownScan {
		i := 0
		forParts(t, 0, func(off uintptr) bool {
			i++
			if i <= maxRange || off <= after {
				return true
			}
			if e, ok := w.objs[objKey{base + off, classMem}]; ok && live(e.ref) {
				out = append(out, off)
			}
			return len(out) < n
		})
		return out
	}
	if len(w.objs) > maxKnownScan {
		return nil
	}
	for k, e := range w.objs {
		if k.class == classMem && k.addr > base+after && k.addr < base+t.Size() && live(e.ref) && isPart(t, k.addr-base) {
			out = append(out, k.addr-base)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// numParts is the number of t's scalar parts (partOffsets, without its
// bound), computed once per type.
func numParts(t reflect.Type) int {
	partsMu.Lock()
	c, ok := nparts[t]
	partsMu.Unlock()
	if ok {
		return c
	}
	switch t.PkgPath() {
	case "sync", "sync/atomic":
		c = 0
	default:
		switch {
		case t.Size() == 0:
		case t.Kind() == reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				c += numParts(t.Field(i).Type)
			}
		case t.Kind() == reflect.Array:
			c = t.Len() * numParts(t.Elem())
		default:
			c = 1
		}
	}
	partsMu.Lock()
	nparts[t] = c
	partsMu.Unlock()
	return c
}

// forParts calls f with the offset of each of t's scalar parts from base,
// in order, while f returns true; it reports whether f always did.
func forParts(t reflect.Type, base uintptr, f func(uintptr) bool) bool {
	if t.Size() == 0 {
		return true
	}
	switch t.PkgPath() {
	case "sync", "sync/atomic":
		return true
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if fl := t.Field(i); !forParts(fl.Type, base+fl.Offset, f) {
				return false
			}
		}
		return true
	case reflect.Array:
		es := t.Elem().Size()
		for i := 0; i < t.Len(); i++ {
			if !forParts(t.Elem(), base+uintptr(i)*es, f) {
				return false
			}
		}
		return true
	}
	return f(base)
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

// partOffsets appends the offsets of t's scalar parts, from base; name
// is the part's name when t is a field's type (see partSet).
func partOffsets(t reflect.Type, base uintptr, name string, out partSet) partSet {
	if len(out.offs) >= maxRange || t.Size() == 0 {
		return out
	}
	switch t.PkgPath() {
	case "sync", "sync/atomic":
		return out
	}
	switch t.Kind() {
	case reflect.Struct:
		owner := ownerName(t)
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			out = partOffsets(f.Type, base+f.Offset, owner+"."+f.Name, out)
		}
		return out
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			out = partOffsets(t.Elem(), base+uintptr(i)*t.Elem().Size(), "", out)
		}
		return out
	}
	out.offs = append(out.offs, base)
	out.names = append(out.names, name)
	return out
}

// ownerName is a struct type's name as the instrumenter's fieldOwner
// gives it: a named type without package or type arguments, else
// "struct".
func ownerName(t reflect.Type) string {
	n := t.Name()
	if i := strings.IndexByte(n, '['); i >= 0 {
		n = n[:i]
	}
	if n == "" {
		return "struct"
	}
	return n
}
