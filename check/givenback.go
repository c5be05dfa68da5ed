package check

import (
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// givenBack fills Event.GivenBack from the replayed schedule: for an
// atomic add of a constant (delta), its goroutine's writes of the object
// from it to the pattern's last step are all such adds, summing to zero
// with it, and every lock the goroutine took from the pattern's first
// step it released by the last. The goroutine counted itself and took
// its count back, done with what it counted on, before the pattern
// ended: moby/locker's Lock that found the name's entry, waited, locked
// and unlocked before another Unlock deleted the entry.
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
		sum, back := d, true
		for st := s.Anomaly[i] + 1; st <= last && back; st++ {
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
