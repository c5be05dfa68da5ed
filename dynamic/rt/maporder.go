package rt

import (
	"math"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Map iteration order. Go starts each range over a map at a random place
// (and every map hashes with a seed of its own), so a loop whose body
// does something per key did it in another order in each replay than in
// the recording: go-deadlock's preLock, ranging over the locks held, made
// most of its replays diverge. The instrumenter makes such a loop range
// over MapEntries' keys instead, in an order that is the same in every
// run that gives the map the same keys: numbers, strings and booleans by
// value; pointers and channels by the order the recording first saw them
// as keys of an instrumented map access (KeyHash), which the replay's
// schedule keeps; structs, arrays and interfaces field by field, element
// by element, type name first. The loop looks each key up as it comes to
// it (a key deleted meanwhile is skipped, one added is not visited: both
// allowed by the spec), so it sees the values the original loop would.
// An order is one the runtime could give: the spec leaves it open.

// mapOrderMax bounds the maps whose keys are sorted: a larger map keeps
// Go's order (sorting it in a loop that ranges over it again and again
// would cost more than its replays' divergence).
const mapOrderMax = 4096

var (
	ptrRankMu sync.Mutex
	ptrRanks  = map[uintptr]uint64{}
)

// maxPtrRanks bounds ptrRanks: later pointers tie (Go's order).
const maxPtrRanks = 1 << 20

// ptrRank returns p's rank: the order in which it was first seen as a
// key (from 1), assigning the next if it was not.
func ptrRank(p uintptr) uint64 {
	ptrRankMu.Lock()
	defer ptrRankMu.Unlock()
	r, ok := ptrRanks[p]
	if !ok && len(ptrRanks) < maxPtrRanks {
		r = uint64(len(ptrRanks)) + 1
		ptrRanks[p] = r
	}
	return r
}

// MapEntries returns m's keys, in the order above while m is recorded
// and no larger than mapOrderMax, in Go's order otherwise, and their
// values (the loop's value for a key it cannot look up again: NaN).
func MapEntries[M ~map[K]V, K comparable, V any](m M) ([]K, []V) {
	ks := make([]K, 0, len(m))
	vs := make([]V, 0, len(m))
	for k, v := range m {
		ks = append(ks, k)
		vs = append(vs, v)
	}
	if !active.Load() || len(ks) < 2 || len(ks) > mapOrderMax {
		return ks, vs
	}
	rv := make([]reflect.Value, len(ks))
	for i := range ks {
		rv[i] = reflect.ValueOf(&ks[i]).Elem()
	}
	idx := make([]int, len(ks))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keyCmp(rv[idx[a]], rv[idx[b]]) < 0 })
	sk := make([]K, len(ks))
	sv := make([]V, len(vs))
	for i, j := range idx {
		sk[i], sv[i] = ks[j], vs[j]
	}
	return sk, sv
}

// keyCmp orders two keys of one type (see above); 0: tied.
func keyCmp(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp3(a.Int() < b.Int(), a.Int() > b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp3(a.Uint() < b.Uint(), a.Uint() > b.Uint())
	case reflect.Float32, reflect.Float64:
		return floatCmp(a.Float(), b.Float())
	case reflect.Complex64, reflect.Complex128:
		if c := floatCmp(real(a.Complex()), real(b.Complex())); c != 0 {
			return c
		}
		return floatCmp(imag(a.Complex()), imag(b.Complex()))
	case reflect.String:
		return strings.Compare(a.String(), b.String())
	case reflect.Bool:
		return cmp3(!a.Bool() && b.Bool(), a.Bool() && !b.Bool())
	case reflect.Pointer, reflect.UnsafePointer, reflect.Chan:
		if a.Pointer() == b.Pointer() {
			return 0
		}
		ra, rb := ptrRank(a.Pointer()), ptrRank(b.Pointer())
		return cmp3(ra < rb, ra > rb)
	case reflect.Interface:
		switch {
		case a.IsNil() || b.IsNil():
			return cmp3(a.IsNil() && !b.IsNil(), !a.IsNil() && b.IsNil())
		case a.Elem().Type() != b.Elem().Type():
			return strings.Compare(a.Elem().Type().String(), b.Elem().Type().String())
		}
		return keyCmp(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := keyCmp(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := keyCmp(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
	}
	return 0
}

func cmp3(less, more bool) int {
	switch {
	case less:
		return -1
	case more:
		return 1
	}
	return 0
}

// floatCmp orders NaNs last (tied).
func floatCmp(x, y float64) int {
	switch {
	case math.IsNaN(x) || math.IsNaN(y):
		return cmp3(!math.IsNaN(x), !math.IsNaN(y) && math.IsNaN(x))
	}
	return cmp3(x < y, x > y)
}
