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

// closeFirsts predicts the sends on a closed channel of gr for the
// close-then-send race pattern among pats (race/close-send: a close, w,
// then a send, r, back to back), each with CloseFirst's schedule, and
// passes each to keep.
func closeFirsts(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, stop func() bool, st *Stats, keep func(Anomaly) bool) {
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
}
