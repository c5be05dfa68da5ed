package check

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// beforeUnits fills Event.Late, Event.Before and Event.Kept from the
// replayed schedule, for a violation of two units (the pattern's (T, AR)
// pairs): for each event of one unit that comes after the other unit's
// first event, the site of the last write of the event's object before
// the step that began that other unit (unitStart), "" when the schedule
// shows none, and whether no goroutine wrote the object from that step
// up to the event. depend's failedAsBefore asks them: a read that reads
// what it would before the other unit began, or fails its
// compare-and-swap on that value as it did in the replay, saw nothing of
// that unit.
func beforeUnits(f *Finding, evs []depend.Event) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return
	}
	type unit struct{ t, ar int }
	first := map[unit]int{} // a unit's first step among the pattern's
	for k := range evs {
		if s.Anomaly[k] < 0 || s.Anomaly[k] >= len(s.Steps) {
			return
		}
		u := unit{evs[k].Thread, evs[k].Unit}
		if st, ok := first[u]; !ok || s.Anomaly[k] < st {
			first[u] = s.Anomaly[k]
		}
	}
	if len(first) != 2 {
		return
	}
	for k := range evs {
		u := unit{evs[k].Thread, evs[k].Unit}
		for w, wf := range first {
			if w == u || s.Anomaly[k] < wf {
				continue
			}
			from := unitStart(s.Steps, wf)
			obj := s.Steps[s.Anomaly[k]].Obj
			if obj == "" {
				continue
			}
			evs[k].Late = true
			evs[k].Before, evs[k].Kept = "", true
			for st := from - 1; st >= 0; st-- {
				if b := s.Steps[st]; b.Obj == obj && writes(b.Op) {
					evs[k].Before = b.Site
					break
				}
			}
			for st := from; st < s.Anomaly[k]; st++ {
				if b := s.Steps[st]; b.Obj == obj && writes(b.Op) {
					evs[k].Kept = false
					break
				}
			}
		}
	}
}

// unitStart returns the step that began the unit of work holding step at,
// as predict's regions cut units: the region-begin or lock of its
// goroutine that opened the region or critical section it is in, or the
// goroutine's first step there after an operation that ends a unit
// (trace.Op.EndsUnit); at itself when it is in none.
func unitStart(steps []trace.Step, at int) int {
	g := steps[at].G
	depth, in, start := 0, false, -1
	for st := 0; st <= at; st++ {
		b := steps[st]
		if b.G != g {
			continue
		}
		switch b.Op {
		case trace.RegionBegin, trace.Lock, trace.RLock:
			depth++
		case trace.RegionEnd, trace.Unlock, trace.RUnlock:
			if depth > 0 {
				depth--
			}
		}
		closing := depth == 0 && in
		if depth > 0 && !in {
			in, start = true, -1
		}
		if !in {
			start = -1
			continue
		}
		if closing {
			in = false
		}
		if b.Op.EndsUnit() {
			start = -1
			continue
		}
		if start < 0 {
			start = st
		}
		if closing && st < at {
			start = -1 // the closing step is its region's last
		}
	}
	if start < 0 {
		return at
	}
	return start
}
