package rt

import (
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Observing leaks in the recorded run (goleak's finding).
//
// An operation records its event when it completes, so the trace of a
// run whose goroutine stayed blocked in a send holds nothing of that
// send. The recorder therefore notes which operation a goroutine is about
// to block in: a send or receive rt performs, a Lock or RLock of a
// sync.Mutex or RWMutex, a WaitGroup's Wait, on the slow path only (it
// could not complete at once), and a Cond's Wait; it forgets the note
// when the operation completes. A range loop's receive and a select are
// performed by the user's code after their gates (RangeGate, SelectGate),
// which note them each time (a select by its first case with a channel);
// such a note stays until the goroutine's next one. At the end of a
// recorded test, after Drain let its goroutines run (observeBlocked),
// each goroutine the test started that still sits in its noted operation
// by the runtime's own account (a goroutine dump: in rt's wrapper for
// it, or, for a range loop or a select, waiting in a channel receive or a
// select at its line) is written at the end of the trace as an event
// marked trace.FlagBlocked: the operation it never completed. Readers
// keep such events apart (trace.Trace.Blocked). Whether one is a leak —
// nothing live can ever complete it — is for the checker to say and for
// a replay to prove.

// blocking is the operation a goroutine is blocked in (or about to be).
type blocking struct {
	site  int32 // +1; 0: none
	op    trace.Op
	kind  uint8 // how the dump shows the goroutine in it (bChan, …)
	class uint8 // the object's class (classChan, classLock, …)
	ch    unsafe.Pointer
	cap   int64
	// hard: a select (bSelect) that only another goroutine can end
	// (goroutineOnly): parked there, it waits as a recorded operation does.
	hard bool
}

// How a goroutine blocked in a noted operation shows in a goroutine dump
// (observeBlocked checks it, so that a note left behind by an operation
// that did not block names nothing).
const (
	bChan   uint8 = iota // in rt's Send or Recv wrapper, in a channel wait
	bRange               // a range loop's receive (RangeGate): user code, "chan receive" at the loop's line
	bSelect              // a select (SelectGate): user code, "select" at or before its first case's line
	bSync                // in rt's Lock, RLock, WGWait or CondWait wrapper
)

// blockIn notes that the running goroutine is about to block in op on the
// channel at ch, and returns it for unblock. Recording only: a replay
// needs no note (its proof dumps the goroutines itself).
//
// On an unbuffered channel it also gives the goroutine its ticket, its
// place in the channel's queue of op's side (holdback.go, "Rendezvous
// order"), to be passed to recordChan; else the zero tick.
func blockIn(ch unsafe.Pointer, site int32, op trace.Op, capacity int) (*Goroutine, tick) {
	if rp != nil {
		return nil, tick{}
	}
	mu.Lock()
	defer mu.Unlock()
	w := rec
	if w == nil {
		return nil, tick{}
	}
	id, stack := self(uintptr(ch))
	g := w.goroutine(id)
	g.blocked = blocking{site: site + 1, op: op, kind: bChan, class: classChan, ch: ch, cap: int64(capacity)}
	g.pauses++
	var tk tick
	if capacity == 0 && ch != nil && !stack {
		// The object is the one recordSync will name (a nil channel
		// never completes: no ticket; a channel on the stack records
		// nothing).
		tk = w.takeTicket(w.syncObject(ch, classChan, w.site(site).desc, 0), op)
	}
	return g, tk
}

// noteBlock notes b as the operation the running goroutine is about to
// block in (recording only) and returns the goroutine for unblock. A
// goroutine not seen yet is not named here (a root's name is its order
// of first event): every goroutine a test starts has begun.
func noteBlock(b blocking) *Goroutine {
	if rp != nil {
		return nil
	}
	mu.Lock()
	defer mu.Unlock()
	w := rec
	if w == nil {
		return nil
	}
	g := w.known()
	noteBlockLocked(g, b)
	return g
}

// noteBlockLocked is noteBlock with mu held, for g (nil: none).
func noteBlockLocked(g *Goroutine, b blocking) {
	if rp == nil && g != nil {
		g.blocked = b
		g.pauses++
		noteHardSelect(g.goid, b)
	}
}

// noteHardSelect keeps hardSelects for the goroutine of runtime id goid
// about to block in b (mu held).
func noteHardSelect(goid int64, b blocking) {
	switch {
	case b.hard && goid != 0:
		if len(hardSelects) >= maxHardSelects {
			clear(hardSelects) // forgotten: soft, as before
		}
		hardSelects[goid] = b.site
	case len(hardSelects) > 0:
		delete(hardSelects, goid)
	}
}

// hardSelects maps a goroutine's runtime id to the site (+1) of the
// select it noted last when that select is one only another goroutine
// can end (blocking.hard); mu. It outlives the recording of the test
// that started the goroutine: goroutines' TestPoolSuite leaves a
// hundred idle workers of earlier tests' pools parked in such a select
// (worker.go:86), which the hang watcher of a later test sees (hang.go:
// markHardSelects). Runtime ids are not reused; End drops its own.
var hardSelects = map[int64]int32{}

// maxHardSelects bounds hardSelects (goroutines that end without End).
const maxHardSelects = 1 << 16

// unblock forgets what blockIn noted.
func unblock(g *Goroutine) {
	if g == nil {
		return
	}
	mu.Lock()
	g.blocked = blocking{}
	mu.Unlock()
}

// observeBlocked notes, at the end of a recorded test (after Drain), the
// goroutines the test started that are blocked for good in the operation
// they noted: each becomes a FlagBlocked event written last
// (recorder.close). Goroutines are taken in name order, so that the
// trace does not depend on the map's.
func observeBlocked() {
	mu.Lock()
	w := rec
	if w == nil || rp != nil {
		mu.Unlock()
		return
	}
	_, live := w.liveKids(curGoid(), 0)
	var cands []*Goroutine
	for id := range live {
		if g := w.gmap[id]; g != nil && g.blocked.site > 0 {
			cands = append(cands, g)
		}
	}
	mu.Unlock()
	if len(cands) == 0 {
		return
	}
	gs, _ := dumpGoroutines(make([]byte, 64<<10))
	byID := map[int64]gstate{}
	for _, x := range gs {
		byID[x.id] = x
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].name < cands[j].name })
	mu.Lock()
	defer mu.Unlock()
	if rec != w {
		return
	}
	for _, g := range cands {
		b := g.blocked
		x, ok := byID[g.goid]
		if !ok || w.gmap[g.goid] != g || b.site == 0 || !blockedIn(x, b) {
			continue
		}
		s := w.site(b.site - 1)
		obj := w.syncObject(b.ch, b.class, s.desc, b.cap)
		w.blockedEnd = append(w.blockedEnd, trace.Event{G: g.idx, Op: b.op, Flags: trace.FlagBlocked, Obj: obj, Site: s.idx, Arg: b.cap})
	}
}

// observeHung notes, when the hang watcher ends a recording that hung
// (hang.go: every goroutine of the dump gs waits for another one), each
// goroutine of the recording blocked in the operation it noted, the
// test's own goroutine included: they become FlagBlocked events written
// last (recorder.close), as observeBlocked's are, so that the checker can
// name the operations the run hung in and replay the hang (mu held).
func observeHung(w *recorder, gs []gstate) {
	byID := map[int64]gstate{}
	for _, x := range gs {
		byID[x.id] = x
	}
	var cands []*Goroutine
	for id, g := range w.gmap {
		if x, ok := byID[id]; ok && !g.stale && g.blocked.site > 0 && blockedIn(x, g.blocked) {
			cands = append(cands, g)
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].name < cands[j].name })
	w.blockedEnd = w.blockedEnd[:0]
	for _, g := range cands {
		b := g.blocked
		s := w.site(b.site - 1)
		obj := w.syncObject(b.ch, b.class, s.desc, b.cap)
		w.blockedEnd = append(w.blockedEnd, trace.Event{G: g.idx, Op: b.op, Flags: trace.FlagBlocked, Obj: obj, Site: s.idx, Arg: b.cap})
	}
}

// blockedIn reports whether x, a goroutine of a dump, is blocked in the
// operation b its recorder noted.
func blockedIn(x gstate, b blocking) bool {
	switch b.kind {
	case bChan:
		return x.class == gRecorded && strings.HasPrefix(x.state, "chan ") && strings.HasPrefix(x.op, opWrapper(b.op))
	case bRange, bSelect:
		if x.class != gSoft {
			return false
		}
		if int(b.site) > len(regs) {
			return false
		}
		file, line, ok := fileLine(regs[b.site-1].Pos)
		wf, wl, wok := fileLine(x.where)
		if !ok || !wok || file != wf {
			return false
		}
		if b.kind == bRange {
			return x.state == "chan receive" && wl == line
		}
		// The select's line: its first case's, or an earlier one.
		return x.state == "select" && wl <= line
	case bSync:
		return x.class == gRecorded && x.op == syncWrapper(b.op, x.op)
	}
	return false
}

// goroutineOnly reports whether a select on cases (SelectGate's) waits
// for nothing but another goroutine: no default, and no receive case a
// timer or signal can ready. A timer's channel (time.After, a Timer's
// or Ticker's C, a mock clock's) carries time.Time, signal.Notify's
// os.Signal, and a context's Done is a receive-only channel of struct{}
// made by package context, which closes it from a timer for a deadline:
// a receive case counts unless its elements are a time.Time or an
// os.Signal, or it is receive-only with elements of size zero (a done
// channel handed out by code that may close it so). A send case needs a
// receiver: a goroutine. A channel of another type that code which is
// not instrumented readies from a timer callback is the risk a recorded
// receive on it takes too (hang.go); a replay, which fires the
// instrumented code's timers, proves the hang or not.
func goroutineOnly(cases []SelCase) bool {
	n := 0
	for i := range cases {
		c := &cases[i]
		if c.Default {
			return false
		}
		if c.Site < 0 || chanOfAny(c.Ch) == nil {
			continue // a nil channel's case is never ready
		}
		n++
		if c.Send {
			continue
		}
		t := reflect.TypeOf(c.Ch)
		if t.Kind() != reflect.Chan || t.Elem() == timeType || t.Elem() == signalType ||
			t.ChanDir() != reflect.BothDir && t.Elem().Size() == 0 {
			return false
		}
	}
	return n > 0
}

var (
	timeType   = reflect.TypeOf(time.Time{})
	signalType = reflect.TypeOf((*os.Signal)(nil)).Elem()
)

// syncWrapper is the rt wrapper a goroutine blocked in op sits in: an
// RWMutex's RLocker takes its read lock through Lock (got is the one the
// dump shows).
func syncWrapper(op trace.Op, got string) string {
	switch op {
	case trace.Lock:
		return "Lock"
	case trace.RLock:
		if got == "Lock" {
			return got
		}
		return "RLock"
	case trace.WGWait:
		return "WGWait"
	case trace.CondWait:
		return "CondWait"
	}
	return ""
}

// fileLine splits a position ("dir/file.go:12:5", "file.go:12") into
// its file's base name and its line.
func fileLine(pos string) (string, int, bool) {
	if i := strings.LastIndexByte(pos, '/'); i >= 0 {
		pos = pos[i+1:]
	}
	file, rest, ok := strings.Cut(pos, ":")
	if !ok {
		return "", 0, false
	}
	rest, _, _ = strings.Cut(rest, ":")
	line, err := strconv.Atoi(rest)
	return file, line, err == nil
}
