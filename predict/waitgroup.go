package predict

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// EarlyWait is a WaitGroup.Wait that a schedule can run before the Add it
// waited for (pattern sync/wg-add-after-wait): Entry is the Wait's entry
// (the write of the WaitGroup that the race detector's model records when
// a Wait blocks), Wait its wg-wait event (recorded when it returned), Add
// the wg-add of another goroutine that raised the counter from 0 before
// the Wait blocked on it. Run before Add, the Wait finds the counter at 0
// and returns at once.
type EarlyWait struct{ Entry, Wait, Add int32 }

// Events returns the early Wait's events in pattern order: the Wait, the
// Add.
func (w EarlyWait) Events() []int32 { return []int32{w.Wait, w.Add} }

// wgModelRead reports whether event e is the read of a WaitGroup that
// the recorder adds after an Add from 0 (rt.WGAdd): a read right after a
// wg-add of its goroutine at the same site.
func wgModelRead(gr *ptg.Graph, e int32) bool {
	evs := gr.Tr.Events
	ev := evs[e]
	if ev.Op != trace.Read || gr.Local[e] == 0 {
		return false
	}
	p := evs[gr.G(ev.G)[gr.Local[e]-1]]
	return p.Op == trace.WGAdd && p.Site == ev.Site
}

// wgModelWrite returns the wg-wait of the Wait whose entry event e is
// (the write rt.WGWait records before a Wait that blocks, right before
// the wg-wait at the same site), or -1.
func wgModelWrite(gr *ptg.Graph, e int32) int32 {
	evs := gr.Tr.Events
	ev := evs[e]
	if ev.Op != trace.Write {
		return -1
	}
	gs := gr.G(ev.G)
	l := int(gr.Local[e])
	if l+1 >= len(gs) {
		return -1
	}
	if n := evs[gs[l+1]]; n.Op == trace.WGWait && n.Site == ev.Site {
		return gs[l+1]
	}
	return -1
}

// EarlyWaits returns the early Waits of gr's trace: for each Wait that
// blocked, the latest Add from 0 of its WaitGroup before it, when another
// goroutine made it. Whether the Wait's entry can come first is for
// schedule.Generator.EarlyWait to decide (an Add before the go statement
// of the waiter, or before a send the waiter receives, orders it), and
// whether the Wait then returns at once for the replay.
func EarlyWaits(gr *ptg.Graph) []EarlyWait {
	evs := gr.Tr.Events
	lastAdd := map[int32]int32{} // the WaitGroup's memory object → its latest wg-add from 0
	var out []EarlyWait
	for i := range evs {
		e := int32(i)
		if wgModelRead(gr, e) {
			lastAdd[evs[e].Obj] = gr.G(evs[e].G)[gr.Local[e]-1]
			continue
		}
		if w := wgModelWrite(gr, e); w >= 0 {
			if a, ok := lastAdd[evs[e].Obj]; ok && evs[a].G != evs[e].G {
				out = append(out, EarlyWait{Entry: e, Wait: w, Add: a})
			}
		}
	}
	return out
}

// ObservedEarlyWaits returns the early Waits the recorded run itself
// shows: a Wait that did not block (no model write before it: its
// counter was at 0), then, later in the trace, an Add from 0 of the same
// WaitGroup by another goroutine, the first such Add after it (Entry
// is -1). wgwrongadd's FetchAll sleeps 10 ms for its fetch goroutine to
// Add; on a loaded machine the recording ran the Wait first, no Wait
// blocked, and EarlyWaits, which starts from a blocking Wait, found
// nothing (TestSubjects missed fetch.go:27 in 2 of 4 runs under load).
// Whether nothing orders the Add after the Wait's return (a later round
// of a reused WaitGroup) is for schedule.Generator.ObservedEarlyWait.
func ObservedEarlyWaits(gr *ptg.Graph) []EarlyWait {
	evs := gr.Tr.Events
	open := map[int32][]int32{} // the WaitGroup (wg-wait's object) → its non-blocking Waits not yet paired
	var out []EarlyWait
	for i := range evs {
		e := int32(i)
		ev := evs[e]
		switch {
		case ev.Op == trace.WGWait && gr.Local[e] > 0:
			prev := gr.G(ev.G)[gr.Local[e]-1]
			if wgModelWrite(gr, prev) != e {
				open[ev.Obj] = append(open[ev.Obj], e)
			}
		case wgModelRead(gr, e):
			a := gr.G(ev.G)[gr.Local[e]-1]
			ws := open[evs[a].Obj]
			kept := ws[:0]
			for _, w := range ws {
				if evs[w].G == evs[a].G {
					kept = append(kept, w)
					continue
				}
				out = append(out, EarlyWait{Entry: -1, Wait: w, Add: a})
			}
			open[evs[a].Obj] = kept
		}
	}
	return out
}

// wgModelOnly reports whether a candidate is the early Wait that the wg
// pattern reports as such: every event is an event of the WaitGroup
// model (an Add from 0's read, a blocking Wait's write), and every Add
// came before every Wait in the trace. The other order, a Wait that
// blocked before a later round's Add from 0 (TestRaceWaitGroupReuse:
// the waiter of one round can fall behind the next round's Add), is not
// an early Wait, and stays a race as -race reports it.
func wgModelOnly(gr *ptg.Graph, events []int32) bool {
	lastAdd, firstWait := int32(-1), int32(len(gr.Tr.Events))
	for _, e := range events {
		switch {
		case wgModelRead(gr, e):
			lastAdd = max(lastAdd, e)
		case wgModelWrite(gr, e) >= 0:
			firstWait = min(firstWait, e)
		default:
			return false
		}
	}
	return len(events) > 0 && lastAdd < firstWait
}

// maxEarlyWaitTries bounds the instances of one site combination of
// early Waits tried, as the access search bounds a combination's
// (search.Options.MaxTries: 8). A WaitGroup per element, reused through
// a pool (xsync's UMPSCQueue: a queue's values each Wait and Add on their
// own, a segment's 4096 of them reused), gave a million-event trace tens
// of thousands of instances of one combination, each schedule holding
// the reader back over most of the trace.
const maxEarlyWaitTries = 8

// earlyWaits predicts the early Waits of gr for the wg pattern among
// pats, each with the schedule that stops the waiter before its Wait and
// the adder before its Add, then runs the Wait and the Add, and passes
// each to keep (Options.Confirm).
func earlyWaits(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	p := wgPattern(pats)
	if p == nil {
		return
	}
	t := newTries(gr, stop, st, keep, maxEarlyWaitTries)
	for _, w := range EarlyWaits(gr) {
		if !t.try(p, w.Events(), func() (schedule.Schedule, error) { return gen.EarlyWait(w.Entry, w.Wait, w.Add) }) {
			return
		}
	}
	for _, w := range ObservedEarlyWaits(gr) {
		if !t.try(p, w.Events(), func() (schedule.Schedule, error) { return gen.ObservedEarlyWait(w.Wait, w.Add) }) {
			return
		}
	}
}

// wgPattern returns the first wg pattern of pats, or nil.
func wgPattern(pats []*pattern.Pattern) *pattern.Pattern {
	for _, q := range pats {
		if q.WG {
			return q
		}
	}
	return nil
}
