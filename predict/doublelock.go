package predict

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// DoubleLock is a double lock that a schedule can send a goroutine into
// (pattern deadlock/double-lock): Read is a read at a relock site (its
// value decides a branch that locks again a mutex its goroutine holds
// there), Write the first write of another goroutine to the same
// variable after it in the trace. The recorded run read the old value
// and did not take the branch; a schedule that runs Write first lets
// the reader see the new one.
type DoubleLock struct{ Write, Read int32 }

// Events returns the double lock's events in pattern order: the write,
// then the read.
func (d DoubleLock) Events() []int32 { return []int32{d.Write, d.Read} }

// DoubleLocks returns the double-lock candidates of gr's trace: each
// plain read at a site relock accepts, with the first write of another
// goroutine to its variable that follows it. Whether the write can come
// first is for the schedule generator to decide, and whether the reader
// then locks its own mutex again for the replay.
func DoubleLocks(gr *ptg.Graph, relock func(site string) bool) []DoubleLock {
	if relock == nil {
		return nil
	}
	tr := gr.Tr
	evs := tr.Events
	at := map[int32]bool{} // site → relock's answer
	var out []DoubleLock
	for i, ev := range evs {
		if ev.Op != trace.Read || ev.Site < 0 {
			continue
		}
		ok, seen := at[ev.Site]
		if !seen {
			ok = relock(tr.Site(ev))
			at[ev.Site] = ok
		}
		if !ok {
			continue
		}
		for j := i + 1; j < len(evs); j++ {
			if w := evs[j]; w.Op == trace.Write && w.Obj == ev.Obj && w.G != ev.G {
				out = append(out, DoubleLock{Write: int32(j), Read: int32(i)})
				break
			}
		}
	}
	return out
}

// doubleLocks predicts the double locks of gr for the relock pattern
// among pats, each with the schedule that runs the write before the read
// (feasible as the simulator finds, locks respected: the writer's whole
// critical section comes first), and passes each to keep.
func doubleLocks(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, relock func(string) bool, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	var p *pattern.Pattern
	for _, q := range pats {
		if q.Relock {
			p = q
			break
		}
	}
	if p == nil {
		return
	}
	tr := gr.Tr
	done := map[string]bool{}
	for _, d := range DoubleLocks(gr, relock) {
		if stop != nil && stop() {
			return
		}
		evs := d.Events()
		sites := []string{tr.Site(tr.Events[d.Write]), tr.Site(tr.Events[d.Read])}
		key := pattern.Key(p, sites)
		if done[key] {
			continue
		}
		st.Candidates++
		st.Schedules++
		sched, err := gen.Generate(evs, false)
		if err == nil {
			err = gen.Check(sched, evs, false)
		}
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
