package rt

import (
	"sort"
	"strings"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Observing leaks in the recorded run (goleak's finding).
//
// A channel operation records its event when it completes, so the trace
// of a run whose goroutine stayed blocked in a send holds nothing of that
// send. The recorder therefore notes, on the slow path only (the
// operation could not complete at once), which operation a goroutine is
// about to block in (blockIn), and forgets it when it completes. At the
// end of a recorded test, after Drain let its goroutines run
// (observeBlocked), each goroutine the test started that still sits in a
// noted send or receive, blocked in rt's wrapper by the runtime's own
// account (a goroutine dump), is written at the end of the trace as an
// event marked trace.FlagBlocked: the operation it never completed.
// Readers keep such events apart (trace.Trace.Blocked). Whether one is a
// leak — nothing live can ever complete it — is for the checker to say
// and for a replay to prove.

// blocking is the operation a goroutine is blocked in (or about to be).
type blocking struct {
	site int32 // +1; 0: none
	op   trace.Op
	ch   unsafe.Pointer
	cap  int64
}

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
	g.blocked = blocking{site: site + 1, op: op, ch: ch, cap: int64(capacity)}
	var tk tick
	if capacity == 0 && ch != nil && !stack {
		// The object is the one recordSync will name (a nil channel
		// never completes: no ticket; a channel on the stack records
		// nothing).
		tk = w.takeTicket(w.syncObject(ch, classChan, w.site(site).desc, 0), op)
	}
	return g, tk
}

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
// goroutines the test started that are blocked for good in a send or
// receive rt performs: each becomes a FlagBlocked event written last
// (recorder.close). Goroutines are taken in name order, so that the
// trace does not depend on the map's.
func observeBlocked() {
	mu.Lock()
	w := rec
	if w == nil || rp != nil {
		mu.Unlock()
		return
	}
	_, live := w.liveKids(curGoid())
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
		if !ok || w.gmap[g.goid] != g || b.site == 0 || x.class != gRecorded || !strings.HasPrefix(x.state, "chan ") ||
			!strings.HasPrefix(x.op, opWrapper(b.op)) {
			continue
		}
		s := w.site(b.site - 1)
		obj := w.syncObject(b.ch, classChan, s.desc, b.cap)
		w.blockedEnd = append(w.blockedEnd, trace.Event{G: g.idx, Op: b.op, Flags: trace.FlagBlocked, Obj: obj, Site: s.idx, Arg: b.cap})
	}
}
