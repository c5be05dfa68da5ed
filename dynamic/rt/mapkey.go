package rt

import (
	"hash/maphash"
	"math"
	"reflect"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Map elements. An access of one element of a map (m[k], m[k] = v,
// delete(m, k)) is recorded on the map, as the race detector sees it (two
// goroutines writing different keys race on the map's internals), with a
// hash of the key in the event's Arg (trace.Op.HasKey). The atomicity and
// atomic-set patterns compare keys (trace.KeysApart): a goroutine reading
// its own key between another's two accesses of another key reads nothing
// they wrote. A collision of two keys' hashes makes them one element: more
// conflicts, never fewer.

// RK records a read of the element whose key hashes to key of the map at
// addr, just before it happens.
func RK(addr unsafe.Pointer, key int64, site int32) {
	if active.Load() {
		gate(addr, site, trace.Read)
		record(addr, classMem, site, trace.Read, key, 0)
	}
}

// WK records a write of the element whose key hashes to key of the map at
// addr, just before it happens.
func WK(addr unsafe.Pointer, key int64, site int32) {
	if active.Load() {
		gate(addr, site, trace.Write)
		record(addr, classMem, site, trace.Write, key, 0)
	}
}

// WKV is WK of a store m[k] = v whose value's identity is val (ValID),
// recorded with the event (trace.FlagVal, Event.Val).
func WKV(addr unsafe.Pointer, key int64, val uint64, site int32) {
	if active.Load() {
		gate(addr, site, trace.Write)
		recordVal(addr, site, key, val)
	}
}

// ValID is the identity WKV records for a value v stored in a map
// element: v's bits, zero-extended. The instrumentation calls it (through
// XMWKV) only for maps whose element type is, underneath, a pointer,
// channel, map, func, unsafe.Pointer, boolean, integer or float: one
// word or less, all of whose bits are the value (no padding), so that
// two stores in one map with equal identities stored equal bits, the
// same value (a pointer's bits are its address: the same object while
// the element holds it). Interfaces (a type word and a data word, the
// data word a box's address for most types), strings (a pointer and a
// length) and other composite values have no identity.
func ValID[V any](v V) uint64 {
	switch unsafe.Sizeof(v) {
	case 8:
		return *(*uint64)(unsafe.Pointer(&v))
	case 4:
		return uint64(*(*uint32)(unsafe.Pointer(&v)))
	case 2:
		return uint64(*(*uint16)(unsafe.Pointer(&v)))
	case 1:
		return uint64(*(*uint8)(unsafe.Pointer(&v)))
	}
	panic("rt.ValID: no identity for a value of this size")
}

// KeyHash is the non-zero hash of a map key that RK and WK record. It
// depends on the key's value only, not on its type where a conversion
// could change the type and keep the key: the instrumented code passes the
// key as an interface{} (an untyped constant key takes its default type
// there, 'a' an int32 where the map's key is a byte, 1 an int where it is
// a float64), so numbers hash by their mathematical value, strings and
// booleans by theirs, whatever their named type, and pointers, channels
// and nil by address. Other keys (structs, arrays, interfaces holding
// them) hash with maphash.Comparable by a seed of this process. Equal keys
// always hash equal; different keys of different types may too (one
// element: coarser).
func KeyHash(k any) int64 {
	if !active.Load() {
		return 0 // not recorded: spare the hashing
	}
	var h uint64
	switch v := k.(type) {
	case nil:
		h = fnvUint(tagPtr, 0)
	case string:
		h = fnvString(v)
	case int:
		h = fnvUint(tagNum, uint64(v))
	case int64:
		h = fnvUint(tagNum, uint64(v))
	case int32:
		h = fnvUint(tagNum, uint64(v))
	case uint64:
		h = fnvUint(tagNum, v)
	case uint32:
		h = fnvUint(tagNum, uint64(v))
	case uint8:
		h = fnvUint(tagNum, uint64(v))
	case float64:
		h = floatHash(v)
	case bool:
		h = boolHash(v)
	default:
		var ok bool
		if h, ok = reflectHash(k); !ok {
			return 0 // the whole map
		}
	}
	if h == 0 {
		h = 1
	}
	return int64(h)
}

// reflectHash hashes the keys of other types; false if it cannot (an
// interface key holding a value Go cannot compare: the map access itself
// panics just after).
func reflectHash(k any) (uint64, bool) {
	v := reflect.ValueOf(k)
	switch v.Kind() {
	case reflect.String:
		return fnvString(v.String()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fnvUint(tagNum, uint64(v.Int())), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return fnvUint(tagNum, v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return floatHash(v.Float()), true
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		if imag(c) == 0 {
			return floatHash(real(c)), true
		}
		return fnvUint(tagNum, math.Float64bits(real(c)+0)) ^ fnvUint(tagFloat, math.Float64bits(imag(c)+0)), true
	case reflect.Bool:
		return boolHash(v.Bool()), true
	case reflect.Pointer, reflect.UnsafePointer, reflect.Chan:
		ptrRank(v.Pointer()) // its place in a range's order (maporder.go)
		return fnvUint(tagPtr, uint64(v.Pointer())), true
	}
	return comparableHash(k)
}

// comparableHash hashes any other key with maphash.Comparable, which
// panics on a value Go cannot compare.
func comparableHash(k any) (h uint64, ok bool) {
	defer func() {
		if recover() != nil {
			h, ok = 0, false
		}
	}()
	return maphash.Comparable(keySeed, k), true
}

// floatHash hashes an integral float as that integer (a float64 key 1
// and an untyped constant 1 passed as an int are one key), -0 as 0.
func floatHash(f float64) uint64 {
	if f == math.Trunc(f) {
		switch {
		case f >= -(1<<63) && f < 1<<63:
			return fnvUint(tagNum, uint64(int64(f)))
		case f >= 0 && f < 1<<64:
			return fnvUint(tagNum, uint64(f))
		}
	}
	return fnvUint(tagFloat, math.Float64bits(f))
}

func boolHash(b bool) uint64 {
	if b {
		return fnvUint(tagBool, 1)
	}
	return fnvUint(tagBool, 0)
}

var keySeed = maphash.MakeSeed()

// Kind tags of the fnv-1a (64 bits) hashes: a number, a string, a
// boolean and a pointer of one bit pattern are different keys.
const (
	tagNum = iota + 1
	tagFloat
	tagBool
	tagPtr
	tagString

	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvUint(tag byte, v uint64) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(tag)) * fnvPrime
	for i := 0; i < 8; i++ {
		h = (h ^ (v & 0xff)) * fnvPrime
		v >>= 8
	}
	return h
}

func fnvString(s string) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ tagString) * fnvPrime
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}
