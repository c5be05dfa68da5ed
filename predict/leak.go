package predict

import (
	"slices"
	"sort"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// Leak is a goroutine leak a trace predicts: Sel is a channel operation
// a select performed (its select has another branch, Options.SelectAlt),
// Stranded its partner in another goroutine. A schedule that has the
// select take its other branch leaves Stranded blocked forever.
type Leak struct{ Sel, Stranded int32 }

// Events returns the leak's events in the order of the leak pattern.
func (l Leak) Events() []int32 { return []int32{l.Sel, l.Stranded} }

// Leaks returns the leaks of gr's trace: an unbuffered channel with
// exactly one send and one receive, by two goroutines, never closed,
// where one of the two is a case of a select with another branch
// (alt(site)). Only then is the partner surely stranded: a third
// operation on the channel, or a close, could still complete it, and a
// buffered channel takes the send without a receiver. Whether the state
// before both operations is reachable is for
// schedule.Generator.Leak to decide.
//
// A select whose other branch comes back to it (loopAlt(site): a timer
// case in a loop) strands nothing by itself, its next round takes the
// partner, unless that round never comes: the partner's goroutine holds
// a lock at its operation that the select's goroutine takes too (in
// write mode, on either side) somewhere in the trace, as in the other
// branch (moby#28462: StateChanged sends on the monitor's stop channel
// holding the container's lock, which the monitor's probe branch takes).
// Such a pair is a candidate too; the replay proves that the select's
// goroutine then blocks on the lock.
func Leaks(gr *ptg.Graph, alt, loopAlt func(site string) bool) []Leak {
	if alt == nil {
		return nil
	}
	tr := gr.Tr
	type chanPair struct {
		send, recv []int32
		other      bool // a close, a buffer, a receive from a closed channel
	}
	chans := map[int32]*chanPair{}
	for e, ev := range tr.Events {
		if !ev.Op.IsChan() {
			continue
		}
		c := chans[ev.Obj]
		if c == nil {
			c = &chanPair{}
			chans[ev.Obj] = c
		}
		switch {
		case ev.Op == trace.Close || ev.Arg != 0 || ev.Flags&trace.FlagClosed != 0:
			c.other = true
		case ev.Op == trace.Send:
			c.send = append(c.send, int32(e))
		default:
			c.recv = append(c.recv, int32(e))
		}
	}
	var out []Leak
	for _, c := range chans {
		if c.other || len(c.send) != 1 || len(c.recv) != 1 {
			continue
		}
		s, r := c.send[0], c.recv[0]
		if tr.Events[s].G == tr.Events[r].G {
			continue
		}
		for _, p := range [][2]int32{{r, s}, {s, r}} {
			site := tr.Site(tr.Events[p[0]])
			if alt(site) || loopAlt != nil && loopAlt(site) && holdsTaken(tr, p[1], tr.Events[p[0]].G) {
				out = append(out, Leak{Sel: p[0], Stranded: p[1]})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Sel != out[j].Sel {
			return out[i].Sel < out[j].Sel
		}
		return out[i].Stranded < out[j].Stranded
	})
	return out
}

// leakPaced reports whether the partner of leak l can be late for its
// select's timeout in a real execution, not only when a schedule holds
// it at its operation while the program's clock runs out the timer (the
// replay of a leak does exactly that: it stops the partner before its
// operation and lets the select go first). Either:
//
//   - the select's goroutine started the partner's goroutine in the
//     select's own activation (the fork and the select have the same
//     innermost region): the go-with-timeout idiom, whose timeout is
//     there to bound that goroutine's work since its start, which any
//     slow input stretches past it (selectleak's Fetch, pond's and
//     kubernetes#5316's stop with a deadline);
//   - a sleep, or a receive from a timer's or ticker's channel
//     (timerChans: <-time.After(d), <-t.C), happens before the partner's
//     operation and not before the select's goroutine's last event ahead
//     of the select, so after the timer was armed: the partner waits on
//     time of its own, directly or through what it waits for (pond's
//     workers' tasks; subject timerrelay's source).
//
// A partner that lived before (a forwarding loop started elsewhere) and
// waits on nothing timed is late only by being held: watermill's
// decorator goroutine, whose message was ready, held at its send while
// the reader's 1 s time.After fired (session 16's false leak).
func leakPaced(gr *ptg.Graph, l Leak) bool {
	evs := gr.Tr.Events
	g1, g2 := evs[l.Sel].G, evs[l.Stranded].G
	k := gr.Local[l.Sel] // row[k] is the select's event
	row := gr.G(g1)
	inner := func(e int32) int32 {
		if a := gr.Activations(e); len(a) > 0 {
			return a[len(a)-1]
		}
		return -1
	}
	for _, e := range row[:k] {
		if evs[e].Op == trace.Fork && evs[e].Obj == g2 && inner(e) == inner(l.Sel) {
			return true
		}
	}
	prev := int32(-1)
	if k >= 1 {
		prev = row[k-1]
	}
	timers := timerChans(gr.Tr)
	for e := range evs {
		s := int32(e)
		waits := evs[e].Op == trace.Sleep || evs[e].Op == trace.Recv && timers[evs[e].Obj]
		if waits && gr.POR(s, l.Stranded) && (prev < 0 || s != prev && !gr.POR(s, prev)) {
			return true
		}
	}
	return false
}

// timerChans returns the channels of tr that only the runtime sends on:
// those of element type time.Time received from only as a channel of
// that type (the recorder names a channel by its type: "<-chan_time.Time"
// for time.After's, a Timer's or a Ticker's C), with no send or close in
// the trace. A receive from one waits for a timer to fire.
func timerChans(tr *trace.Trace) map[int32]bool {
	out := map[int32]bool{}
	written := map[int32]bool{}
	for _, ev := range tr.Events {
		switch {
		case ev.Op == trace.Send || ev.Op == trace.Close:
			written[ev.Obj] = true
		case ev.Op == trace.Recv && !out[ev.Obj]:
			if trace.Desc(tr.ObjName(ev)) == "<-chan_time.Time" {
				out[ev.Obj] = true
			}
		}
	}
	for c := range written {
		delete(out, c)
	}
	return out
}

// holdsTaken reports whether event e's goroutine holds, at e, a lock that
// goroutine g acquires somewhere in tr, one of the two in write mode.
func holdsTaken(tr *trace.Trace, e int32, g int32) bool {
	held := map[int32]trace.Op{} // lock → the mode e's goroutine holds it in
	ge := tr.Events[e].G
	for i := int32(0); i < e; i++ {
		ev := tr.Events[i]
		if ev.G != ge {
			continue
		}
		switch {
		case ev.Op.IsAcquire():
			held[ev.Obj] = ev.Op
		case ev.Op.IsRelease():
			delete(held, ev.Obj)
		}
	}
	if len(held) == 0 {
		return false
	}
	for _, ev := range tr.Events {
		if mode, ok := held[ev.Obj]; ok && ev.G == g && ev.Op.IsAcquire() && (mode == trace.Lock || ev.Op == trace.Lock) {
			return true
		}
	}
	return false
}

// StopLeak is a goroutine leak through a stop channel: Sel, a case of
// a select, and Stranded, its partner in another goroutine, were matched
// in the recorded run; the select also has a case receiving from a
// channel that Stop, a third goroutine's operation, stopped in that run:
// its close, or its send that the select's goroutine received. A
// schedule that runs Stop before the select has it take that case and
// leaves Stranded blocked forever.
type StopLeak struct{ Stop, Sel, Stranded int32 }

// Events returns the leak's events in the order of the leak pattern: the
// stop is the schedule's, not the report's.
func (l StopLeak) Events() []int32 { return []int32{l.Sel, l.Stranded} }

// StopLeaks returns the stop-channel leaks of gr's trace. On an
// unbuffered channel the k-th send and the k-th receive are matched (as
// ptg matches them); the pair is a leak's select case and stranded
// partner when
//   - the case's select has a stop case (stop(site, "")) and the
//     partner's operation is no case of such a select (it would leave
//     through its own stop case: the usual fix);
//   - every other operation that could complete the partner (one of the
//     case's direction, or a close of the channel) is the select's
//     goroutine's, or a close by the partner's goroutine after the
//     partner (blocked there, it never gets to it: a worker that sends
//     its result and then closes the channel): a loop that receives a
//     result per round and returns on stop takes no more once it has
//     returned;
//   - the select's goroutine received from another channel where
//     stop(site, that site) says one of the select's stop cases receives
//     from the same channel, and that receive was stopped by a goroutine
//     other than the two: it saw the channel closed by it, or (unbuffered)
//     it took its send. A send stops a loop as a close does (etcd#6857's
//     n.stop, moby#33781's stop): the schedule runs it first, and the
//     select then finds its stop case ready.
//
// Whether a schedule can run the stop before the select and stop the
// three goroutines before their operations is for
// schedule.Generator.StopLeak to decide; whether the select's goroutine
// then goes away and the partner stays blocked, for the replay.
func StopLeaks(gr *ptg.Graph, stop func(sel, stop string) bool) []StopLeak {
	var out []StopLeak
	for _, set := range StopLeakSets(gr, stop) {
		for _, st := range set.Stops {
			out = append(out, StopLeak{Stop: st, Sel: set.Sel, Stranded: set.Stranded})
		}
	}
	return out
}

// StopLeakSet is the stop-channel leaks of one select case and partner:
// one per stop in Stops, in order.
type StopLeakSet struct {
	Sel, Stranded int32
	Stops         []int32 // shared between sets: read only
}

// StopLeakSets returns StopLeaks' leaks grouped by select case and
// partner, sorted by Sel then Stranded: StopLeaks flattened. A finder
// whose report key is the case's and partner's sites skips a set whole
// once its key is settled.
func StopLeakSets(gr *ptg.Graph, stop func(sel, stop string) bool) []StopLeakSet {
	if stop == nil {
		return nil
	}
	tr := gr.Tr
	chans, order, stopRecvs := chanIndex(tr)
	// match: an unbuffered channel's k-th receive's matched send, looked
	// up once per receive: scanning the channel's receives per pair and
	// stop receive was cubic (eapache/channels' resizable channel, 1,000
	// values through a select loop: 7 s of CPU).
	match := map[int32]int32{}
	for _, c := range chans {
		for k, r := range c.recv {
			if k < len(c.send) {
				match[r] = c.send[k]
			}
		}
	}
	// stoppers returns the operations that stopped the receive e on
	// channel x, of goroutines other than g1 and g2: the closes of x
	// when e saw it closed, else the matched send of an unbuffered x.
	stoppers := func(e int32, x *chanOps, g1, g2 int32) []int32 {
		var out []int32
		other := func(o int32) bool { g := tr.Events[o].G; return g != g1 && g != g2 }
		if tr.Events[e].Flags&trace.FlagClosed != 0 {
			for _, cl := range x.close {
				if other(cl) {
					out = append(out, cl)
				}
			}
			return out
		}
		if x.buffered {
			return nil
		}
		if s, ok := match[e]; ok && other(s) {
			out = append(out, s)
		}
		return out
	}
	// completes reports whether o, an operation on the pair's channel
	// other than sel, could complete the partner str: it is not sel's
	// goroutine's, nor a close by str's goroutine after str.
	completes := func(o, sel, str int32) bool {
		g := tr.Events[o].G
		if g == tr.Events[sel].G {
			return false
		}
		return !(g == tr.Events[str].G && tr.Events[o].Op == trace.Close && o > str)
	}
	// oneG is the goroutine of every operation in ops, or -1 when there
	// are two: an operation of the select's side by another goroutine
	// could complete the partner, so a side of two goroutines strands
	// nobody. Asked once per side, not once per pair: a channel of a
	// million sends (golang-set's Iter) made the scan quadratic.
	oneG := func(ops []int32) int32 {
		g := tr.Events[ops[0]].G
		for _, o := range ops[1:] {
			if tr.Events[o].G != g {
				return -1
			}
		}
		return g
	}
	// stopsOf: the stops of a (select goroutine, partner goroutine,
	// select site, channel) combination, sorted. Every round of a select
	// loop has the same ones, so they are gathered once per combination,
	// not once per round: a loop of 1,000 rounds stopped through a
	// channel of 1,000 sends took a million scans and as many leaks.
	type combo struct {
		gs, gp, obj int32
		site        string
	}
	stopsOf := map[combo][]int32{}
	var out []StopLeakSet
	for _, obj := range order {
		c := chans[obj]
		if c.buffered || len(c.send) == 0 || len(c.recv) == 0 {
			continue
		}
		sendG, recvG := oneG(c.send), oneG(c.recv)
		for k := 0; k < min(len(c.send), len(c.recv)); k++ {
			s, r := c.send[k], c.recv[k]
			if tr.Events[s].G == tr.Events[r].G {
				continue
			}
			// The select receives and strands the sender, then the
			// select sends and strands the receiver.
			for _, p := range [][2]int32{{r, s}, {s, r}} {
				sel, str := p[0], p[1]
				sideG := recvG
				if sel == s {
					sideG = sendG
				}
				ok := sideG == tr.Events[sel].G
				for _, o := range c.close {
					if ok && completes(o, sel, str) {
						ok = false
					}
				}
				gs, gp := tr.Events[sel].G, tr.Events[str].G
				selSite := tr.Site(tr.Events[sel])
				if !ok || !stop(selSite, "") || stop(tr.Site(tr.Events[str]), "") {
					continue
				}
				key := combo{gs, gp, obj, selSite}
				stops, done := stopsOf[key]
				if !done {
					seen := map[int32]bool{} // a close that several receives saw
					for _, e := range stopRecvs[gs] {
						x := tr.Events[e].Obj
						if x == obj || chans[x] == nil || !stop(selSite, tr.Site(tr.Events[e])) {
							continue
						}
						for _, st := range stoppers(e, chans[x], gs, gp) {
							if !seen[st] {
								seen[st] = true
								stops = append(stops, st)
							}
						}
					}
					slices.Sort(stops)
					stopsOf[key] = stops
				}
				if len(stops) > 0 {
					out = append(out, StopLeakSet{Sel: sel, Stranded: str, Stops: stops})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Sel != b.Sel {
			return a.Sel < b.Sel
		}
		return a.Stranded < b.Stranded
	})
	return out
}

// leaks predicts the leaks of gr for the leak pattern among pats, each
// with the schedule that stops both goroutines before their operations
// and ends with them (and, for a stop-channel leak, first with the
// stop), and passes each to keep (Options.Confirm).
func leaks(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, alt, loopAlt func(string) bool, stopCase func(sel, stop string) bool, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	var p *pattern.Pattern
	for _, q := range pats {
		if q.Leak && !q.Stolen && !q.Observed {
			p = q
			break
		}
	}
	if p == nil {
		return
	}
	unpaced := false // of the candidate being tried
	t := newTries(gr, stop, st, func(a Anomaly) bool {
		a.Unpaced = unpaced
		return keep(a)
	}, 0)
	for _, l := range Leaks(gr, alt, loopAlt) {
		// A loop's timer branch (loopAlt) strands the partner by the lock
		// it then waits on, at whatever phase of the partner the timer
		// fires: no long hold is needed.
		unpaced = alt(gr.Tr.Site(gr.Tr.Events[l.Sel])) && !leakPaced(gr, l)
		if !t.try(p, l.Events(), func() (schedule.Schedule, error) { return gen.Leak(l.Sel, l.Stranded) }) {
			return
		}
	}
	unpaced = false
	for _, set := range StopLeakSets(gr, stopCase) {
		l := StopLeak{Sel: set.Sel, Stranded: set.Stranded}
		if t.settled(p, l.Events()) {
			continue
		}
		for _, stop := range set.Stops {
			if !t.try(p, l.Events(), func() (schedule.Schedule, error) { return gen.StopLeak(stop, set.Sel, set.Stranded) }) {
				return
			}
		}
	}
}

// chanOps are one channel's operations in a trace: its sends and its
// receives that took a send or a buffered value (in order, so the k-th
// receive of an unbuffered channel took its k-th send), its closes, and
// whether it is buffered. Operations on a closed channel are in none.
type chanOps struct {
	send, recv, close []int32
	buffered          bool
}

// chanIndex gathers tr's channels' operations (chans, order: the
// channels in the order of their first operation) and, per goroutine,
// its receives that saw a channel closed or took a value (stopRecvs:
// what may have stopped a select's goroutine, StopLeakSets).
func chanIndex(tr *trace.Trace) (chans map[int32]*chanOps, order []int32, stopRecvs map[int32][]int32) {
	chans, stopRecvs = map[int32]*chanOps{}, map[int32][]int32{}
	for e, ev := range tr.Events {
		if !ev.Op.IsChan() {
			continue
		}
		c := chans[ev.Obj]
		if c == nil {
			c = &chanOps{}
			chans[ev.Obj] = c
			order = append(order, ev.Obj)
		}
		switch {
		case ev.Arg != 0:
			c.buffered = true
		case ev.Op == trace.Close:
			c.close = append(c.close, int32(e))
		case ev.Flags&trace.FlagClosed != 0:
			// A receive that saw the channel closed, or a send that
			// panicked on it: neither takes nor completes a partner.
			if ev.Op == trace.Recv {
				stopRecvs[ev.G] = append(stopRecvs[ev.G], int32(e))
			}
		case ev.Op == trace.Send:
			c.send = append(c.send, int32(e))
		default:
			c.recv = append(c.recv, int32(e))
			stopRecvs[ev.G] = append(stopRecvs[ev.G], int32(e))
		}
	}
	return chans, order, stopRecvs
}
