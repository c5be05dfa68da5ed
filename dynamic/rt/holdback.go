package rt

import (
	"sync/atomic"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// The reorder buffer ("holdback").
//
// Events reach the recorder in an order that is a valid linearization of
// the run for everything recorded at the right moment: a lock after it is
// acquired, an unlock before it is released, atomics while the operation is
// performed under mu, wg-add/done before and wg-wait after the call, and so
// on. Channel operations are the exception: the runtime can only record a
// send or receive after it completed, so the two sides of one
// communication race to the recorder, and the receive may arrive before its
// send. The prediction engine (ptg) pairs the k-th send of a channel with
// its k-th non-closed receive and checks, in file order:
//
//   - the k-th receive follows the k-th send;
//   - with capacity c > 0, the (k+c)-th send follows the k-th receive;
//   - with capacity 0, the k-th receive comes before the sender's next
//     event (the send completes only when received);
//   - a receive that saw the channel closed follows the close.
//
// So the recorder keeps, per channel, the counts of sends and non-closed
// receives written so far, and an event that would break one of these
// rules is held back until an event that truly happened before it has been
// written. Holding an event delays whatever happened after it, so the
// buffer also holds:
//
//   - every later event of the same goroutine (program order);
//   - every later event on the same object, channels aside (a lock after
//     the held unlock of that lock, an atomic load after the held store, a
//     wg-wait after the held wg-done, an access after the held access to the
//     same location, a begin after the held fork of that goroutine, a join
//     after the held end of the goroutine it waits for);
//   - every event of a root goroutine (one started by uninstrumented code,
//     whose fork is not recorded: a pool's worker started by a library)
//     that arrives while its creator has events held: the creator forked
//     it after those events, so the root's first event waits for the last
//     of them (Goroutine.after). Otherwise the trace would show the worker
//     running before its creator's events that came before the fork, and
//     a replay of that very order could never start the worker in time;
//   - a close until the sends and receives on the channel that arrived
//     before it are written.
//
// These are the only ways one event can happen after another, so the file
// stays a linearization of the run; the held events are written as soon as
// what they wait for is (event-driven: a goroutine whose first held event
// waits on a channel is parked on that channel and re-examined when the
// channel's counts change; one that waits on an object is re-examined when
// the held event before it on that object is written).
//
// An event waits only for something that really happened before it, whose
// record is on its way — unless the other side is not instrumented (a
// channel of time.After, context.Done, signal.Notify …): its sends or
// close are never recorded. A receive that saw a close that never arrived
// shows this at once (a close is recorded before it happens), and its
// channel is marked foreign: its events are then written as they come,
// in arrival order with the events held — not ahead of them. What caused
// such an event (the cancel that closed a context's channel) is not
// recorded, so it may be any event that arrived before it, held ones
// included: a foreign event waits until every event that arrived before
// it is written (held.barrier). go-quartz's Start goroutine, blocked in
// <-ctx.Done() until the test's Stop, was written at event 108 of 2341,
// ahead of the 2223 events held behind a timer's receive (the Stop among
// them), and every replay of that order deadlocked at its step. A
// missing send cannot be told from one in flight, so the buffer is
// bounded: when it holds more than maxHeld events, or its oldest event has
// waited longer than holdTimeout (checked as events arrive), the oldest is
// written anyway and the channel it waited for is marked foreign. Such
// forced writes are counted (holdback.forced); the engine will warn about
// that channel. Finishing the trace writes whatever is still held the same
// way.

// Rendezvous order on an unbuffered channel.
//
// The rules above pair the k-th send written with the k-th receive
// written, so sends must be written in the order the runtime paired
// them, and so must receives. A side that completes at once (it found its
// partner waiting: "active") records promptly; a side that blocked
// ("passive") records when it next runs, and the runtime runs woken
// goroutines in its own order (each goready takes runnext, pushing the
// previous one back): three senders blocked in turn and received in
// turn were recorded woken-last-first (ratelimit's TestInitial: sends
// g.2, g.3, g.1 against received g.3, g.1, g.2), and a replay of that
// order handed the values to other receivers. But the runtime serves the
// goroutines blocked on one side of a channel in the order they blocked
// (its wait queues are FIFO), and a party can only complete at once when
// its own side's queue is empty. So every send and receive on an
// unbuffered channel takes a ticket, one global sequence (tickets):
//
//   - a passive one just before it blocks (blockIn, under mu, in the
//     same step as it joins the channel's pending list of its side);
//   - an active one just after it completed (Send, Recv2; it joins the
//     list when its event arrives);
//   - a select with a case on an unbuffered channel, and a range loop
//     over one, cannot try first: each takes a ticket for its operation
//     before it performs it, as if it would block (SelectGate,
//     RangeGate); the case that fired keeps its ticket, the other
//     cases' are dropped (claimTicket).
//
// A party served before another of its side took its ticket before that
// one's ticket: if the other blocked, it joined the queue after its
// ticket and was served in queue order; if it completed at once, the
// queue was empty by then. So an event with ticket n is held until every
// ticket below n has arrived (the recorder's low-water mark: an active
// ticket is taken outside mu) and no pending party of its side holds one
// (it is written, or it dropped the ticket).
//
// A ticket and the step it stands for are not one step: a goroutine can
// take its ticket and be descheduled before it joins the queue (or after
// it completed, before it takes one) while another takes a later ticket
// and is served first. Its event then waits for one still blocked; the
// buffer's bound forces it out (force drops the channel's pending tickets
// instead of marking the channel foreign). Buffered channels take no
// tickets (a sender blocked on a full buffer is woken the same way: not
// handled), nor does a select of code instrumented without the receive
// cases' channels. A send or receive that saw the channel closed pairs
// with nothing: it waits for no ticket, and its own is dropped when it is
// written.

// tickets counts the tickets given out, in every recording.
var tickets atomic.Uint64

// tick is a channel event's ticket (see "Rendezvous order"); the zero
// value: none, no constraint.
type tick struct {
	n      uint64
	active bool // taken after the operation: it joins the list on arrival
}

// side indexes chanState.pend: 0 sends, 1 receives.
func side(op trace.Op) int {
	if op == trace.Recv {
		return 1
	}
	return 0
}

// tkWait is what ready returns for an event waiting for the tickets'
// low-water mark.
const tkWait = -2

const (
	maxHeld     = 1 << 16
	holdTimeout = int64(500e6) // ns
)

type holdback struct {
	n      int               // events held
	seq    uint64            // arrival counter
	keyq   map[int64][]*held // object key → its held events in arrival order
	gs     []*Goroutine      // goroutines that may hold events (listed)
	work   []*Goroutine      // goroutines to re-examine
	tick   uint32            // arrivals while something is held
	forced int64             // events written out of order
	// forcedTickets: events forced out while waiting for an earlier
	// ticket (see "Rendezvous order").
	forcedTickets int64
	// tkLow: every ticket up to it has arrived (or was given out before
	// this recording); tkArr: those above it that have; tkWaiters: the
	// goroutines whose first held event waits for tkLow to rise.
	tkLow     uint64
	tkArr     map[uint64]bool
	tkWaiters []*Goroutine
	maxN      int          // high-water mark of n
	total     int64        // events ever held
	foreign   int64        // channels found to have an unrecorded side
	barred    []*Goroutine // goroutines whose first held event is a barrier
}

type held struct {
	ev           trace.Event
	g            *Goroutine
	seq          uint64
	at           int64        // arrival time (now())
	needS, needR int64        // close: sends and receives that arrived before it
	tk           tick         // unbuffered send or receive: see "Rendezvous order"
	done         bool         // written
	kids         []*Goroutine // roots whose events wait for it (Goroutine.after)
	// barrier: an event on a foreign channel that arrived while others
	// were held: it waits for every event that arrived before it.
	barrier bool
}

type chanState struct {
	cap          int64
	sends, recvs int64 // written (recvs: those that did not see the close)
	arrS, arrR   int64 // arrived
	closed       bool  // close written
	closeArrived bool
	foreign      bool // its other side is not (fully) recorded: no checks
	waiters      []*Goroutine
	// pend: by side, the tickets of the parties that blocked on the
	// channel and whose event is not written yet, ascending.
	pend [2][]uint64
}

// ticketWait reports whether ev, with tk, must wait for an earlier
// ticket of its side (see "Rendezvous order").
func (cs *chanState) ticketWait(ev *trace.Event, tk tick) bool {
	if tk.n == 0 || cs.cap != 0 || ev.Flags&trace.FlagClosed != 0 || (ev.Op != trace.Send && ev.Op != trace.Recv) {
		return false
	}
	p := cs.pend[side(ev.Op)]
	return len(p) > 0 && p[0] < tk.n
}

// addTicket puts ticket n on the pending list of op's side, in order.
func (cs *chanState) addTicket(op trace.Op, n uint64) {
	p := cs.pend[side(op)]
	i := len(p)
	for i > 0 && p[i-1] > n {
		i--
	}
	p = append(p, 0)
	copy(p[i+1:], p[i:])
	p[i] = n
	cs.pend[side(op)] = p
}

// skipTickets raises the low-water mark to n: tickets up to n are no
// longer waited for.
func (w *recorder) skipTickets(n uint64) {
	hb := &w.hb
	if n <= hb.tkLow {
		return
	}
	for k := range hb.tkArr {
		if k <= n {
			delete(hb.tkArr, k)
		}
	}
	hb.tkLow = n
	for hb.tkArr[hb.tkLow+1] {
		delete(hb.tkArr, hb.tkLow+1)
		hb.tkLow++
	}
	for _, g := range hb.tkWaiters {
		g.parked = -1
		w.schedule(g)
	}
	hb.tkWaiters = hb.tkWaiters[:0]
}

// arrive notes that ticket n is on its channel's list (or dropped), and
// wakes the events waiting for the low-water mark when it rises.
func (w *recorder) arrive(n uint64) {
	hb := &w.hb
	if n <= hb.tkLow {
		return
	}
	if hb.tkArr == nil {
		hb.tkArr = map[uint64]bool{}
	}
	hb.tkArr[n] = true
	rose := false
	for hb.tkArr[hb.tkLow+1] {
		delete(hb.tkArr, hb.tkLow+1)
		hb.tkLow++
		rose = true
	}
	if rose {
		for _, g := range hb.tkWaiters {
			g.parked = -1
			w.schedule(g)
		}
		hb.tkWaiters = hb.tkWaiters[:0]
	}
}

// dropTicket forgets ticket n of op's side, once its event is written.
func (cs *chanState) dropTicket(op trace.Op, n uint64) {
	p := cs.pend[side(op)]
	for i, x := range p {
		if x == n {
			cs.pend[side(op)] = append(p[:i], p[i+1:]...)
			return
		}
	}
}

// gateTk is a ticket a select or range loop took before it performed its
// operation (gateTicket), kept by its goroutine until it records one.
type gateTk struct {
	obj int32
	op  trace.Op
	n   uint64
}

// gateTicket gives goroutine g a ticket for op on unbuffered channel ch at
// site, which a select's case or a range loop's receive is about to
// perform (mu held). Whether it will block is not known there: it is
// taken as if it would (see "Rendezvous order"), and claimTicket settles
// it when the operation is recorded.
func (w *recorder) gateTicket(g *Goroutine, ch unsafe.Pointer, site int32, op trace.Op) {
	obj := w.syncObject(ch, classChan, w.site(site).desc, 0)
	g.gateTks = append(g.gateTks, gateTk{obj: obj, op: op, n: w.takeTicket(obj, op).n})
}

// claimTicket returns the tick of g's op on channel obj from the tickets
// g's select or range loop took (none: the zero tick), and drops the
// others: the select's cases that did not fire left their channels'
// queues (mu held). obj -1 drops them all (a default case, a panic).
func (w *recorder) claimTicket(g *Goroutine, obj int32, op trace.Op) tick {
	var tk tick
	if len(g.gateTks) == 0 {
		return tk
	}
	for _, t := range g.gateTks {
		if tk.n == 0 && t.obj == obj && side(t.op) == side(op) {
			tk = tick{n: t.n}
			continue
		}
		cs := w.chans[t.obj]
		cs.dropTicket(t.op, t.n)
		w.wake(cs)
	}
	g.gateTks = g.gateTks[:0]
	w.drain()
	return tk
}

// takeTicket gives the party about to block in op on unbuffered channel
// obj its ticket (mu held).
func (w *recorder) takeTicket(obj int32, op trace.Op) tick {
	n := tickets.Add(1)
	w.chans[obj].addTicket(op, n)
	w.arrive(n)
	return tick{n: n}
}

func (h *holdback) init() {
	h.keyq = map[int64][]*held{}
	h.tkLow = tickets.Load() // earlier ones are other recordings'
}

// orderKey returns the object key whose arrival order ev must keep, if any.
func orderKey(ev *trace.Event) (int64, bool) {
	switch ev.Op {
	case trace.Send, trace.Recv, trace.Close, trace.RegionBegin, trace.RegionEnd, trace.Sleep:
		return 0, false
	case trace.Fork, trace.Join:
		// A goroutine's fork, begin, end and join keep their order (the
		// join is recorded by the waiting goroutine, testgo.go).
		return 1<<32 | int64(ev.Obj), true
	case trace.Begin, trace.End:
		return 1<<32 | int64(ev.G), true
	}
	return int64(ev.Obj), true
}

// emit hands one event of goroutine g to the recorder.
func (w *recorder) emit(g *Goroutine, ev trace.Event) {
	if g.stale {
		return // an earlier recording's goroutine (staleIDs)
	}
	g.selSend.ok = false // its select did not panic (SelectGate)
	if rp != nil {
		rp.touched(g, ev)
		rp.recorded(g, ev.Op)
		if rp.relock {
			rp.hold(g, ev)
		}
	}
	ev.G = g.idx
	g.emits++
	if w.hb.n == 0 && g.waitCh < 0 && !ev.Op.IsChan() && g.after == nil {
		w.write(ev) // the hot path: nothing held, nothing to check
		return
	}
	w.submit(g, ev)
}

func (w *recorder) submit(g *Goroutine, ev trace.Event) {
	hb := &w.hb
	tk := w.nextTick
	w.nextTick = tick{}
	if hb.n > 0 {
		if hb.tick++; hb.tick%64 == 0 {
			w.expire()
		}
	}
	var needS, needR int64
	if ev.Op.IsChan() {
		cs := w.chanOf(ev.Obj, ev.Arg)
		if tk.active {
			cs.addTicket(ev.Op, tk.n)
			w.arrive(tk.n)
		}
		switch {
		case ev.Op == trace.Send && ev.Flags&trace.FlagClosed == 0:
			cs.arrS++
		case ev.Op == trace.Recv && ev.Flags&trace.FlagClosed == 0:
			cs.arrR++
		case ev.Op == trace.Recv:
			// A close is recorded before it happens, so before any receive
			// can see it: if none arrived, the closer is not instrumented
			// (context.Done and the like) and waiting is pointless.
			if !cs.closeArrived && !cs.foreign {
				cs.foreign = true
				hb.foreign++
				w.barHeld(ev.Obj)
			}
		case ev.Op == trace.Close:
			needS, needR = cs.arrS, cs.arrR
			cs.closeArrived = true
		}
	}
	barrier := hb.n > 0 && ev.Op.IsChan() && w.chanOf(ev.Obj, ev.Arg).foreign
	if len(g.q) == 0 && !barrier {
		if ok, _ := w.ready(g, &ev, nil, needS, needR, tk); ok {
			w.put(g, ev, tk)
			w.drain()
			return
		}
	}
	hb.seq++
	h := &held{ev: ev, g: g, seq: hb.seq, at: now(), needS: needS, needR: needR, tk: tk, barrier: barrier}
	g.q = append(g.q, h)
	if k, ok := orderKey(&ev); ok {
		hb.keyq[k] = append(hb.keyq[k], h)
	}
	hb.n++
	hb.total++
	if hb.n > hb.maxN {
		hb.maxN = hb.n
	}
	if !g.listed {
		g.listed = true
		hb.gs = append(hb.gs, g)
	}
	if len(g.q) == 1 {
		w.schedule(g)
		w.drain() // parks g
	}
	if hb.n > maxHeld {
		w.expire()
	}
}

// ready reports whether ev (held as h, or arriving with tk if h is nil)
// may be written now. If not and it waits for a channel, that channel is
// returned.
func (w *recorder) ready(g *Goroutine, ev *trace.Event, h *held, needS, needR int64, tk tick) (bool, int32) {
	if a := g.after; a != nil {
		if !a.done {
			return false, -1
		}
		g.after = nil
	}
	if g.waitCh >= 0 {
		cs := w.chans[g.waitCh]
		if cs.foreign || cs.recvs >= g.waitN {
			g.waitCh = -1
		} else {
			return false, g.waitCh
		}
	}
	if k, ok := orderKey(ev); ok {
		if q := w.hb.keyq[k]; len(q) > 0 && q[0] != h {
			return false, -1
		}
	}
	if !ev.Op.IsChan() {
		return true, -1
	}
	if h != nil && h.barrier && w.heldBefore(h) {
		if !g.barred {
			g.barred = true
			w.hb.barred = append(w.hb.barred, g)
		}
		return false, -1
	}
	cs := w.chanOf(ev.Obj, ev.Arg)
	if cs.foreign {
		return true, -1
	}
	if h != nil {
		tk = h.tk
	}
	if cs.ticketWait(ev, tk) {
		return false, ev.Obj
	}
	if tk.n > w.hb.tkLow+1 && cs.cap == 0 && ev.Flags&trace.FlagClosed == 0 {
		return false, tkWait // an earlier ticket is on its way
	}
	switch ev.Op {
	case trace.Send:
		if ev.Flags&trace.FlagClosed != 0 {
			// A send that panicked found the channel closed: after the close.
			if !cs.closed {
				return false, ev.Obj
			}
		} else if cs.cap > 0 && cs.sends >= cs.cap && cs.recvs <= cs.sends-cs.cap {
			return false, ev.Obj
		}
	case trace.Recv:
		if ev.Flags&trace.FlagClosed != 0 {
			if !cs.closed {
				return false, ev.Obj
			}
		} else if cs.recvs >= cs.sends {
			return false, ev.Obj
		}
	case trace.Close:
		if h != nil {
			needS, needR = h.needS, h.needR
		}
		if cs.sends < needS || cs.recvs < needR {
			return false, ev.Obj
		}
	}
	return true, -1
}

// heldBefore reports whether another goroutine holds an event that
// arrived before h (each goroutine's queue is in arrival order).
func (w *recorder) heldBefore(h *held) bool {
	for _, o := range w.hb.gs {
		if o != h.g && len(o.q) > 0 && o.q[0].seq < h.seq {
			return true
		}
	}
	return false
}

// put writes ev of goroutine g and updates the channel counts, scheduling
// the goroutines that wait on them.
func (w *recorder) put(g *Goroutine, ev trace.Event, tk tick) {
	w.write(ev)
	if !ev.Op.IsChan() {
		return
	}
	cs := w.chanOf(ev.Obj, ev.Arg)
	if tk.n > 0 {
		cs.dropTicket(ev.Op, tk.n)
		defer w.wake(cs) // a later ticket may wait for this one
	}
	switch ev.Op {
	case trace.Send:
		if ev.Flags&trace.FlagClosed != 0 {
			return // delivered nothing
		}
		if cs.cap == 0 && !cs.foreign {
			g.waitCh, g.waitN = ev.Obj, cs.sends+1
		}
		cs.sends++
	case trace.Recv:
		if ev.Flags&trace.FlagClosed != 0 {
			return
		}
		cs.recvs++
	case trace.Close:
		cs.closed = true
	}
	w.wake(cs)
}

func (w *recorder) wake(cs *chanState) {
	for _, g := range cs.waiters {
		g.parked = -1
		w.schedule(g)
	}
	cs.waiters = cs.waiters[:0]
}

func (w *recorder) schedule(g *Goroutine) {
	if !g.inWork {
		g.inWork = true
		w.hb.work = append(w.hb.work, g)
	}
}

// drain writes every held event that has become ready.
func (w *recorder) drain() {
	hb := &w.hb
	for len(hb.work) > 0 {
		g := hb.work[len(hb.work)-1]
		hb.work = hb.work[:len(hb.work)-1]
		g.inWork = false
		for len(g.q) > 0 {
			h := g.q[0]
			ok, ch := w.ready(g, &h.ev, h, 0, 0, tick{})
			if !ok {
				if ch == tkWait && g.parked != ch {
					hb.tkWaiters = append(hb.tkWaiters, g)
					g.parked = ch
				}
				if ch >= 0 && g.parked != ch {
					cs := w.chans[ch]
					cs.waiters = append(cs.waiters, g)
					g.parked = ch
				}
				break
			}
			w.release(h)
		}
	}
}

// release writes held event h, the first of its goroutine's queue.
func (w *recorder) release(h *held) {
	hb := &w.hb
	g := h.g
	g.q[0] = nil
	g.q = g.q[1:]
	if len(g.q) == 0 {
		g.q = nil
	}
	hb.n--
	if k, ok := orderKey(&h.ev); ok {
		q := hb.keyq[k]
		i := 0
		for q[i] != h { // q[0] unless forced
			i++
		}
		copy(q[i:], q[i+1:])
		q[len(q)-1] = nil
		q = q[:len(q)-1]
		if len(q) == 0 {
			delete(hb.keyq, k)
		} else {
			hb.keyq[k] = q
			if i == 0 {
				w.schedule(q[0].g)
			}
		}
	}
	h.done = true
	for _, k := range h.kids {
		w.schedule(k)
	}
	h.kids = nil
	w.put(g, h.ev, h.tk)
	w.schedule(g)
	if len(hb.barred) > 0 {
		// A barrier may have been waiting for h: look again.
		for _, b := range hb.barred {
			b.barred = false
			w.schedule(b)
		}
		hb.barred = hb.barred[:0]
	}
}

// oldest returns the held event that arrived first (it is the first of its
// goroutine's queue), or nil.
func (w *recorder) oldest() *held {
	hb := &w.hb
	var best *held
	j := 0
	for _, g := range hb.gs {
		if len(g.q) == 0 {
			g.listed = false
			continue
		}
		hb.gs[j] = g
		j++
		if h := g.q[0]; best == nil || h.seq < best.seq {
			best = h
		}
	}
	for i := j; i < len(hb.gs); i++ {
		hb.gs[i] = nil
	}
	hb.gs = hb.gs[:j]
	return best
}

// expire forces out held events that waited too long, and, if the buffer
// is over its bound, the oldest ones until it is not.
func (w *recorder) expire() {
	t := now()
	for w.hb.n > 0 {
		h := w.oldest()
		if !(w.hb.n > maxHeld || t-h.at > holdTimeout) {
			return
		}
		w.force(h, true)
	}
}

// force writes h (the oldest held event) whether or not it is ready.
func (w *recorder) force(h *held, markForeign bool) {
	g := h.g
	if h.ev.Op.IsChan() {
		cs := w.chanOf(h.ev.Obj, h.ev.Arg)
		inFlight := tickets.Load() > w.hb.tkLow
		if (len(cs.pend[0])+len(cs.pend[1]) > 0 || inFlight) && !cs.foreign {
			if ok, _ := w.ready(g, &h.ev, h, 0, 0, tick{}); !ok {
				// A ticket taken before its party blocked, after a later
				// one's, or one never to arrive (its recording ended),
				// may be what h waits for, directly or through a send or
				// receive that waits for it: the channel's pending
				// tickets and those on their way are given up first, not
				// the channel's checks.
				cs.pend = [2][]uint64{}
				w.skipTickets(tickets.Load())
				w.hb.forcedTickets++
				w.wake(cs)
				w.drain()
				if h.done {
					return
				}
			}
		}
	}
	if ok, ch := w.ready(g, &h.ev, h, 0, 0, tick{}); !ok {
		w.hb.forced++
		if g.waitCh >= 0 {
			ch = g.waitCh
			g.waitCh = -1
		}
		if ch >= 0 && markForeign && !w.chans[ch].foreign {
			cs := w.chans[ch]
			cs.foreign = true
			w.hb.foreign++
			w.barHeld(ch)
			w.wake(cs)
		}
	}
	w.release(h)
	w.drain()
}

// barHeld makes the held events on channel ch, found foreign after they
// arrived, barriers as though they had arrived after that (a foreign
// channel's events are written as they come, in arrival order with the
// events held): readiness alone would write them ahead of older events
// that wait on another channel. ttlcache's expiration loop received its
// timer at 1.9 s, while the test's receive of its 0.5 s time.After, which
// came at 1.5 s, waited for the send no timer records; forcing out the
// loop's receive of 0.9 s made its timer channel foreign and wrote the
// loop's 1.9 s receive at once, ahead of the test's wake and its Touch,
// and every replay of that order held the test past the loop's timer.
func (w *recorder) barHeld(ch int32) {
	for _, g := range w.hb.gs {
		for _, h := range g.q {
			if h.ev.Op.IsChan() && h.ev.Obj == ch {
				h.barrier = true
			}
		}
	}
}

// flushHeld writes everything still held, ready or not, in arrival order
// as far as the rules allow.
func (w *recorder) flushHeld() {
	w.drain()
	for w.hb.n > 0 {
		w.force(w.oldest(), false)
	}
}
