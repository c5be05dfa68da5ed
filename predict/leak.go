package predict

import (
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
func Leaks(gr *ptg.Graph, alt func(site string) bool) []Leak {
	if alt == nil {
		return nil
	}
	tr := gr.Tr
	type chanOps struct {
		send, recv []int32
		other      bool // a close, a buffer, a receive from a closed channel
	}
	chans := map[int32]*chanOps{}
	for e, ev := range tr.Events {
		if !ev.Op.IsChan() {
			continue
		}
		c := chans[ev.Obj]
		if c == nil {
			c = &chanOps{}
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
		if alt(tr.Site(tr.Events[r])) {
			out = append(out, Leak{Sel: r, Stranded: s})
		}
		if alt(tr.Site(tr.Events[s])) {
			out = append(out, Leak{Sel: s, Stranded: r})
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

// leaks predicts the leaks of gr for the leak pattern among pats, each
// with the schedule that stops both goroutines before their operations
// and ends with them, and passes each to keep (Options.Confirm).
func leaks(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, alt func(string) bool, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	var p *pattern.Pattern
	for _, q := range pats {
		if q.Leak && !q.Stolen {
			p = q
			break
		}
	}
	if p == nil {
		return
	}
	tr := gr.Tr
	done := map[string]bool{}
	for _, l := range Leaks(gr, alt) {
		if stop != nil && stop() {
			return
		}
		evs := l.Events()
		sites := []string{tr.Site(tr.Events[l.Sel]), tr.Site(tr.Events[l.Stranded])}
		key := pattern.Key(p, sites)
		if done[key] {
			continue
		}
		st.Candidates++
		st.Schedules++
		sched, err := gen.Leak(l.Sel, l.Stranded)
		if err != nil {
			st.Infeasible++
			continue
		}
		a := Anomaly{Pattern: p, Events: evs, Sites: sites, Key: key, Schedule: sched, Unsound: unsound(gr, sched)}
		if keep(a) {
			done[key] = true
		}
	}
}
