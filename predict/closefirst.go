package predict

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// CloseFirst is a send on a closed channel a trace predicts: Send
// happens before Close in the recorded run only through the channel's
// own matches (its value was received, and the closer waited for a
// receive of its own), which another schedule changes: held at Send,
// its goroutine lets the others' sends go first, and Close comes before
// Send, which then panics.
type CloseFirst struct{ Close, Send int32 }

// CloseFirsts returns the candidates of gr's trace: a send and a later
// close of its channel by another goroutine that happens-before orders
// (an unordered pair is the access search's, pattern race/close-send).
// Whether the close can come first is for schedule.Generator.CloseFirst
// to decide.
func CloseFirsts(gr *ptg.Graph) []CloseFirst {
	evs := gr.Tr.Events
	closes := map[int32]int32{}
	for i, e := range evs {
		if e.Op == trace.Close {
			if _, ok := closes[e.Obj]; !ok {
				closes[e.Obj] = int32(i)
			}
		}
	}
	if len(closes) == 0 {
		return nil
	}
	var out []CloseFirst
	for i, e := range evs {
		c, ok := closes[e.Obj]
		if !ok || e.Op != trace.Send || e.Flags&trace.FlagClosed != 0 || int32(i) > c || e.G == evs[c].G {
			continue
		}
		if gr.POR(int32(i), c) {
			out = append(out, CloseFirst{Close: c, Send: int32(i)})
		}
	}
	return out
}

// StopCloseFirst is a send on a closed channel through a select's stop
// case (knative/serving#5865): Sel, a case of a select loop, received
// Send in the recorded run; the loop later left through Late, a stop
// case of the same select that saw the channel closed by Stop, a third
// goroutine's close; and on its way out the loop's goroutine closed
// Send's channel (Close: the receiver closes its input as the sign that
// it has finished). Another schedule runs Stop before the select while
// Send's goroutine is held before its send: the select takes the stop
// case, its goroutine closes the channel, and Send panics. The recorded
// run ordered Send before Close through Sel, the match that schedule
// undoes, which is why CloseFirsts (whose receives keep their recorded
// branch) does not find it.
type StopCloseFirst struct{ Stop, Sel, Late, Close, Send int32 }

// StopCloseFirsts returns the candidates of gr's trace: a stop-channel
// leak (StopLeakSets, with stop as Options.StopCase) whose stranded
// partner is a send, whose stop is a close, and whose select's goroutine
// later receives from the stopped channel at a stop case of the same
// select (Late) and then closes the send's channel, with no other
// operation on it in between. Whether the schedule is feasible is for
// schedule.Generator.StopCloseFirst to decide.
func StopCloseFirsts(gr *ptg.Graph, stop func(sel, stop string) bool) []StopCloseFirst {
	tr := gr.Tr
	evs := tr.Events
	var out []StopCloseFirst
	for _, set := range StopLeakSets(gr, stop) {
		if evs[set.Stranded].Op != trace.Send {
			continue
		}
		row := gr.G(evs[set.Sel].G)
		selSite := tr.Site(evs[set.Sel])
		ch := evs[set.Stranded].Obj
		for _, s := range set.Stops {
			if evs[s].Op != trace.Close {
				continue
			}
			late, cl := int32(-1), int32(-1)
			for _, e := range row[gr.Local[set.Sel]+1:] {
				ev := evs[e]
				if late < 0 {
					if ev.Op == trace.Recv && ev.Flags&trace.FlagClosed != 0 && ev.Obj == evs[s].Obj && stop(selSite, tr.Site(ev)) {
						late = e
					}
					continue
				}
				if ev.Obj == ch && ev.Op.IsChan() {
					if ev.Op == trace.Close {
						cl = e
					}
					break
				}
			}
			if late >= 0 && cl >= 0 {
				out = append(out, StopCloseFirst{Stop: s, Sel: set.Sel, Late: late, Close: cl, Send: set.Stranded})
			}
		}
	}
	return out
}

// closeFirsts predicts the sends on a closed channel of gr for the
// close-then-send race pattern among pats (race/close-send: a close, w,
// then a send, r, back to back), each with CloseFirst's schedule, and
// passes each to keep.
func closeFirsts(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, stopCase func(sel, stop string) bool, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	var p *pattern.Pattern
	for _, q := range pats {
		if q.Chan && q.Adjacent && q.Len() == 2 && q.T[0] != q.T[1] && q.AT[0] == pattern.W && q.AT[1] == pattern.R {
			p = q
			break
		}
	}
	if p == nil {
		return
	}
	// One try per site pair: the simulation is linear in the trace.
	t := newTries(gr, stop, st, keep, 1)
	for _, c := range CloseFirsts(gr) {
		if !t.try(p, []int32{c.Close, c.Send}, func() (schedule.Schedule, error) { return gen.CloseFirst(c.Send, c.Close) }) {
			return
		}
	}
	// Through a select's stop case: tried apart, since a site pair whose
	// CloseFirst instance was infeasible is at t's bound, and each
	// candidate is one of few (a stop-channel leak's stops).
	ts := newTries(gr, stop, st, keep, 0)
	for _, c := range StopCloseFirsts(gr, stopCase) {
		evs := []int32{c.Close, c.Send}
		if t.doneWith(p, evs) {
			continue
		}
		if !ts.try(p, evs, func() (schedule.Schedule, error) { return gen.StopCloseFirst(c.Stop, c.Sel, c.Late, c.Close, c.Send) }) {
			return
		}
	}
}
