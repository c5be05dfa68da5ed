// Package hb computes happens-before over a recorded trace, as FastTrack does.
//
// Two packages use it. The orchestrator (package check) calls
// OrderedPairs to learn whether recorded synchronization orders the two
// accesses of a race prediction whose replay diverged: a pair that nothing
// orders is then confirmed with Go's race detector. The benchmark
// (internal/bench) calls Run as the baseline it measures the PTG engine
// against ("BENCH hb-baseline"): what a dynamic race detector such as
// -race does with the same events, so that the engine's cost is a ratio
// measured in one run.
//
// # Model
//
// One pass in trace order keeps a vector clock per goroutine and
// synchronization object, and epochs for the last write and (until reads
// are concurrent) the last read of each location.
//
// Synchronization follows the PTG's Go rules (package ptg): fork/join,
// channels (k-th send → k-th receive; with capacity c the k-th receive →
// the (k+c)-th send; unbuffered, the receive → the sender's next event),
// close → receives that observed it, WaitGroup done → wait, the first Once
// → later ones, cond signal → wait, atomic store → load; and, unlike the
// hybrid model, mutexes are happens-before edges too, as in -race.
package hb

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
)

type vc []uint32

func (v vc) join(w vc) {
	for i, x := range w {
		if x > v[i] {
			v[i] = x
		}
	}
}

// epoch is a clock value of one goroutine; g < 0 means none.
type epoch struct {
	g int32
	c uint32
}

type loc struct {
	w     epoch
	r     epoch // last read while reads are ordered
	rvc   vc    // read clocks once two reads were concurrent
	raced bool
}

type send struct {
	g int32
	v vc
}

type chanState struct {
	sends        []send // unmatched sends
	recvs        []vc   // clocks of receives (for capacity)
	nsend, nrecv int
	cap          int64
	closed       vc
}

// Detector runs FastTrack over events fed in trace order.
type Detector struct {
	c       []vc // goroutine → clock
	locs    map[int32]*loc
	locks   map[int32]vc // write-release clock of each mutex
	rlocks  map[int32]vc // joined read-release clocks of each RWMutex
	chans   map[int32]*chanState
	wgs     map[int32]vc
	onces   map[int32]vc
	conds   map[int32]vc
	atomics map[int32]vc
	ends    map[int32]vc
	pend    []vc // goroutine → clock to join at its next event (unbuffered send)
	// Races counts accesses found racing with an earlier one; Locations
	// counts the distinct locations with a race.
	Races, Locations int
}

// New returns a Detector for a trace with ng goroutines.
func New(ng int) *Detector {
	d := &Detector{c: make([]vc, ng), pend: make([]vc, ng), locs: map[int32]*loc{}, locks: map[int32]vc{}, rlocks: map[int32]vc{},
		chans: map[int32]*chanState{}, wgs: map[int32]vc{}, onces: map[int32]vc{}, conds: map[int32]vc{}, atomics: map[int32]vc{}, ends: map[int32]vc{}}
	for g := range d.c {
		d.c[g] = make(vc, ng)
		d.c[g][g] = 1
	}
	return d
}

// Run detects the races of tr.
func Run(tr *trace.Trace) *Detector {
	d := New(len(tr.Goroutines))
	for _, e := range tr.Events {
		d.Step(e)
	}
	return d
}

func (d *Detector) snap(g int32) vc { return append(vc(nil), d.c[g]...) }

// release publishes g's clock into dst (allocated if nil) and advances g.
func (d *Detector) release(g int32, dst vc) vc {
	if dst == nil {
		dst = d.snap(g)
	} else {
		dst.join(d.c[g])
	}
	d.c[g][g]++
	return dst
}

// Step processes the next event.
func (d *Detector) Step(e trace.Event) {
	g := e.G
	c := d.c[g]
	if p := d.pend[g]; p != nil {
		c.join(p)
		d.pend[g] = nil
	}
	switch e.Op {
	case trace.Read, trace.Write:
		d.access(g, e.Obj, e.Op == trace.Write)
	case trace.AtomicLoad:
		if v := d.atomics[e.Obj]; v != nil {
			c.join(v)
		}
	case trace.AtomicStore, trace.AtomicRMW:
		if v := d.atomics[e.Obj]; v != nil && e.Op == trace.AtomicRMW {
			c.join(v)
		}
		d.atomics[e.Obj] = d.release(g, d.atomics[e.Obj])
	case trace.Lock:
		if v := d.locks[e.Obj]; v != nil {
			c.join(v)
		}
		if v := d.rlocks[e.Obj]; v != nil {
			c.join(v)
		}
	case trace.RLock:
		if v := d.locks[e.Obj]; v != nil {
			c.join(v)
		}
	case trace.Unlock:
		v := d.locks[e.Obj]
		if v == nil {
			v = make(vc, len(c))
		}
		copy(v, c)
		d.locks[e.Obj] = v
		c[g]++
	case trace.RUnlock:
		d.rlocks[e.Obj] = d.release(g, d.rlocks[e.Obj])
	case trace.Fork:
		d.c[e.Obj].join(c)
		c[g]++
	case trace.End:
		d.ends[g] = d.snap(g)
	case trace.Join:
		if v := d.ends[e.Obj]; v != nil {
			c.join(v)
		} else {
			c.join(d.c[e.Obj])
		}
	case trace.Send:
		ch := d.channel(e)
		if e.Flags&trace.FlagClosed != 0 {
			c[g]++ // panicked on the closed channel: delivered nothing
			break
		}
		// With capacity c, the (k+c)-th send waits for the k-th receive.
		if ch.cap > 0 && int64(ch.nsend) >= ch.cap {
			if k := int64(ch.nsend) - ch.cap; k < int64(len(ch.recvs)) && ch.recvs[k] != nil {
				c.join(ch.recvs[k])
				ch.recvs[k] = nil
			}
		}
		ch.nsend++
		ch.sends = append(ch.sends, send{g, d.snap(g)})
		c[g]++
	case trace.Recv:
		ch := d.channel(e)
		if e.Flags&trace.FlagClosed != 0 {
			if ch.closed != nil {
				c.join(ch.closed)
			}
			break
		}
		if len(ch.sends) > 0 {
			s := ch.sends[0]
			ch.sends = ch.sends[1:]
			c.join(s.v)
			if ch.cap == 0 && s.g != g {
				// The send completes when received: its goroutine's next
				// event knows this receive.
				if d.pend[s.g] == nil {
					d.pend[s.g] = d.snap(g)
				} else {
					d.pend[s.g].join(c)
				}
			}
		}
		if ch.cap > 0 {
			ch.recvs = append(ch.recvs, d.snap(g))
			// Receives older than the window of capacity are used up.
			if n := len(ch.recvs); n > 4*int(ch.cap)+64 {
				drop := n - int(ch.cap) - 1
				ch.recvs = append(ch.recvs[:0], ch.recvs[drop:]...)
				ch.nrecv += drop
				ch.nsend -= drop
			}
		}
		c[g]++
	case trace.Close:
		ch := d.channel(e)
		ch.closed = d.release(g, ch.closed)
	case trace.WGDone:
		d.wgs[e.Obj] = d.release(g, d.wgs[e.Obj])
	case trace.WGAdd:
		if e.Arg < 0 {
			d.wgs[e.Obj] = d.release(g, d.wgs[e.Obj])
		}
	case trace.WGWait:
		if v := d.wgs[e.Obj]; v != nil {
			c.join(v)
		}
	case trace.OnceDo:
		if v := d.onces[e.Obj]; v != nil {
			c.join(v)
		} else {
			d.onces[e.Obj] = d.release(g, nil)
		}
	case trace.CondSignal, trace.CondBroadcast:
		d.conds[e.Obj] = d.release(g, d.conds[e.Obj])
	case trace.CondWait:
		if v := d.conds[e.Obj]; v != nil {
			c.join(v)
		}
	}
}

// channel returns the state of e's channel, made on its first operation.
func (d *Detector) channel(e trace.Event) *chanState {
	ch := d.chans[e.Obj]
	if ch == nil {
		ch = &chanState{cap: e.Arg}
		d.chans[e.Obj] = ch
	}
	return ch
}

// access is FastTrack's read and write rules.
func (d *Detector) access(g, x int32, write bool) {
	c := d.c[g]
	l := d.locs[x]
	if l == nil {
		l = &loc{w: epoch{-1, 0}, r: epoch{-1, 0}}
		d.locs[x] = l
	}
	me := epoch{g, c[g]}
	race := false
	if l.w.g >= 0 && l.w != me && l.w.c > c[l.w.g] {
		race = true
	}
	if !write {
		switch {
		case l.r == me:
			// Same epoch: nothing new.
		case l.rvc != nil:
			l.rvc[g] = c[g]
		case l.r.g < 0 || l.r.c <= c[l.r.g]:
			l.r = me
		default:
			// Concurrent reads: switch to a read clock.
			l.rvc = make(vc, len(c))
			l.rvc[l.r.g] = l.r.c
			l.rvc[g] = c[g]
		}
	} else {
		if l.w == me {
			return
		}
		if l.rvc != nil {
			for h, v := range l.rvc {
				if v > c[h] {
					race = true
				}
			}
			l.rvc = nil
		} else if l.r.g >= 0 && l.r.c > c[l.r.g] {
			race = true
		}
		l.r = epoch{-1, 0}
		l.w = me
	}
	if race {
		d.Races++
		if !l.raced {
			l.raced = true
			d.Locations++
		}
	}
}

// Ordered reports whether event i of tr happens before event j (i < j)
// under the rules above: whether a run of tr orders the two through
// recorded synchronization, as Go's memory model and -race would. Two
// conflicting accesses that are not ordered race even when no schedule
// can run them back to back (the later one's goroutine only saw the
// earlier one's effect through something that does not synchronize, such
// as len of a channel).
func Ordered(tr *trace.Trace, i, j int) bool {
	return OrderedPairs(tr, [][2]int{{i, j}})[0]
}

// OrderedPairs is Ordered for each pair, in one pass over tr.
func OrderedPairs(tr *trace.Trace, pairs [][2]int) []bool {
	out := make([]bool, len(pairs))
	at := map[int][]int{}  // event → pairs whose first event it is
	end := map[int][]int{} // event → pairs whose second event it is
	last := -1
	for k, p := range pairs {
		i, j := p[0], p[1]
		switch {
		case i < 0 || j >= len(tr.Events) || i >= j:
		case tr.Events[i].G == tr.Events[j].G:
			out[k] = true
		default:
			at[i] = append(at[i], k)
			end[j] = append(end[j], k)
			last = max(last, j)
		}
	}
	if last < 0 {
		return out
	}
	d := New(len(tr.Goroutines))
	epoch := make([]uint32, len(pairs))
	for k := 0; k <= last; k++ {
		e := tr.Events[k]
		for _, p := range end[k] {
			gi := tr.Events[pairs[p][0]].G
			c := d.c[e.G][gi]
			if pd := d.pend[e.G]; pd != nil && pd[gi] > c {
				c = pd[gi]
			}
			out[p] = c >= epoch[p]
		}
		if k == last {
			break
		}
		d.Step(e)
		for _, p := range at[k] {
			// An access leaves its goroutine's clock as it was; a release
			// advanced it past the event.
			epoch[p] = d.c[e.G][e.G]
			if e.Op != trace.Read && e.Op != trace.Write {
				epoch[p]--
			}
		}
	}
	return out
}
