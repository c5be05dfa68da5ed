package rt

import (
	"reflect"
	"sync"
)

// sync.Pool. A Pool's Get hands back what some goroutine Put on the same
// P, or nothing, at the runtime's whim (per-P caches, stealing, the
// victim cache emptied by GC), so the recorded run and its replays took
// different paths at `if e.timer == nil` and the like: go-deadlock's
// timer-entry and holder pools made 6,788 of its 7,812 pruned replays
// diverge. Recorded, a Pool is a deterministic stack instead, one that
// the spec allows (Get "may choose to ignore the pool and treat it as
// empty"; an item "may be removed automatically at any time"): Put pushes
// (at most poolCap items, the oldest dropped beyond), Get pops the last
// item Put or calls New. Each operation is one critical section of the
// stack's own lock, recorded as a lock and an unlock at the call's site,
// so the order of Gets and Puts across goroutines is the trace's, and the
// replay's schedule keeps it: an item is reused, or a fresh one made, in
// the replay as in the run. Reuse stays (a use after Put is still seen),
// and the lock orders nothing else: its critical section holds no other
// operation.

// poolCap bounds the items a recorded Pool keeps.
const poolCap = 64

type detPool struct {
	mu    sync.Mutex
	items []any
}

var (
	poolsMu sync.Mutex
	pools   = map[*sync.Pool]*detPool{}
)

// emptyPools forgets the items of every recorded Pool when a trace
// starts. A test's trace starts with the test, but the Gets of a test
// recorded after others in one process took what those had Put, while its
// replays, in a process of their own, start with the pools empty. In
// go-deadlock the item was a lock's pending entry holding its detector's
// timer: the recording's first Lock of TestBuildTagRWMutexWorks Reset the
// timer of an entry the previous test had Put, its replays' made a new
// one with time.AfterFunc, whose callback's fork took the name "g1.1.1",
// so that every later goroutine's name was shifted by one and the
// schedule's "g1.1.1 begin" never came (the replays' "deadlock: g1.1.1
// has not started": 33 to 92 of a check's pruned predictions, and up to
// 852 more not replayed behind them). Dropping the items is what the spec
// allows ("any item stored in the Pool may be removed automatically").
func emptyPools() {
	poolsMu.Lock()
	clear(pools)
	poolsMu.Unlock()
}

// renewPooled makes the variables of the memory item x refers to (a
// pointer's target, a slice's array) new objects from the Put on (the
// recorder's renewBlock): the Put ends their life as far as the program
// is concerned, and what a Get does with the item is a new object's life,
// as if the memory had been freed and allocated again. Without it a unit
// that read an element of a holder slice still in another lock's use
// (go-deadlock's preLock, deadlock.go:436) and, later, wrote the same
// array after its Get (postLock, :405) met the writes of the goroutine
// that had used and Put the array between: a "lost write" the replays
// reproduced once they followed the pool (4 false reports in 1 of 3
// checks, at deadlock.go:417 and :436). Memory reached only through a
// copy in the interface (a struct value) is not the program's: nothing
// to renew.
func renewPooled(x any) {
	var p uintptr
	switch v := reflect.ValueOf(x); v.Kind() {
	case reflect.Pointer, reflect.UnsafePointer:
		p = v.Pointer()
	case reflect.Slice:
		if v.Cap() > 0 {
			p = v.Pointer()
		}
	}
	if p == 0 {
		return
	}
	base := heapBase(p)
	if base == 0 {
		return
	}
	mu.Lock()
	if w := rec; w != nil {
		w.renewBlock(base)
	}
	mu.Unlock()
}

func poolOf(p *sync.Pool) *detPool {
	poolsMu.Lock()
	defer poolsMu.Unlock()
	d := pools[p]
	if d == nil {
		d = &detPool{}
		pools[p] = d
	}
	return d
}

// PoolGet performs p.Get() (see above).
func PoolGet(p *sync.Pool, site int32) any {
	if !active.Load() {
		return p.Get()
	}
	d := poolOf(p)
	var x any
	Lock(&d.mu, site)
	if n := len(d.items); n > 0 {
		x = d.items[n-1]
		d.items[n-1] = nil
		d.items = d.items[:n-1]
	}
	Unlock(&d.mu, site)
	if x == nil && p.New != nil {
		x = p.New()
	}
	return x
}

// PoolPut performs p.Put(x) (see above).
func PoolPut(p *sync.Pool, x any, site int32) {
	if !active.Load() {
		p.Put(x)
		return
	}
	if x == nil {
		return
	}
	renewPooled(x)
	d := poolOf(p)
	Lock(&d.mu, site)
	if len(d.items) == poolCap {
		copy(d.items, d.items[1:])
		d.items = d.items[:poolCap-1]
	}
	d.items = append(d.items, x)
	Unlock(&d.mu, site)
}
