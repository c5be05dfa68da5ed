package rt

import (
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// recorder is the state of one recording. All of it is guarded by mu.
type recorder struct {
	out output
	enc trace.Encoder
	fl  interface{ Flush() error } // enc, if it can flush (it can: binary encoder)
	tab trace.Tables
	in  *trace.Interner
	// blockedEnd: the FlagBlocked events observeBlocked found, written
	// by close.
	blockedEnd []trace.Event

	// Goroutines: runtime id → logical goroutine, with a direct-mapped
	// cache in front of the map.
	gmap   map[int64]*Goroutine
	gcache [gcacheSize]gcacheEnt
	roots  int
	// preRoots: how many goroutines of preIDs were named (p1, p2, ...).
	preRoots int
	kids     []*Goroutine // started through Go, not known to have ended (see Drain)

	sites   []siteInfo // by site id, resolved lazily from regs
	objs    map[objKey]objEnt
	ocache  [ocacheSize]ocacheEnt
	blocks  [blockCacheSize]blockEnt // heap block → weak pointer (heapRef's cache)
	sweepAt int                      // len(objs) at which dead entries are dropped
	// renew: heap block base → how many times a sync.Pool's Put handed
	// the block on (renewBlock); renewEpoch counts them all, so that
	// ocache entries from before the latest are checked again.
	renew      map[uintptr]uint32
	renewEpoch uint32
	units      map[string]int32      // unit name → object
	chans      map[int32]*chanState  // channel objects' state
	ccache     [ccacheSize]ccacheEnt // chanOf's cache in front of chans

	// Object names. Each allocation is an object named desc#k, so a test
	// that allocates in a loop names millions: rather than a string each
	// (in the tables, the interner and the encoder), the recorder keeps
	// desc and k, and the encoder asks for the name (AppendObjectName) when
	// it first writes it; tab.Objects stays empty. A unit's name is its
	// description alone (k 0).
	descs    []descEnt        // by description id
	descIDs  map[string]int32 // description → id
	lastDesc string           // the description newObject looked up last,
	lastD    int32            // and its id
	objNames objNameTab       // by object index

	hb holdback
	// sleepers: the instrumented sleeps not known to be done, by
	// deadline (wakeorder.go).
	sleepers sleepers
	// timerDue: the channels of timers made while recording, by runtime
	// channel, and when they fall due (now(); wakeorder.go).
	timerDue map[uintptr]int64
	// nextTick: the tick of the channel event being emitted (recordChan).
	nextTick tick

	events  int64  // written
	dropped int64  // rejected by the encoder
	capped  bool   // stopped at maxEvents or maxGoroutines
	capWhy  string // the trace's truncation reason, once capped
	dropErr string // why the first was

	// named: the goroutines the written events name, by index in the
	// goroutine table (mention); nNamed counts them; gCapped: an event
	// would have named more than maxGoroutines, and none is written since.
	named   []bool
	nNamed  int
	gCapped bool
}

const (
	ccacheSize     = 64
	gcacheSize     = 256
	ocacheSize     = 4096
	blockCacheSize = 256
)

type descEnt struct {
	name string
	n    int32 // objects named so far
}

// objName is an object's name: description desc, instance k (0: a unit,
// named by its description alone).
type objName struct{ desc, k int32 }

// objNameTab is a table of objName in chunks, so that it grows without
// copying.
type objNameTab struct {
	chunks [][]objName
	n      int
}

const objChunk = 1 << 14

func (t *objNameTab) add(o objName) {
	if t.n%objChunk == 0 {
		t.chunks = append(t.chunks, make([]objName, 0, objChunk))
	}
	c := &t.chunks[len(t.chunks)-1]
	*c = append(*c, o)
	t.n++
}

// at returns entry i, or desc -1 if there is none.
func (t *objNameTab) at(i int32) objName {
	if i < 0 || int(i) >= t.n {
		return objName{desc: -1}
	}
	return t.chunks[i/objChunk][i%objChunk]
}

type blockEnt struct {
	base uintptr
	ref  objRef
}

type ccacheEnt struct {
	obj1 int32 // object index + 1; 0: empty
	cs   *chanState
}

type gcacheEnt struct {
	goid int64
	g    *Goroutine
}

// Object classes: an address names a different object for each class, so
// that, say, a struct whose first field is a mutex and that mutex are not
// confused. Plain and atomic accesses share classMem.
const (
	classMem uint8 = iota
	classLock
	classChan
	classWG
	classOnce
	classCond
)

type objKey struct {
	addr  uintptr
	class uint8
}

// objEnt is the object an address currently holds: its index, the
// allocation it belongs to (see objref_weak.go), that allocation's base
// and its renew count when the object was named (renewBlock).
type objEnt struct {
	idx  int32
	ref  objRef
	base uintptr
	gen  uint32
}

type ocacheEnt struct {
	addr  uintptr
	class uint8
	idx1  int32 // object index + 1; 0: empty
	ref   objRef
	epoch uint32 // renewEpoch when it was filled
}

type siteInfo struct {
	ok   bool
	idx  int32  // index into the site table, or NoIndex
	desc string // sanitized object description
	// unit1: 1 + the unit object desc names (unit), once a region at the
	// site asked: a region event spares the lookup by string (go-actor's
	// tests record as many region events as accesses).
	unit1 int32
}

var unknownSite = siteInfo{ok: true, idx: trace.NoIndex, desc: "obj"}

// Goroutine is a logical goroutine. rt.Go returns the child's, which the
// child passes to rt.Begin.
type Goroutine struct {
	w      *recorder
	name   string
	idx    int32 // in the goroutine table
	goid   int64 // runtime id, once known
	spawns int
	// emits counts the events emitted for g (Drain tells a goroutine that
	// a ticker wakes from one that is still at work by them).
	emits uint64
	// due: for the callback of a real time.AfterFunc timer (AfterFuncAt),
	// when the timer fires (Unix nanoseconds; 0: not a timer's, or on the
	// replay's clock). Drain does not wait for it to begin past its bound.
	due int64

	// Reorder buffer state (see holdback).
	q      []*held // held events of this goroutine, in program order
	waitCh int32   // after an unbuffered send: the channel whose receive count
	waitN  int64   // must reach waitN before the next event; -1: none
	parked int32   // channel on whose waiters list g is, or -1
	inWork bool
	listed bool // in hb.gs
	// bubbleAsked: the replay asked whether g runs in a testing/synctest
	// bubble (replayer.bubble).
	bubbleAsked bool
	barred      bool // in hb.barred

	// runKids: the goroutines adoptRun made g's children, not yet joined;
	// runFresh: how many of them no goroutine dump has found unfinished
	// (runLate: a dump found it paused in t.Parallel).
	runKids  []*Goroutine
	runFresh int
	runLate  bool

	// after: for a root, the last event its creator had held back when
	// the root was first seen; the root's events wait for it (holdback).
	after *held

	perturbN uint32 // events seen by the perturbation (perturb.go)
	// forked: the goroutine it started last, if its next operation is
	// the first since (perturb.go: odd seeds yield there until it began).
	forked *Goroutine
	// pauses counts the operations at which g may have waited for
	// another goroutine (noteBlockLocked, blockIn, sleeps, its end);
	// parent, parentPauses and parentOps are, under parents-first
	// perturbation, the goroutine that forked g and its pauses and
	// perturbN then: g begins once its parent paused (perturb.go).
	pauses       uint32
	sleep        *sleeper // its last sleep while recording (wakeorder.go)
	parent       *Goroutine
	parentPauses uint32
	parentOps    uint32
	// preSel: 1 + the step whose turn g took before a select (replay.go,
	// preSelect); 0: none.
	preSel int
	// gateObj: the lock whose gate the goroutine is passing, under a
	// deadlock schedule (replayer.ask).
	gateObj int32
	// gateRW: that lock if it is an RWMutex taken by Lock
	// (replayer.awaitWriter).
	gateRW *sync.RWMutex
	// selSend: the send case of the select g is in, if any (SelectGate,
	// Recovered); cleared by g's next event.
	selSend selSend
	// blocked: the operation g is blocked in (or was last about to be), recording
	// (observed.go).
	blocked blocking
	// gateTks: the tickets g's select or range loop took for the
	// operations it is about to perform (holdback.go, gateTicket).
	gateTks []gateTk
	// rand1, rand2: g's own math/rand and math/rand/v2 generators
	// (rand.go), made at its first draw.
	rand1 *rand.Rand
	rand2 *randv2.Rand
	// stale: g was started through Go while an earlier test of the
	// process was recorded (or descends from such a goroutine): its
	// events are not written (emit), see staleIDs.
	stale bool
}

func newRecorder(out output) *recorder {
	w := &recorder{
		out:     out,
		gmap:    map[int64]*Goroutine{},
		objs:    map[objKey]objEnt{},
		sweepAt: minSweep,
		units:   map[string]int32{},
		chans:   map[int32]*chanState{},
		descIDs: map[string]int32{},
	}
	w.in = trace.NewInterner(&w.tab)
	w.enc = trace.NewBinaryEncoder(out)
	// Every name the recorder writes is distinct (the interner's, and
	// desc#k for objects: descriptions hold no '#'), so the encoder need
	// not keep them; object names it asks for (see descs).
	w.enc.(interface{ LazyObjects(trace.ObjectNames) }).LazyObjects(w)
	w.fl, _ = w.enc.(interface{ Flush() error })
	w.hb.init()
	if w.fl != nil {
		w.fl.Flush() // the header
	}
	return w
}

// close ends the recording; see finish.
func (w *recorder) close(reason string) error {
	w.flushHeld()
	if (reason == "" || strings.HasPrefix(reason, "hung: ")) && !w.capped {
		// The operations goroutines were left blocked in (observed.go),
		// after every event of the run: at the test's end, or where
		// every goroutine hung for good (observeHung).
		for _, ev := range w.blockedEnd {
			w.enc.Encode(ev, &w.tab)
		}
	}
	if reason == "" && w.dropped > 0 {
		// Events the format could not hold (more names than a table
		// takes, say): the trace is not the whole run, and says so.
		reason = strconv.FormatInt(w.dropped, 10) + " events not written: " + w.dropErr
	}
	if reason == "" && w.capped {
		reason = w.capWhy
	}
	if reason == "" && freeCut.Load() {
		// The free run's atomics past freeKeep went unrecorded
		// (freerun.go): the trace is not the whole run.
		reason = freeCutWhy()
	}
	if reason != "" {
		w.enc.SetTruncated(reason)
	}
	err := w.enc.Close()
	if e := w.out.close(); err == nil {
		err = e
	}
	return err
}

// write encodes one event into the output.
func (w *recorder) write(ev trace.Event) {
	if w.capped {
		// Past a cap (events or goroutines: gCapped implies capped): the trace is the run's prefix up to there, with no
		// later event of a goroutine it names after a gap. (Events still
		// arrive: a goroutine past its check of active, and events held
		// back and flushed late. Under load TestRecordCapped's capped
		// test wrote 3519 events past its cap of 2000.)
		return
	}
	if maxGoroutines > 0 && rp == nil && ev.Flags&trace.FlagBlocked == 0 && !w.mention(&ev) {
		// The checker would predict from the events before this one
		// only (it bounds the goroutines of a trace, for memory): the
		// rest costs time and disk for nothing, as past maxEvents.
		w.gCapped = true
		w.cap("cut at " + strconv.FormatInt(w.events, 10) + " events, before one naming goroutine " + strconv.Itoa(maxGoroutines+1) + " (" + EnvMaxGoroutines + ")")
		return
	}
	if err := w.enc.Encode(ev, &w.tab); err != nil {
		// A site the format cannot hold: keep the event without it.
		if ev.Site == trace.NoIndex || w.enc.Encode(withoutSite(ev), &w.tab) != nil {
			if w.dropped++; w.dropErr == "" {
				w.dropErr = strings.ReplaceAll(err.Error(), "\n", " ")
			}
			return
		}
	}
	w.events++
	if maxEvents > 0 && w.events >= maxEvents && rp == nil {
		// What the checker reads of a trace is bounded (it predicts from a
		// prefix): recording on past that costs time and disk for
		// nothing.
		w.cap("cut at " + strconv.FormatInt(maxEvents, 10) + " events (" + EnvMaxEvents + ")")
	}
	if w.fl != nil {
		w.fl.Flush()
	}
}

// cap stops the recording (mu held): the wrappers now only perform their
// operations; close marks the trace cut, for why; endCapped ends the test.
func (w *recorder) cap(why string) {
	if w.capped {
		return
	}
	w.capped, w.capWhy = true, why
	active.Store(false)
	if capEnds && !hangStop.Load() {
		go endCapped(w)
	}
}

// mention notes the goroutines ev names (its own, and the one a fork or
// join names), as predict.ReadPrefix counts them, and reports whether
// they are within maxGoroutines; if not, it notes none.
func (w *recorder) mention(ev *trace.Event) bool {
	other := int32(-1)
	if ev.Op.Object() == trace.ObjGoroutine && ev.Obj >= 0 && ev.Obj != ev.G {
		other = ev.Obj
	}
	n := 0
	if w.fresh(ev.G) {
		n++
	}
	if w.fresh(other) {
		n++
	}
	if n == 0 {
		return true // every event but a goroutine's first
	}
	if w.nNamed+n > maxGoroutines {
		return false
	}
	for _, g := range [2]int32{ev.G, other} {
		if w.fresh(g) {
			for int(g) >= len(w.named) {
				w.named = append(w.named, false)
			}
			w.named[g] = true
			w.nNamed++
		}
	}
	return true
}

// fresh reports whether goroutine g (an index, or -1 for none) is one no
// written event named yet (mention).
func (w *recorder) fresh(g int32) bool {
	return g >= 0 && (int(g) >= len(w.named) || !w.named[g])
}

func withoutSite(ev trace.Event) trace.Event {
	ev.Site = trace.NoIndex
	return ev
}

// goroutine returns the logical goroutine with runtime id id, making it a
// new root if it was never seen.
func (w *recorder) goroutine(id int64) *Goroutine {
	c := &w.gcache[uint64(id)%gcacheSize]
	if c.goid == id && c.g != nil {
		if c.g.runFresh > 0 {
			w.resumeRun(c.g, id)
		}
		return c.g
	}
	g := w.gmap[id]
	if g != nil && g.runFresh > 0 {
		w.resumeRun(g, id)
	}
	if _, ok := staleIDs[id]; g == nil && ok {
		g = w.staleG(id)
	}
	if _, ok := preIDs[id]; g == nil && ok {
		w.preRoots++
		g = w.newG(trace.PreRoot + strconv.Itoa(w.preRoots))
		g.goid = id
		w.gmap[id] = g
		w.afterCreator(g, id)
	}
	if g == nil && id == curGoid() {
		g = w.adoptRun(id)
	}
	if g == nil {
		w.roots++
		g = w.newG("g" + strconv.Itoa(w.roots))
		g.goid = id
		w.gmap[id] = g
		w.afterCreator(g, id)
	}
	c.goid, c.g = id, g
	return g
}

// goroutineNamed returns the goroutine of w named name, or nil (mu held).
func (w *recorder) goroutineNamed(name string) *Goroutine {
	for _, g := range w.gmap {
		if g.name == name {
			return g
		}
	}
	return nil
}

// staleIDs: the runtime ids of goroutines that an earlier recording of
// the process started through Go and that had not ended when it finished
// (finishRec), or began after it (Begin); mu guards it. In a process
// recording many tests one after the other (EnvTraceDir) they are the
// earlier tests' leftovers: timedmap's tests each leave a cleaner ticking
// every 10 ms. Named as roots by their first event in a later test's
// trace (g2, g3, ...), their steps entered the test's schedules, and a
// replay, which runs the test alone, has no such goroutine: 11 replays
// in one check of timedmap deadlocked waiting for one ("g3 has not
// started", 7 of them at step 1). They are not recorded into later
// traces: none of the test's goroutines, no replay can schedule them.
// (The objects they touch are still numbered: a replay matches steps by
// goroutine, operation, site and count, not by object name.)
var staleIDs = map[int64]struct{}{}

// recordsLater: the process's recordings start with its tests
// (setupFromTest), so code runs before them: package initialization,
// TestMain.
var recordsLater bool

// preIDs: the runtime ids of goroutines started through Go before any
// recording of the process (recordsLater), or between two; mu guards it.
// They run in every process of the test, recorded or replayed, and
// are named apart from other roots, "p1", "p2", ... by their first event
// in the trace (trace.PreRoot): a replay does not wait for one in vain
// (replayer.quiescent). ants' default pool, a package-level variable,
// starts a purger and a clock goroutine on 1 s and 500 ms tickers at
// init. Named g2 when a tick fell inside a recording, the clock's steps
// entered the schedules; a replay, whose tickers made before it are on
// the real clock, met the tick when real time brought it, if at all, and
// deadlocked on "g2 has not started (started outside instrumented code)",
// and check pruned every prediction that reached that step: which ones
// depended on when the tick came (the test's T races were reported in
// some runs, not in others). The same name for a goroutine that TestMain
// starts keeps its races (testmainglobal: a reload's write against the
// test's read, its sleeps on the replay's clock).
var preIDs = map[int64]struct{}{}

// staleG makes the goroutine with runtime id id, an earlier recording's
// (staleIDs), known as stale (mu held).
func (w *recorder) staleG(id int64) *Goroutine {
	g := &Goroutine{w: w, name: "~stale", idx: trace.NoIndex, goid: id, waitCh: -1, parked: -1, stale: true}
	w.gmap[id] = g
	return g
}

// noteStale adds the goroutines w started through Go and that have not
// ended to staleIDs, as w finishes (mu held).
func (w *recorder) noteStale() {
	for id, g := range w.gmap {
		if g.stale || strings.Contains(g.name, ".") {
			staleIDs[id] = struct{}{}
		}
	}
}

// cur returns the calling goroutine.
// goroutineNames maps runtime goroutine ids to logical names (mu held),
// for describing a goroutine dump.
func (w *recorder) goroutineNames() map[int64]string {
	names := make(map[int64]string, len(w.gmap))
	for id, g := range w.gmap {
		names[id] = g.name
	}
	return names
}

func (w *recorder) cur() *Goroutine { return w.goroutine(curGoid()) }

// known returns the calling goroutine if it was seen before, else nil
// (cur would name it).
func (w *recorder) known() *Goroutine {
	id := curGoid()
	if c := &w.gcache[uint64(id)%gcacheSize]; c.goid == id && c.g != nil {
		return c.g
	}
	return w.gmap[id]
}

// child returns a new goroutine started by p (mu held): stale if p is.
func (w *recorder) child(p *Goroutine) *Goroutine {
	p.spawns++
	if p.stale {
		return &Goroutine{w: w, name: p.name, idx: trace.NoIndex, waitCh: -1, parked: -1, stale: true}
	}
	return w.newG(p.name + "." + strconv.Itoa(p.spawns))
}

func (w *recorder) newG(name string) *Goroutine {
	idx, _ := w.in.Intern(trace.TabGoroutine, name)
	return &Goroutine{w: w, name: name, idx: idx, waitCh: -1, parked: -1}
}

// forget drops the runtime id of an ended goroutine.
func (w *recorder) forget(g *Goroutine) {
	delete(w.gmap, g.goid)
	if c := &w.gcache[uint64(g.goid)%gcacheSize]; c.g == g {
		*c = gcacheEnt{}
	}
}

// site returns what is known of site id.
func (w *recorder) site(id int32) *siteInfo {
	if uint32(id) < uint32(len(w.sites)) {
		if s := &w.sites[id]; s.ok {
			return s
		}
	}
	if id < 0 || int(id) >= len(regs) {
		return &unknownSite
	}
	for len(w.sites) < len(regs) {
		w.sites = append(w.sites, siteInfo{})
	}
	s := &w.sites[id]
	r := regs[id]
	s.ok, s.idx, s.desc = true, trace.NoIndex, sanitizeName(r.Obj)
	if pos := sanitizeSite(r.Pos); pos != "" {
		s.idx, _ = w.in.Intern(trace.TabSite, pos)
	}
	return s
}

// object returns the object at addr of the given class, naming it desc#k
// when first seen. An address whose allocation was collected since it was
// last seen holds a new object, which gets the next name: k counts the
// objects of one description, not addresses (see objref_weak.go).
func (w *recorder) object(addr uintptr, class uint8, desc string) int32 {
	c := &w.ocache[ocacheSlot(addr, class)]
	if c.addr == addr && c.class == class && c.idx1 != 0 && c.epoch == w.renewEpoch && live(c.ref) {
		return c.idx1 - 1
	}
	k := objKey{addr, class}
	e, ok := w.objs[k]
	if !ok || !live(e.ref) || e.base != 0 && w.renew[e.base] != e.gen {
		e.idx = w.newObject(desc)
		e.ref, e.base = w.heapRef(addr)
		e.gen = w.renew[e.base]
		if !ok && len(w.objs) >= w.sweepAt {
			w.sweep()
		}
		w.objs[k] = e
	}
	*c = ocacheEnt{addr, class, e.idx + 1, e.ref, w.renewEpoch}
	return e.idx
}

// newObject adds the next object of description desc to the object table.
func (w *recorder) newObject(desc string) int32 {
	d := w.descID(desc)
	de := &w.descs[d]
	de.n++
	idx := int32(w.objNames.n)
	w.objNames.add(objName{d, de.n})
	return idx
}

// descID returns the id of description desc, adding it if new. The last
// one is kept aside: an allocation in a loop asks for one description
// (most often the very string) again and again.
func (w *recorder) descID(desc string) int32 {
	if desc == w.lastDesc && w.descs != nil {
		return w.lastD
	}
	d, ok := w.descIDs[desc]
	if !ok {
		d = int32(len(w.descs))
		w.descs = append(w.descs, descEnt{name: desc})
		w.descIDs[desc] = d
	}
	w.lastDesc, w.lastD = desc, d
	return d
}

// objName returns the name of object i ("" if there is none).
func (w *recorder) objName(i int32) string {
	return string(w.AppendObjectName(nil, i))
}

// NumObjects is the number of objects named so far (trace.ObjectNames).
func (w *recorder) NumObjects() int { return w.objNames.n }

// AppendObjectName appends the name of object i to dst
// (trace.ObjectNames).
func (w *recorder) AppendObjectName(dst []byte, i int32) []byte {
	n := w.objNames.at(i)
	if n.desc < 0 {
		return dst
	}
	dst = append(dst, w.descs[n.desc].name...)
	if n.k == 0 {
		return dst
	}
	return strconv.AppendInt(append(dst, '#'), int64(n.k), 10)
}

// minSweep is the size of the object map below which it is never swept.
const minSweep = 1 << 12

// sweep drops the map entries of collected allocations, so that the map
// holds about the addresses live at once rather than every address ever
// used: it runs when the map has doubled since the last sweep, which makes
// its cost constant per new object.
func (w *recorder) sweep() {
	n := 0
	for _, e := range w.objs {
		if live(e.ref) {
			n++
		}
	}
	if n < len(w.objs)/2 {
		// A Go map never gives back its table: copy the live entries
		// into a new one, so that memory follows the live objects too.
		m := make(map[objKey]objEnt, n)
		for k, e := range w.objs {
			if live(e.ref) {
				m[k] = e
			}
		}
		w.objs = m
	} else {
		for k, e := range w.objs {
			if !live(e.ref) {
				delete(w.objs, k)
			}
		}
	}
	w.sweepAt = max(minSweep, 2*len(w.objs))
}

// heapRef returns the allocation holding addr (see objref_weak.go). Many
// variables share a block (the fields of a struct, the elements of an
// array, the tiny allocator's 16-byte blocks of small scalars): a cache by
// block base, checked for liveness like any reference, spares weak.Make's
// lookup in the span's list of specials for all but the first. It also
// returns the block's base (0 outside the heap).
func (w *recorder) heapRef(addr uintptr) (objRef, uintptr) {
	base := heapBase(addr)
	if base == 0 {
		return objRef{}, 0
	}
	b := &w.blocks[(base>>4^base>>13)%blockCacheSize]
	if b.base == base && live(b.ref) {
		return b.ref, base
	}
	b.base, b.ref = base, makeRef(base)
	return b.ref, base
}

// renewBlock makes the variables of the heap block at base new objects
// from now on, as if the block had been freed and allocated again: a
// sync.Pool's Put hands it on (pool.go).
func (w *recorder) renewBlock(base uintptr) {
	if w.renew == nil {
		w.renew = map[uintptr]uint32{}
	}
	w.renew[base]++
	w.renewEpoch++
}

func ocacheSlot(addr uintptr, class uint8) uintptr {
	return (addr>>3 ^ addr>>15 ^ uintptr(class)<<7) % ocacheSize
}

// unit returns the object naming a unit of work (no address: the name is
// the description itself).
func (w *recorder) unit(desc string) int32 {
	idx, ok := w.units[desc]
	if !ok {
		idx = int32(w.objNames.n)
		w.units[desc] = idx
		w.objNames.add(objName{w.descID(desc), 0})
	}
	return idx
}

// syncObject returns the object of the channel, WaitGroup, Once or Cond
// at addr. One that was collected and whose address now holds a new one is
// a different object (see object), with, for a channel, fresh counts.
// Otherwise a new channel's first receive would be paired with the old
// channel's sends and its close would be a second close; a new WaitGroup's
// wait would follow the old one's dones, and a new Once's first call would
// not be its first once event.
func (w *recorder) syncObject(addr unsafe.Pointer, class uint8, desc string, capacity int64) int32 {
	obj := w.object(uintptr(addr), class, desc)
	if class == classChan {
		w.chanOf(obj, capacity)
	}
	return obj
}

// chanOf returns the state of channel object obj. A channel operation
// asks for it two or three times (syncObject, submit), and a map lookup
// each was a twelfth of a recorded channel event's cost: a direct-mapped
// cache comes first (chans only grows, so an entry never goes stale).
func (w *recorder) chanOf(obj int32, capacity int64) *chanState {
	c := &w.ccache[uint32(obj)%ccacheSize]
	if c.obj1 == obj+1 && c.cs != nil {
		return c.cs
	}
	cs := w.chans[obj]
	if cs == nil {
		cs = &chanState{cap: capacity}
		w.chans[obj] = cs
	}
	c.obj1, c.cs = obj+1, cs
	return cs
}

// sanitizeName makes an object description a valid trace name (see
// trace's rules: printable, no spaces, no '=', not starting with '#' or
// '@'). '#' is replaced too, so that "desc#k" is unambiguous.
func sanitizeName(s string) string {
	if s == "" {
		return "obj"
	}
	ok := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == 0x7f || c == '=' || c == '#' || c == '@' || c >= utf8.RuneSelf {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '=' || r == '#' || r == '@':
			r = '_'
		case r == utf8.RuneError || r == ' ' || !unicode.IsPrint(r):
			r = '_'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sanitizeSite returns pos as a valid trace site ("file:line" or
// "file:line:col", spaces replaced), or "" if it is not one.
func sanitizeSite(pos string) string {
	pos = sanitizeName(pos)
	// sanitizeName replaced '#', '@' and '=', which sites may hold; they
	// are rare in file names, and the replacement keeps the position.
	if _, err := trace.ParseSite(pos); err != nil {
		return ""
	}
	return pos
}

// now returns a monotonic time in nanoseconds, on the real clock even
// inside a synctest bubble (nanotime, park.go).
func now() int64 { return nanotime() - nanoEpoch }

// afterCreator makes root g (runtime id id, seen for the first time) wait
// for the events its creator has held back, if any (holdback): the
// creator started it after they happened. The creator is found in the
// calling goroutine's stack ("created by … in goroutine N", Go 1.21 and
// later), once per root; only when g is the caller.
func (w *recorder) afterCreator(g *Goroutine, id int64) {
	if w.hb.n == 0 || id != curGoid() {
		return
	}
	n, _ := creator()
	p := w.gmap[n]
	if p == nil || p == g || len(p.q) == 0 {
		return
	}
	h := p.q[len(p.q)-1]
	g.after = h
	h.kids = append(h.kids, g)
}

// creator returns the runtime id of the goroutine that started the
// calling one and the function that started it ("testing.(*T).Run"), or
// 0 and "" if its stack does not say.
func creator() (int64, string) {
	buf := make([]byte, 16<<10)
	n := runtime.Stack(buf, false)
	if n == len(buf) {
		return 0, "" // cut: the last frame may be missing
	}
	b := string(buf[:n])
	i := strings.LastIndex(b, "\ncreated by ")
	if i < 0 {
		return 0, ""
	}
	line := b[i+1:]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	const in = " in goroutine "
	k := strings.LastIndex(line, in)
	if k < 0 {
		return 0, ""
	}
	id, err := strconv.ParseInt(line[k+len(in):], 10, 64)
	if err != nil {
		return 0, ""
	}
	return id, strings.TrimPrefix(line[:k], "created by ")
}

// capEnds: a recording that reaches maxEvents while its test runs ends
// the process (endCapped); false only in tests of the run going on.
var capEnds = true

// endCapped ends the capped recording w and the process, as the hang
// watcher ends a hung one (hang.go): the trace is flushed and marked "cut
// at N events", and the batch records the tests after it in a new
// process. A capped test ran on unrecorded, the watcher blind (it looks
// only while recording): a test that polled for 3 s after 0.1 s of
// recording took 3.1 s, and one that waits on after the cap waits to the
// recording's 2-minute timeout (issue 30 saw pond's idle-purge tests do
// so). Nothing after the cap is predicted from, and a replay runs the
// test itself. A test that ended meanwhile (its end finished w, or,
// recording to the process's end, it stopped the watcher) goes on as it
// would.
func endCapped(w *recorder) {
	if hangStop.Load() {
		return
	}
	if ended, _ := finishRec(w, "", finishGrace); !ended {
		return
	}
	if w.gCapped {
		fmt.Fprintf(os.Stderr, "pecanvet: the recording reached its cap of %d goroutines (%s), so it ended the test there\n", maxGoroutines, EnvMaxGoroutines)
	} else {
		fmt.Fprintf(os.Stderr, "pecanvet: the recording reached its cap of %d events (%s), so it ended the test there\n", maxEvents, EnvMaxEvents)
	}
	os.Exit(4)
}
