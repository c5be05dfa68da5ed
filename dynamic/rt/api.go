package rt

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// record records an event on the object at addr.
func record(addr unsafe.Pointer, class uint8, site int32, op trace.Op, arg int64, flags uint8) {
	mu.Lock()
	recordLocked(addr, class, site, op, arg, flags)
	mu.Unlock()
}

// recordLocked is record with mu held.
func recordLocked(addr unsafe.Pointer, class uint8, site int32, op trace.Op, arg int64, flags uint8) {
	w := rec
	if w == nil || quietLocked(site, op) {
		return
	}
	id, stack := self(uintptr(addr))
	if stack {
		return // private to the goroutine: see self
	}
	g := w.goroutine(id)
	s := w.site(site)
	w.emit(g, trace.Event{Op: op, Flags: flags, Obj: w.object(uintptr(addr), class, s.desc), Site: s.idx, Arg: arg})
}

// recordVal records a write of one element of the map at addr, whose
// key hashes to key, that stores a value of identity val (ValID): the
// event carries trace.FlagVal and val in Event.Val.
func recordVal(addr unsafe.Pointer, site int32, key int64, val uint64) {
	mu.Lock()
	if w := rec; w != nil && !quietLocked(site, trace.Write) {
		if id, stack := self(uintptr(addr)); !stack {
			g := w.goroutine(id)
			s := w.site(site)
			w.emit(g, trace.Event{Op: trace.Write, Flags: trace.FlagVal, Obj: w.object(uintptr(addr), classMem, s.desc), Site: s.idx, Arg: key, Val: val})
		}
	}
	mu.Unlock()
}

// recordLen records a write of the slice-typed variable at addr that
// stores a slice of length n: the event carries trace.FlagLen and n in
// Event.Val.
func recordLen(addr unsafe.Pointer, site int32, n int) {
	mu.Lock()
	if w := rec; w != nil && !quietLocked(site, trace.Write) {
		if id, stack := self(uintptr(addr)); !stack {
			g := w.goroutine(id)
			s := w.site(site)
			w.emit(g, trace.Event{Op: trace.Write, Flags: trace.FlagLen, Obj: w.object(uintptr(addr), classMem, s.desc), Site: s.idx, Val: uint64(n)})
		}
	}
	mu.Unlock()
}

// recordPart is record of a memory access by a whole-value copy's part,
// named name when the part is a field (see partSet), else by the site.
func recordPart(addr unsafe.Pointer, site int32, op trace.Op, name string) {
	mu.Lock()
	if w := rec; w != nil && !quietLocked(site, op) {
		if id, stack := self(uintptr(addr)); !stack {
			g := w.goroutine(id)
			s := w.site(site)
			desc := s.desc
			if name != "" {
				desc = sanitizeName(name)
			}
			w.emit(g, trace.Event{Op: op, Obj: w.object(uintptr(addr), classMem, desc), Site: s.idx})
		}
	}
	mu.Unlock()
}

// recordSync records an operation on a channel (the runtime's channel),
// WaitGroup, Once or Cond: syncObject also gives a channel its counts.
func recordSync(addr unsafe.Pointer, class uint8, site int32, op trace.Op, arg int64, flags uint8) {
	mu.Lock()
	recordSyncLocked(addr, class, site, op, arg, flags)
	mu.Unlock()
}

// recordChan is recordSync of a channel's send or receive with its tick
// (holdback.go, "Rendezvous order").
func recordChan(addr unsafe.Pointer, site int32, op trace.Op, capacity int, flags uint8, tk tick) {
	mu.Lock()
	if w := rec; w != nil {
		w.nextTick = tk
		recordSyncLocked(addr, classChan, site, op, int64(capacity), flags)
		if w.nextTick.active {
			// Not emitted (a channel on the stack): the ticket arrives
			// all the same, or later ones would wait for it.
			w.arrive(w.nextTick.n)
			w.drain()
		}
		w.nextTick = tick{}
	}
	mu.Unlock()
}

// activeTicket is the ticket of a send or receive that just completed at
// once on a channel of capacity c (holdback.go, "Rendezvous order"):
// recording only, unbuffered only.
func activeTicket(c int) tick {
	if c != 0 || rp != nil {
		return tick{}
	}
	return tick{n: tickets.Add(1), active: true}
}

func recordSyncLocked(addr unsafe.Pointer, class uint8, site int32, op trace.Op, arg int64, flags uint8) {
	w := rec
	if w == nil {
		return
	}
	id, stack := self(uintptr(addr))
	if stack {
		return
	}
	g := w.goroutine(id)
	s := w.site(site)
	var capacity int64
	if class == classChan {
		capacity = arg
	}
	obj := w.syncObject(addr, class, s.desc, capacity)
	if len(g.gateTks) > 0 && class == classChan && (op == trace.Send || op == trace.Recv) && w.nextTick.n == 0 {
		w.nextTick = w.claimTicket(g, obj, op)
	}
	w.emit(g, trace.Event{Op: op, Flags: flags, Obj: obj, Site: s.idx, Arg: arg})
}

// ---- Memory ----

// R records a read of the variable at addr (for a map, the map itself),
// just before it happens.
func R(addr unsafe.Pointer, site int32) {
	if active.Load() && !skipFree() {
		gate(addr, site, trace.Read)
		record(addr, classMem, site, trace.Read, 0, 0)
	}
}

// W records a write of the variable at addr, just before it happens.
func W(addr unsafe.Pointer, site int32) {
	if active.Load() && !skipFree() {
		gate(addr, site, trace.Write)
		record(addr, classMem, site, trace.Write, 0, 0)
	}
}

// WL is W of a store of a slice of length n in the slice-typed variable
// at addr, recorded with the event (trace.FlagLen, Event.Val).
func WL(addr unsafe.Pointer, n int, site int32) {
	if active.Load() && !skipFree() {
		gate(addr, site, trace.Write)
		recordLen(addr, site, n)
	}
}

// ---- Locks ----

// rlockerTab is the interface type word of the sync.Locker that
// RWMutex.RLocker returns: locking it takes the RWMutex in read mode.
var rlockerTab = func() unsafe.Pointer {
	var l sync.Locker = new(sync.RWMutex).RLocker()
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&l))[0]
}()

// builtinLocker reports whether l is a sync.Mutex or sync.RWMutex (or its
// RLocker): its Lock records nothing inside.
func builtinLocker(l sync.Locker) bool {
	tab := (*[2]unsafe.Pointer)(unsafe.Pointer(&l))[0]
	return tab == mutexTab || tab == rwmutexTab || tab == rlockerTab
}

var mutexTab, rwmutexTab = func() (unsafe.Pointer, unsafe.Pointer) {
	var m, rw sync.Locker = new(sync.Mutex), new(sync.RWMutex)
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&m))[0], (*[2]unsafe.Pointer)(unsafe.Pointer(&rw))[0]
}()

// lockerAddr returns the address of the lock behind l (the interface's data
// pointer) and whether l takes it in read mode (an RLocker).
func lockerAddr(l sync.Locker) (unsafe.Pointer, bool) {
	iface := (*[2]unsafe.Pointer)(unsafe.Pointer(&l))
	return iface[1], iface[0] == rlockerTab
}

// Lock performs l.Lock() (Mutex.Lock, RWMutex.Lock) and records the
// acquisition.
func Lock(l sync.Locker, site int32) {
	if !active.Load() || skipFreeLock() {
		l.Lock()
		return
	}
	addr, read := lockerAddr(l)
	op := trace.Lock
	if read {
		op = trace.RLock
	}
	if !builtinLocker(l) {
		if replaying, next := scheduledNext(site, op); replaying && !next {
			// A Locker of the module's own, instrumented: its Lock's steps
			// (the CompareAndSwap that takes a spin lock) come first and
			// are scheduled themselves; the lock event follows them.
			l.Lock()
			gate(addr, site, op)
			record(addr, classLock, site, op, 0, 0)
			return
		}
	}
	var rw *sync.RWMutex
	if op == trace.Lock {
		rw, _ = l.(*sync.RWMutex)
	}
	gateRW(addr, site, op, rw)
	if rp == nil && builtinLocker(l) && !tryLocker(l, addr, read) {
		// It would block: say where (observeBlocked), then wait.
		g := noteBlock(blocking{site: site + 1, op: op, kind: bSync, class: classLock, ch: addr})
		l.Lock()
		unblock(g)
	} else if rp != nil || !builtinLocker(l) {
		l.Lock()
	}
	record(addr, classLock, site, op, 0, 0)
}

// tryLocker tries to take l, a sync.Mutex or sync.RWMutex (at addr, in
// read mode if read) without blocking: a recording notes only the
// acquisitions that block.
func tryLocker(l sync.Locker, addr unsafe.Pointer, read bool) bool {
	if read {
		return (*sync.RWMutex)(addr).TryRLock()
	}
	switch m := l.(type) {
	case *sync.Mutex:
		return m.TryLock()
	case *sync.RWMutex:
		return m.TryLock()
	}
	return false
}

// Unlock records the release and performs l.Unlock().
func Unlock(l sync.Locker, site int32) {
	if !active.Load() || skipFreeLock() {
		l.Unlock()
		return
	}
	addr, read := lockerAddr(l)
	op := trace.Unlock
	if read {
		op = trace.RUnlock
	}
	gate(addr, site, op)
	record(addr, classLock, site, op, 0, 0)
	l.Unlock()
}

// Mutexes whose variable or field the package also reads or writes as a
// whole value (mu = sync.Mutex{}, a copy) are locked through the *Word
// wrappers: as the race detector sees it, Lock and Unlock update the
// mutex's word atomically, and a plain write or read of the mutex races
// with them. They record that update (an atomic read-modify-write of the
// mutex's first word, marked as an addition: the mutex's own updates
// commute among themselves, never an atomicity violation) before the
// operation. Other mutexes are touched only through their methods, and
// their Lock and Unlock record no access.

// LockWord is Lock of a mutex that is also accessed as a value.
func LockWord(l sync.Locker, site int32) {
	mutexWord(l, site)
	Lock(l, site)
}

// UnlockWord is Unlock of a mutex that is also accessed as a value.
func UnlockWord(l sync.Locker, site int32) {
	mutexWord(l, site)
	Unlock(l, site)
}

// RLockWord is RLock of a mutex that is also accessed as a value.
func RLockWord(rw *sync.RWMutex, site int32) {
	mutexWord(rw, site)
	RLock(rw, site)
}

// RUnlockWord is RUnlock of a mutex that is also accessed as a value.
func RUnlockWord(rw *sync.RWMutex, site int32) {
	mutexWord(rw, site)
	RUnlock(rw, site)
}

func mutexWord(l sync.Locker, site int32) {
	if active.Load() && !skipFreeLock() {
		addr, _ := lockerAddr(l)
		gate(addr, site, trace.AtomicRMW)
		record(addr, classMem, site, trace.AtomicRMW, 0, trace.FlagAdd)
	}
}

// RLock performs rw.RLock() and records it.
func RLock(rw *sync.RWMutex, site int32) {
	if !active.Load() || skipFreeLock() {
		rw.RLock()
		return
	}
	gate(unsafe.Pointer(rw), site, trace.RLock)
	if rp == nil && !rw.TryRLock() {
		// It would block: say where (observeBlocked), then wait.
		g := noteBlock(blocking{site: site + 1, op: trace.RLock, kind: bSync, class: classLock, ch: unsafe.Pointer(rw)})
		rw.RLock()
		unblock(g)
	} else if rp != nil {
		rw.RLock()
	}
	record(unsafe.Pointer(rw), classLock, site, trace.RLock, 0, 0)
}

// RUnlock records the release and performs rw.RUnlock().
func RUnlock(rw *sync.RWMutex, site int32) {
	if !active.Load() || skipFreeLock() {
		rw.RUnlock()
		return
	}
	gate(unsafe.Pointer(rw), site, trace.RUnlock)
	record(unsafe.Pointer(rw), classLock, site, trace.RUnlock, 0, 0)
	rw.RUnlock()
}

// TryLock performs m.TryLock() (Mutex or RWMutex) and records a lock if it
// succeeded.
func TryLock(m interface{ TryLock() bool }, site int32) bool {
	if !active.Load() {
		return m.TryLock()
	}
	// Only a successful TryLock is an event: the gate comes after it (a
	// failed one leaves nothing to schedule).
	if !m.TryLock() {
		return false
	}
	addr := (*[2]unsafe.Pointer)(unsafe.Pointer(&m))[1]
	gate(addr, site, trace.Lock)
	record(addr, classLock, site, trace.Lock, 0, 0)
	return true
}

// TryRLock performs rw.TryRLock() and records an rlock if it succeeded.
func TryRLock(rw *sync.RWMutex, site int32) bool {
	if !active.Load() {
		return rw.TryRLock()
	}
	if !rw.TryRLock() {
		return false
	}
	gate(unsafe.Pointer(rw), site, trace.RLock)
	record(unsafe.Pointer(rw), classLock, site, trace.RLock, 0, 0)
	return true
}

// ---- WaitGroup, Once, Cond ----

// wgState is what the race detector's model of a WaitGroup needs: the
// counter and whether a Wait blocks on it (as the instrumented calls saw
// them, under mu). An entry is dropped when its counter is 0 again. One
// whose counter never came back to 0 (a Done after the recording ended, a
// WaitGroup dropped with work outstanding) must not be taken for a later
// WaitGroup at its address, whose Add from 0 would then go unrecorded and
// whose Wait would be taken to block: ref tells the WaitGroup's allocation
// (see objRef), and start clears the map, which belongs to one recording.
type wgState struct {
	n       int64
	waiting bool
	ref     objRef
}

var wgs = map[uintptr]*wgState{}

// wgLocked returns the state of wg, nil if none. With mu held.
func wgLocked(wg *sync.WaitGroup) *wgState {
	k := uintptr(unsafe.Pointer(wg))
	st := wgs[k]
	if st != nil && !live(st.ref) {
		delete(wgs, k) // an earlier WaitGroup's, collected
		st = nil
	}
	return st
}

// wgAddLocked counts delta on wg and reports whether it was an increment
// from 0. With mu held.
func wgAddLocked(wg *sync.WaitGroup, delta int64) bool {
	k := uintptr(unsafe.Pointer(wg))
	st := wgLocked(wg)
	if st == nil {
		st = &wgState{ref: heapRef(k)}
		wgs[k] = st
	}
	first := delta > 0 && st.n == 0
	if st.n += delta; st.n <= 0 {
		delete(wgs, k) // the waiters are released
	}
	return first
}

// WGAdd records and performs wg.Add(delta). An increment from 0 is also
// recorded as a read of the WaitGroup, as the race detector models it
// (sync.WaitGroup.Add): it races with the write of a Wait that blocks
// (WGWait), since Add must happen before Wait — the misuse
// TestRaceWaitGroupWrongAdd shows.
func WGAdd(wg *sync.WaitGroup, delta int, site int32) {
	if active.Load() {
		gate(unsafe.Pointer(wg), site, trace.WGAdd)
		mu.Lock()
		recordSyncLocked(unsafe.Pointer(wg), classWG, site, trace.WGAdd, int64(delta), 0)
		first := wgAddLocked(wg, int64(delta))
		mu.Unlock()
		if first {
			gate(unsafe.Pointer(wg), site, trace.Read)
			record(unsafe.Pointer(wg), classMem, site, trace.Read, 0, 0)
		} else {
			gateOmit(unsafe.Pointer(wg), site, trace.Read)
		}
	}
	wg.Add(delta)
}

// WGDone records and performs wg.Done().
func WGDone(wg *sync.WaitGroup, site int32) {
	if active.Load() {
		gate(unsafe.Pointer(wg), site, trace.WGDone)
		mu.Lock()
		recordSyncLocked(unsafe.Pointer(wg), classWG, site, trace.WGDone, 0, 0)
		wgAddLocked(wg, -1)
		mu.Unlock()
	}
	wg.Done()
}

// WGWait performs wg.Wait() and records it when it returns.
func WGWait(wg *sync.WaitGroup, site int32) {
	if !active.Load() {
		wg.Wait()
		return
	}
	// The first Wait to block on a counter above 0 is a write of the
	// WaitGroup in the race detector's model (sync.WaitGroup.Wait), which
	// races with an Add from 0 (WGAdd).
	mu.Lock()
	st := wgLocked(wg)
	blocks := st != nil && st.n > 0 && !st.waiting
	if blocks {
		st.waiting = true
	}
	var waiter *Goroutine
	if st != nil && st.n > 0 && rp == nil && rec != nil {
		// It will block: say where (observeBlocked).
		waiter = rec.known()
		noteBlockLocked(waiter, blocking{site: site + 1, op: trace.WGWait, kind: bSync, class: classWG, ch: unsafe.Pointer(wg)})
	}
	mu.Unlock()
	if blocks {
		gate(unsafe.Pointer(wg), site, trace.Write)
		record(unsafe.Pointer(wg), classMem, site, trace.Write, 0, 0)
	} else {
		gateOmit(unsafe.Pointer(wg), site, trace.Write)
	}
	gate(unsafe.Pointer(wg), site, trace.WGWait)
	wg.Wait()
	unblock(waiter)
	recordSync(unsafe.Pointer(wg), classWG, site, trace.WGWait, 0, 0)
}

// WGGo is wg.Go(f) (Go 1.25), implemented with Add and Done so that it
// builds with older toolchains: it records wg-add 1 and a fork, runs f in
// the new goroutine (begin … wg-done, end) and performs wg.Done last.
func WGGo(wg *sync.WaitGroup, f func(), site int32) {
	if !active.Load() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
		return
	}
	WGAdd(wg, 1, site)
	id := Go(site)
	go func() {
		Begin(id)
		defer func() {
			if active.Load() {
				gate(unsafe.Pointer(wg), site, trace.WGDone)
				mu.Lock()
				recordSyncLocked(unsafe.Pointer(wg), classWG, site, trace.WGDone, 0, 0)
				wgAddLocked(wg, -1)
				mu.Unlock()
			}
			End()
			wg.Done()
		}()
		f()
	}()
}

// OnceDo performs o.Do(f). The call that runs f records its once event
// when f returns (or panics), before Do lets the other callers go; the
// others record theirs when Do returns. So the first once event of o in the
// trace is the call that ran f.
//
// A Once is also a lock (the lock-order predictors' view, issue 29): the
// call that runs f holds it while f runs, and every other call waits for
// it. Each call records a lock of o (class lock: another object than the
// once) and, after its once event, an unlock: the running call's lock
// inside Do before f, the others' when Do returns. The lock is gated
// before Do is entered, so a replay decides which call runs f, and a call
// whose turn comes while f runs in another goroutine blocks in Do, as a
// Lock does (stuck.go counts OnceDo as a blocking wrapper).
func OnceDo(o *sync.Once, f func(), site int32) {
	if !active.Load() {
		o.Do(f)
		return
	}
	// The once event comes after f's events (for the call that ran f) or
	// after Do returned, so that is where replay gates it.
	p := unsafe.Pointer(o)
	gate(p, site, trace.Lock)
	ran := false
	o.Do(func() {
		record(p, classLock, site, trace.Lock, 0, 0)
		defer func() {
			ran = true
			gate(p, site, trace.OnceDo)
			recordSync(p, classOnce, site, trace.OnceDo, 0, 0)
			gate(p, site, trace.Unlock)
			record(p, classLock, site, trace.Unlock, 0, 0)
		}()
		f()
	})
	if !ran && rp == nil {
		// Recording: nothing holds the others apart once Do has returned,
		// so their lock, once and unlock go in as one, or two of them
		// would overlap in the trace (a lock taken while held).
		mu.Lock()
		recordLocked(p, classLock, site, trace.Lock, 0, 0)
		recordSyncLocked(p, classOnce, site, trace.OnceDo, 0, 0)
		recordLocked(p, classLock, site, trace.Unlock, 0, 0)
		mu.Unlock()
	} else if !ran {
		record(p, classLock, site, trace.Lock, 0, 0)
		gate(p, site, trace.OnceDo)
		recordSync(p, classOnce, site, trace.OnceDo, 0, 0)
		gate(p, site, trace.Unlock)
		record(p, classLock, site, trace.Unlock, 0, 0)
	}
}

// CondWait performs c.Wait(), recording the release of c.L before it and,
// when it returns, the cond-wait and the reacquisition of c.L.
func CondWait(c *sync.Cond, site int32) {
	if !active.Load() {
		c.Wait()
		return
	}
	l, read := lockerAddr(c.L)
	unlock, lock := trace.Unlock, trace.Lock
	if read {
		unlock, lock = trace.RUnlock, trace.RLock
	}
	gate(l, site, unlock)
	record(l, classLock, site, unlock, 0, 0)
	// Under a schedule, whether Wait's own Unlock and Lock of c.L record
	// steps (an instrumented Locker: then they are scheduled themselves).
	_, plain := scheduledNext(site, trace.CondWait)
	if observedNext(site, trace.CondWait) {
		// An observed leak's last step: Wait blocks for good before its
		// gate (after Wait) would be reached, so the step has its turn
		// here.
		gate(unsafe.Pointer(c), site, trace.CondWait)
	}
	// Say where it waits (observeBlocked): recording only.
	waiter := noteBlock(blocking{site: site + 1, op: trace.CondWait, kind: bSync, class: classCond, ch: unsafe.Pointer(c)})
	c.Wait()
	unblock(waiter)
	// Wait has taken c.L again, outside the schedule's control: woken by
	// a Signal, it grabs the lock as soon as it is free, which may be
	// before its turn, while the schedule hands the lock to another
	// goroutine first. That goroutine then waits for a lock whose holder
	// waits at its gate: with a spin lock behind c.L (ants' pool), until
	// the stall timeout, on every such replay. So under a schedule the
	// waiter lets the lock go at once and takes it again at its lock
	// step, as a waiter woken later would have. (Schedules never put
	// another acquisition between the cond-wait and the lock.) Not for
	// an instrumented Locker: its own steps took the lock in turn.
	mu.Lock()
	relock := plain && rp != nil && !rp.free
	mu.Unlock()
	if relock {
		c.L.Unlock()
	}
	gate(unsafe.Pointer(c), site, trace.CondWait)
	mu.Lock()
	recordSyncLocked(unsafe.Pointer(c), classCond, site, trace.CondWait, 0, 0)
	mu.Unlock()
	gate(l, site, lock)
	if relock {
		c.L.Lock()
	}
	mu.Lock()
	recordLocked(l, classLock, site, lock, 0, 0)
	mu.Unlock()
}

// CondSignal records and performs c.Signal().
func CondSignal(c *sync.Cond, site int32) {
	if active.Load() {
		gate(unsafe.Pointer(c), site, trace.CondSignal)
		recordSync(unsafe.Pointer(c), classCond, site, trace.CondSignal, 0, 0)
	}
	c.Signal()
}

// CondBroadcast records and performs c.Broadcast().
func CondBroadcast(c *sync.Cond, site int32) {
	if active.Load() {
		gate(unsafe.Pointer(c), site, trace.CondBroadcast)
		recordSync(unsafe.Pointer(c), classCond, site, trace.CondBroadcast, 0, 0)
	}
	c.Broadcast()
}

// ---- Goroutines ----

// Go records, in the parent, the fork of a goroutine about to be started
// with a go statement, and returns the child's identity for Begin. The
// child is named after the parent and the parent's spawn count ("g1.2": the
// second goroutine g1 started), so it has the same name in every run. It
// returns nil when not recording.
func Go(site int32) *Goroutine {
	if !active.Load() {
		if !recordsLater {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		return staleKidOf()
	}
	gate(nil, site, trace.Fork)
	mu.Lock()
	defer mu.Unlock()
	w := rec
	if w == nil {
		return staleKidOf() // the recording finished meanwhile
	}
	p := w.cur()
	c := w.child(p)
	if c.stale {
		return c // none of this test's (staleIDs): Begin binds it, emit drops its events
	}
	if perturbSeed != 0 {
		p.forked = c
		if parentsFirst {
			c.parent, c.parentPauses, c.parentOps = p, p.pauses, p.perturbN
		}
	}
	w.addKid(c)
	w.emit(p, trace.Event{Op: trace.Fork, Obj: c.idx, Site: w.site(site).idx})
	return c
}

// staleKid is what Go returns, between two recordings, to a goroutine
// that an earlier recording left running (staleIDs): timedmap's cleaner,
// or a test's ticker, starting a goroutine per tick. Its children are
// leftovers too; named p1, p2, ... (preIDs) in the next test's trace,
// their steps entered that test's schedules, which a replay of the test
// alone cannot give.
var staleKid = &Goroutine{name: "~stale", idx: trace.NoIndex, waitCh: -1, parked: -1, stale: true}

// staleKidOf is Go between two recordings (mu held): staleKid when the
// caller is a leftover in a process whose recordings start with its
// tests (recordsLater), else nil.
func staleKidOf() *Goroutine {
	if _, ok := staleIDs[curGoid()]; ok && recordsLater {
		return staleKid
	}
	return nil
}

// Begin is the first call in a goroutine started after Go: it binds the
// running goroutine to its identity and records begin.
func Begin(id *Goroutine) {
	if id == staleKid {
		// Started between two recordings by an earlier one's leftover:
		// a leftover too (staleIDs), not a goroutine of the process's
		// own (preIDs).
		mu.Lock()
		staleIDs[curGoid()] = struct{}{}
		mu.Unlock()
		return
	}
	if id == nil {
		if recordsLater {
			// Started through Go before the process's recording began
			// (preIDs): a later recording must not take it for the test's.
			mu.Lock()
			preIDs[curGoid()] = struct{}{}
			mu.Unlock()
		}
		return
	}
	if !active.Load() {
		// Started through Go by a recording that has ended: a later one
		// must not take it for its own (staleIDs).
		mu.Lock()
		if id.w != rec {
			staleIDs[curGoid()] = struct{}{}
		}
		mu.Unlock()
		return
	}
	gateG(id, trace.NoIndex, trace.Begin)
	goid := curGoid()
	mu.Lock()
	defer mu.Unlock()
	w := rec
	if w == nil || id.w != w || id.goid != 0 {
		if w != nil && id.w != w {
			staleIDs[goid] = struct{}{} // another recording's: not this one's (staleIDs)
		}
		return // or begun already
	}
	id.goid = goid
	w.gmap[goid] = id
	c := &w.gcache[uint64(goid)%gcacheSize]
	c.goid, c.g = goid, id
	w.emit(id, trace.Event{Op: trace.Begin, Obj: trace.NoIndex, Site: trace.NoIndex})
}

// End records the end of a goroutine started through Go and Begin; it is
// deferred right after Begin, so it is the goroutine's last event.
func End() {
	if !active.Load() {
		return
	}
	gate(nil, trace.NoIndex, trace.End)
	goid := curGoid()
	mu.Lock()
	defer mu.Unlock()
	delete(hardSelects, goid)
	w := rec
	if w == nil {
		return
	}
	g := w.gmap[goid]
	if g == nil {
		return
	}
	g.pauses++ // a sleeper due before others is done (wakeorder.go)
	w.emit(g, trace.Event{Op: trace.End, Obj: trace.NoIndex, Site: trace.NoIndex})
	w.forget(g)
}

// ---- Channels ----

// chanAddr returns the runtime channel behind a channel value.
func chanAddr(p unsafe.Pointer) unsafe.Pointer { return *(*unsafe.Pointer)(p) }

// Send performs ch <- v and records the send.
func Send[T any](ch chan<- T, v T, site int32) {
	if !active.Load() {
		ch <- v
		return
	}
	gateSend(site, cap(ch))
	sent := false
	var blocked *Goroutine
	// Its ticket (holdback.go, "Rendezvous order"): blockIn's if it
	// blocks, else one taken as it completed.
	var tk tick
	defer func() {
		unblock(blocked)
		if !sent {
			// The send panicked: the channel was closed. Record it all
			// the same, marked so: the race detector reports a send
			// racing with the close, and a send that is not recorded
			// cannot be predicted against the close.
			recordChan(chanAddr(unsafe.Pointer(&ch)), site, trace.Send, cap(ch), trace.FlagClosed, tk)
		}
	}()
	select {
	case ch <- v:
		tk = activeTicket(cap(ch))
	default:
		// It would block: say where, for the end of the test
		// (observeBlocked), then wait.
		blocked, tk = blockIn(chanAddr(unsafe.Pointer(&ch)), site, trace.Send, cap(ch))
		ch <- v
	}
	sent = true
	recordChan(chanAddr(unsafe.Pointer(&ch)), site, trace.Send, cap(ch), 0, tk)
}

// Recv performs <-ch and records the receive.
func Recv[T any](ch <-chan T, site int32) T {
	v, _ := Recv2(ch, site)
	return v
}

// Recv2 performs v, ok := <-ch and records the receive (as having seen the
// channel closed if !ok).
func Recv2[T any](ch <-chan T, site int32) (T, bool) {
	if !active.Load() {
		v, ok := <-ch
		return v, ok
	}
	gate(nil, site, trace.Recv)
	var v T
	var ok bool
	var tk tick // as in Send
	select {
	case v, ok = <-ch:
		if ok {
			tk = activeTicket(cap(ch))
		}
	default:
		// It would block: say where (observeBlocked), then wait.
		if rp != nil {
			awaitTimer(chanAddr(unsafe.Pointer(&ch)))
		}
		var g *Goroutine
		g, tk = blockIn(chanAddr(unsafe.Pointer(&ch)), site, trace.Recv, cap(ch))
		v, ok = <-ch
		unblock(g)
	}
	var flags uint8
	if !ok {
		flags = trace.FlagClosed
	}
	recordChan(chanAddr(unsafe.Pointer(&ch)), site, trace.Recv, cap(ch), flags, tk)
	return v, ok
}

// Close records the close and performs close(ch).
func Close[T any](ch chan<- T, site int32) {
	if active.Load() && ch != nil {
		gate(nil, site, trace.Close)
		recordSync(chanAddr(unsafe.Pointer(&ch)), classChan, site, trace.Close, int64(cap(ch)), 0)
	}
	close(ch)
}

// Sent records a send that a select statement performed: the first
// statement of the select case that fired.
func Sent[T any](ch chan<- T, site int32) {
	if active.Load() {
		gate(nil, site, trace.Send)
		recordSync(chanAddr(unsafe.Pointer(&ch)), classChan, site, trace.Send, int64(cap(ch)), 0)
	}
}

// SelectGate is called right before a select statement with its
// communication cases: in a replay, the select waits here for the turn of
// the case the schedule has it perform (see preSelect). A select with one
// send case also notes it, so that a send that panics on a closed channel
// is recorded when the panic is recovered (Recovered).
func SelectGate(cases ...SelCase) {
	if !active.Load() {
		return
	}
	var send *SelCase
	for i := range cases {
		if cases[i].Send {
			if send != nil {
				send = nil // which one panicked is not known: none is noted
				break
			}
			send = &cases[i]
		}
	}
	var first *SelCase // the case a blocked select is noted in (observeBlocked)
	var firstCh unsafe.Pointer
	for i := range cases {
		if cases[i].Site < 0 {
			continue
		}
		// A nil channel's case is skipped: no other goroutine can ever
		// ready it.
		if p := chanOfAny(cases[i].Ch); p != nil {
			first, firstCh = &cases[i], p
			break
		}
	}
	// Recording, a case on an unbuffered channel takes its ticket
	// (holdback.go, "Rendezvous order").
	tix := false
	if rp == nil {
		for i := range cases {
			if c := &cases[i]; c.Cap == 0 && chanOfAny(c.Ch) != nil {
				tix = true
			}
		}
	}
	if rp == nil && send == nil && first == nil && !tix {
		return
	}
	mu.Lock()
	if w := rec; w != nil && rp == nil && first != nil {
		// It may block: say where. The note stays until the goroutine's
		// next one: the dump tells whether it is blocked there.
		op := trace.Recv
		if first.Send {
			op = trace.Send
		}
		b := blocking{site: first.Site + 1, op: op, kind: bSelect, class: classChan, ch: firstCh, cap: int64(first.Cap), hard: goroutineOnly(cases)}
		if g := w.known(); g != nil {
			noteBlockLocked(g, b)
		} else {
			// A goroutine an earlier test started: no note in this
			// recording, but the hang watcher's (hardSelects).
			noteHardSelect(curGoid(), b)
		}
		w.selectTimer(w.known(), cases) // a sleeper, if it waits on a timer (wakeorder.go)
	} else if rp != nil && rec != nil && first != nil {
		// Replaying, the watcher asks the same (clockMayMove): a select
		// only another goroutine can end does not wait for a timer.
		noteHardSelect(curGoid(), blocking{site: first.Site + 1, kind: bSelect, hard: goroutineOnly(cases)})
	}
	if w := rec; w != nil {
		// Outside a replay, a goroutine not seen yet is not named here (a
		// root's name is its order of first event): it has no send noted.
		g := w.known()
		if rp != nil {
			g = w.cur()
		}
		if g == nil {
			mu.Unlock()
			return
		}
		g.selSend = selSend{}
		if send != nil && send.Ch != nil {
			g.selSend = selSend{ok: true, ch: chanOfAny(send.Ch), site: send.Site, cap: send.Cap}
		}
		if rp != nil && !rp.free {
			rp.preSelect(g, cases)
		} else if rp != nil && rp.alone == g {
			rp.aloneAfter(trace.Recv) // a select may block
		}
		if tix && rp == nil {
			w.claimTicket(g, -1, 0) // none should be left
			for _, c := range cases {
				if p := chanOfAny(c.Ch); c.Cap == 0 && p != nil {
					if _, stack := self(uintptr(p)); !stack {
						op := trace.Recv
						if c.Send {
							op = trace.Send
						}
						w.gateTicket(g, p, c.Site, op)
					}
				}
			}
		}
	}
	mu.Unlock()
}

// chanOfAny returns the runtime channel of a channel held in an
// interface (SelCase.Ch), or nil.
func chanOfAny(ch any) unsafe.Pointer {
	if ch == nil {
		return nil
	}
	return *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(&ch), unsafe.Sizeof(uintptr(0))))
}

// selSend is the send case a goroutine's select is about to perform
// (SelectGate): until the goroutine's next event, a recovered panic
// "send on closed channel" is that send's.
type selSend struct {
	ok   bool
	ch   unsafe.Pointer // the runtime channel
	site int32
	cap  int
}

// SelectDefault is the first statement of a select's default case: the
// select sent nothing, so no later panic is its send's.
func SelectDefault() {
	if !active.Load() {
		return
	}
	mu.Lock()
	if w := rec; w != nil {
		if g := w.known(); g != nil {
			g.selSend = selSend{}
			if len(g.gateTks) > 0 {
				w.claimTicket(g, -1, 0) // it left every case's queue
			}
			if rp != nil && rp.leakSel == g {
				rp.selectedOther(g, trace.OpInvalid, "")
			}
		}
	}
	mu.Unlock()
}

// Recovered wraps recover() in instrumented code: it returns v. A select
// records the case that fired in its first statement, so a select whose
// send panicked on a closed channel records nothing; the race detector
// reports such a send as racing with the close, as it does for a plain
// send (Send records that one itself). When the panic is recovered, the
// send its goroutine's select noted (SelectGate) is recorded, marked
// closed, unless the goroutine recorded anything since.
func Recovered(v any) any {
	if v == nil || !active.Load() {
		return v
	}
	if e, ok := v.(runtime.Error); !ok || e.Error() != "send on closed channel" {
		return v
	}
	mu.Lock()
	if w := rec; w != nil {
		g := w.cur()
		if len(g.gateTks) > 0 {
			w.claimTicket(g, -1, 0) // the select panicked: it left every case's queue
		}
		if s := g.selSend; s.ok {
			g.selSend = selSend{}
			if rp != nil && g.preSel != 0 {
				rp.afterSelect(g, s.site, trace.Send)
			}
			recordSyncLocked(s.ch, classChan, s.site, trace.Send, int64(s.cap), trace.FlagClosed)
		}
	}
	mu.Unlock()
	return v
}

// Received records a receive that a select statement (or a range loop)
// performed; ok is false if it saw the channel closed.
func Received[T any](ch <-chan T, ok bool, site int32) {
	if active.Load() {
		gate(nil, site, trace.Recv)
		var flags uint8
		if !ok {
			flags = trace.FlagClosed
		}
		recordSync(chanAddr(unsafe.Pointer(&ch)), classChan, site, trace.Recv, int64(cap(ch)), flags)
	}
}

// RangeGate gates the next receive of a range loop over ch, before
// the loop's head performs it: in a replay, the loop's goroutine waits
// here for the receive's turn, so that a send goes to the receiver the
// schedule names (the runtime hands it to whichever receiver has waited
// longest). RangeRecv then records the receive without gating it again.
//
// Recording, a receive on an unbuffered channel also takes its ticket
// (holdback.go, "Rendezvous order"), for RangeRecv's event: the workers
// of a pool wait in such a loop, and were written in the order they woke
// up, not the order they were served.
func RangeGate[T any](ch <-chan T, site int32) {
	if !active.Load() {
		return
	}
	gate(nil, site, trace.Recv)
	// Only a receive that may block needs a note, and only an
	// unbuffered channel a ticket: a buffered one holding items needs
	// neither, nor the lock each iteration.
	if rp != nil || len(ch) != 0 {
		return
	}
	p := chanAddr(unsafe.Pointer(&ch))
	mu.Lock()
	if w := rec; w != nil && rp == nil {
		g := w.known()
		// It may block: say where (observeBlocked). The note stays until
		// the goroutine's next one: the dump tells whether it is blocked
		// there.
		noteBlockLocked(g, blocking{site: site + 1, op: trace.Recv, kind: bRange, class: classChan, ch: p, cap: int64(cap(ch))})
		if g != nil && ch != nil && cap(ch) == 0 {
			if _, stack := self(uintptr(p)); !stack {
				w.claimTicket(g, -1, 0) // none should be left
				w.gateTicket(g, p, site, trace.Recv)
			}
		}
	}
	mu.Unlock()
}

// RangeRecv records the receive of a range loop over a channel that
// RangeGate gated; ok is false if it saw the channel closed.
func RangeRecv[T any](ch <-chan T, ok bool, site int32) {
	if active.Load() {
		var flags uint8
		if !ok {
			flags = trace.FlagClosed
		}
		recordSync(chanAddr(unsafe.Pointer(&ch)), classChan, site, trace.Recv, int64(cap(ch)), flags)
	}
}

// ---- Units of work ----

// RegionBegin records the start of a unit of work (a method call on a
// receiver); the unit is named by the site's Obj.
func RegionBegin(site int32) { region(site, trace.RegionBegin) }

// RegionEnd records the end of the unit begun at the same site.
func RegionEnd(site int32) { region(site, trace.RegionEnd) }

func region(site int32, op trace.Op) {
	if !active.Load() || skipFreeAtomic() {
		return
	}
	gate(nil, site, op)
	mu.Lock()
	if w := rec; w != nil {
		g := w.cur()
		s := w.site(site)
		obj := s.unit1 - 1
		if s.unit1 == 0 {
			obj = w.unit(s.desc)
			if s != &unknownSite { // shared by every recording
				s.unit1 = obj + 1
			}
		}
		w.emit(g, trace.Event{Op: op, Obj: obj, Site: s.idx})
	}
	mu.Unlock()
}

// ---- sync/atomic (the wrappers are generated: atomic_gen.go) ----

//go:generate go run gen_atomic.go

// casOp is the event of a CompareAndSwap: it wrote only if it swapped.
func casOp(swapped bool) trace.Op {
	if swapped {
		return trace.AtomicRMW
	}
	return trace.AtomicLoad
}
