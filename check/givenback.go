package check

import (
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// givenBack fills Event.GivenBack from the replayed schedule: for an
// atomic add of a constant (delta), its goroutine's writes of the object
// over the pattern's steps (the first to the last) are all such adds,
// summing to zero, and every lock the goroutine took there it released
// by the last. The goroutine counted itself and took its count back,
// done with what it counted on, before the pattern ended: moby/locker's
// Lock that found the name's entry, counted itself (:41), waited,
// locked, took its count back (:46) and unlocked before another
// Unlock deleted the entry; the event is either add.
func givenBack(f *Finding, evs []depend.Event, delta func(site string) (int64, bool)) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return
	}
	first, last := slices.Min(s.Anomaly), slices.Max(s.Anomaly)
	if last >= len(s.Steps) {
		return
	}
	for i := range evs {
		e := s.Steps[s.Anomaly[i]]
		d, ok := delta(e.Site)
		if e.Op != trace.AtomicRMW || !ok {
			continue
		}
		sum, back := int64(0), d != 0
		for st := first; st <= last && back; st++ {
			c := s.Steps[st]
			if c.G != e.G || c.Obj != e.Obj || !writes(c.Op) {
				continue
			}
			k, ok := delta(c.Site)
			back = ok && c.Op == trace.AtomicRMW
			sum += k
		}
		held := map[string]int{}
		for st := first; st <= last; st++ {
			switch c := s.Steps[st]; {
			case c.G != e.G:
			case c.Op == trace.Lock || c.Op == trace.RLock:
				held[c.Obj]++
			case c.Op == trace.Unlock || c.Op == trace.RUnlock:
				held[c.Obj]--
			}
		}
		for _, n := range held {
			back = back && n <= 0
		}
		evs[i].GivenBack = back && sum == 0
	}
}
