package rt

import (
	"reflect"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Accesses through package reflect, which is not instrumented: the
// instrumenter passes the receiver of the reflect.Value methods that read
// or write the value it refers to through ReflectR or ReflectW, and
// replaces reflect.Copy by ReflectCopy. Only an addressable Value refers
// to a variable (one reached through a pointer, a slice element or a field
// of one); any other holds a copy of its own, which no other goroutine can
// reach through it.

// ReflectR records a read of the variable v refers to, if any, just before
// a method of v (Int, Interface, ...) reads it: of each of its scalar parts,
// as RV. It returns v.
func ReflectR(v reflect.Value, site int32) reflect.Value {
	reflectAccess(v, site, trace.Read)
	return v
}

// ReflectW records a write of the variable v refers to, if any, just before
// a method of v (Set, SetInt, ...) writes it (see ReflectR).
func ReflectW(v reflect.Value, site int32) reflect.Value {
	reflectAccess(v, site, trace.Write)
	return v
}

func reflectAccess(v reflect.Value, site int32, op trace.Op) {
	if !active.Load() || !v.IsValid() || !v.CanAddr() {
		return
	}
	memParts(unsafe.Pointer(v.UnsafeAddr()), v.Type(), site, op)
}

// ReflectCopy records reads of the elements reflect.Copy(dst, src) reads
// and writes of those it writes (as RRangeV and WRangeV), then performs it.
func ReflectCopy(dst, src reflect.Value, site int32) int {
	if active.Load() {
		d, s := reflectElems(dst), reflectElems(src)
		if d != nil && (s != nil || src.Kind() == reflect.String) {
			n := min(dst.Len(), src.Len())
			if s != nil {
				memPartsN(s, src.Type().Elem(), n, site, trace.Read)
			}
			memPartsN(d, dst.Type().Elem(), n, site, trace.Write)
		}
	}
	return reflect.Copy(dst, src)
}

// reflectElems returns the address of the first element of the slice or
// addressable array v refers to (nil for any other, or an empty one).
func reflectElems(v reflect.Value) unsafe.Pointer {
	switch v.Kind() {
	case reflect.Slice:
		if v.Len() > 0 {
			return v.UnsafePointer()
		}
	case reflect.Array:
		if v.CanAddr() && v.Len() > 0 {
			return unsafe.Pointer(v.UnsafeAddr())
		}
	}
	return nil
}
