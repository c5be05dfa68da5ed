package rt

import (
	"strconv"
	"sync"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// sync.Map. Every (map, key) pair is a location of its own, and every
// method is an atomic access of the pairs it touches, as the Go memory
// model says sync.Map's operations are (they synchronize, they never race):
// Load is an atomic load, Store and Delete atomic stores, Swap an atomic
// read-modify-write, LoadOrStore, LoadAndDelete, CompareAndSwap and
// CompareAndDelete a read-modify-write when they wrote and a load when they
// did not. Range loads each key it visits, recorded as it calls the
// function for that key (after sync.Map read it: Range gives no hook
// before). So a check-then-act across two operations (Load, then Store on
// a miss) is an atomicity violation on the pair, and an operation on
// another key is independent. Map.Clear is not wrapped.
//
// A pair has no address: it is named by a small allocation the runtime
// keeps for it (alive as long as the recording, so never reused), and its
// object is "<map's description>[<key>]#k", the same in every run.

type smKey struct {
	m *sync.Map
	k any
}

type smEnt struct {
	desc string // "" until first recorded
}

var smPairs = map[smKey]*smEnt{} // guarded by mu

// smPair returns the location of key k of map m, with mu held.
func smPair(m *sync.Map, k any) *smEnt {
	key := smKey{m, k}
	e := smPairs[key]
	if e == nil {
		e = new(smEnt)
		smPairs[key] = e
	}
	return e
}

// smKeyText renders a key for an object name.
func smKeyText(k any) string {
	switch k := k.(type) {
	case string:
		return strconv.Quote(k)
	case int:
		return strconv.Itoa(k)
	case int64:
		return strconv.FormatInt(k, 10)
	case int32:
		return strconv.FormatInt(int64(k), 10)
	case uint:
		return strconv.FormatUint(uint64(k), 10)
	case uint64:
		return strconv.FormatUint(k, 10)
	case uint32:
		return strconv.FormatUint(uint64(k), 10)
	case bool:
		return strconv.FormatBool(k)
	}
	return "key"
}

// smRecordLocked records op on key k of map m, with mu held.
func smRecordLocked(m *sync.Map, k any, e *smEnt, site int32, op trace.Op) {
	w := rec
	if w == nil {
		return
	}
	id, _ := self(0)
	g := w.goroutine(id)
	s := w.site(site)
	if e.desc == "" {
		e.desc = sanitizeName(s.desc + "[" + smKeyText(k) + "]")
	}
	w.emit(g, trace.Event{Op: op, Obj: w.object(uintptr(unsafe.Pointer(e)), classMem, e.desc), Site: s.idx})
}

// smDo gates and records one operation on key k of m, performing it (do
// returns whether it wrote, for the operations that may not) with mu held
// so that the trace order is the order the operations took effect.
func smDo(m *sync.Map, k any, site int32, gateOp trace.Op, do func() trace.Op) {
	mu.Lock()
	e := smPair(m, k)
	mu.Unlock()
	gate(unsafe.Pointer(e), site, gateOp)
	mu.Lock()
	defer mu.Unlock()
	op := do()
	smRecordLocked(m, k, e, site, op)
}

// wrote is the event of an operation that may or may not write.
func wrote(w bool) trace.Op {
	if w {
		return trace.AtomicRMW
	}
	return trace.AtomicLoad
}

// MapLoad performs m.Load(key), recorded as an atomic load of (m, key).
func MapLoad(m *sync.Map, key any, site int32) (value any, ok bool) {
	if !active.Load() {
		return m.Load(key)
	}
	smDo(m, key, site, trace.AtomicLoad, func() trace.Op {
		value, ok = m.Load(key)
		return trace.AtomicLoad
	})
	return
}

// MapStore performs m.Store(key, value), recorded as an atomic store.
func MapStore(m *sync.Map, key, value any, site int32) {
	if !active.Load() {
		m.Store(key, value)
		return
	}
	smDo(m, key, site, trace.AtomicStore, func() trace.Op {
		m.Store(key, value)
		return trace.AtomicStore
	})
}

// MapDelete performs m.Delete(key), recorded as an atomic store.
func MapDelete(m *sync.Map, key any, site int32) {
	if !active.Load() {
		m.Delete(key)
		return
	}
	smDo(m, key, site, trace.AtomicStore, func() trace.Op {
		m.Delete(key)
		return trace.AtomicStore
	})
}

// MapLoadOrStore performs m.LoadOrStore(key, value): a read-modify-write
// if it stored, else a load.
func MapLoadOrStore(m *sync.Map, key, value any, site int32) (actual any, loaded bool) {
	if !active.Load() {
		return m.LoadOrStore(key, value)
	}
	smDo(m, key, site, trace.AtomicRMW, func() trace.Op {
		actual, loaded = m.LoadOrStore(key, value)
		return wrote(!loaded)
	})
	return
}

// MapLoadAndDelete performs m.LoadAndDelete(key): a read-modify-write if
// the key was there, else a load.
func MapLoadAndDelete(m *sync.Map, key any, site int32) (value any, loaded bool) {
	if !active.Load() {
		return m.LoadAndDelete(key)
	}
	smDo(m, key, site, trace.AtomicRMW, func() trace.Op {
		value, loaded = m.LoadAndDelete(key)
		return wrote(loaded)
	})
	return
}

// MapSwap performs m.Swap(key, value), an atomic read-modify-write.
func MapSwap(m *sync.Map, key, value any, site int32) (previous any, loaded bool) {
	if !active.Load() {
		return m.Swap(key, value)
	}
	smDo(m, key, site, trace.AtomicRMW, func() trace.Op {
		previous, loaded = m.Swap(key, value)
		return trace.AtomicRMW
	})
	return
}

// MapCompareAndSwap performs m.CompareAndSwap(key, old, new): a
// read-modify-write if it swapped, else a load.
func MapCompareAndSwap(m *sync.Map, key, old, new any, site int32) (swapped bool) {
	if !active.Load() {
		return m.CompareAndSwap(key, old, new)
	}
	smDo(m, key, site, trace.AtomicRMW, func() trace.Op {
		swapped = m.CompareAndSwap(key, old, new)
		return wrote(swapped)
	})
	return
}

// MapCompareAndDelete performs m.CompareAndDelete(key, old): a
// read-modify-write if it deleted, else a load.
func MapCompareAndDelete(m *sync.Map, key, old any, site int32) (deleted bool) {
	if !active.Load() {
		return m.CompareAndDelete(key, old)
	}
	smDo(m, key, site, trace.AtomicRMW, func() trace.Op {
		deleted = m.CompareAndDelete(key, old)
		return wrote(deleted)
	})
	return
}

// MapRange performs m.Range(f), recording an atomic load of each key it
// visits before calling f for it.
func MapRange(m *sync.Map, f func(key, value any) bool, site int32) {
	if !active.Load() {
		m.Range(f)
		return
	}
	m.Range(func(k, v any) bool {
		smDo(m, k, site, trace.AtomicLoad, func() trace.Op { return trace.AtomicLoad })
		return f(k, v)
	})
}

// OnceFunc is sync.OnceFunc(f) with the once recorded (OnceDo): f's body
// happens before every return of the function it returns. Like
// sync.OnceFunc, a panic of f is re-raised by every call.
func OnceFunc(f func(), site int32) func() {
	var (
		once  sync.Once
		valid bool
		p     any
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		f()
		f = nil
		valid = true
	}
	return func() {
		OnceDo(&once, g, site)
		if !valid {
			panic(p)
		}
	}
}

// OnceValue is sync.OnceValue(f) with the once recorded.
func OnceValue[T any](f func() T, site int32) func() T {
	var (
		once   sync.Once
		valid  bool
		p      any
		result T
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		result = f()
		f = nil
		valid = true
	}
	return func() T {
		OnceDo(&once, g, site)
		if !valid {
			panic(p)
		}
		return result
	}
}

// OnceValues is sync.OnceValues(f) with the once recorded.
func OnceValues[T1, T2 any](f func() (T1, T2), site int32) func() (T1, T2) {
	var (
		once  sync.Once
		valid bool
		p     any
		r1    T1
		r2    T2
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		r1, r2 = f()
		f = nil
		valid = true
	}
	return func() (T1, T2) {
		OnceDo(&once, g, site)
		if !valid {
			panic(p)
		}
		return r1, r2
	}
}
