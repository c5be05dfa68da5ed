package rt

import (
	"unsafe"

	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// maxRange bounds the elements one copy or append records: each element is
// an object of its own, and a bulk copy of a large buffer would otherwise
// flood the trace. A race on an element past the bound is missed.
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
