package predict

import (
	"cmp"
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// OrderSwap is an order violation between two critical sections of one
// lock that a trace predicts: Later is the Lock of a section of one
// goroutine, Earlier the Lock of a section of another goroutine that ran
// before it in the recorded run. The two conflict (one writes a variable
// the other reads or writes, or closes a channel the other sends on or
// closes), and happens-before orders Earlier before Later only through
// the lock: another schedule holds Earlier's goroutine at its Lock and
// runs Later's whole section first (grpc-go#2371: Close nils the
// balancer that the service config's handler, held, then dereferences).
type OrderSwap struct{ Later, Earlier int32 }

// Bounds on the order-violation candidates of one trace: each is a
// replay, and most prove nothing (the other serial order is usually as
// good as the recorded one). Per lock, the first maxOrderPerLock site
// pairs; per trace, maxOrderPerTrace. Two sections entered at one Lock
// site are not a pair: swapped, they run the same code in the same order.
//
// The finder's own cost is bounded too, on traces of a million events
// and a lock taken in a loop: it looks back over at most maxOrderBack
// earlier sections of the lock for each section, and keeps at most
// maxOrderSections sections, goroutine by goroutine.
const (
	maxOrderPerLock  = 4
	maxOrderPerTrace = 16
	maxOrderBack     = 64
	maxOrderSections = 1 << 16
)

// section is one write-mode critical section: its Lock, and what it
// accessed (object → whether it wrote it), nested sections included.
type section struct {
	g, lock, acq int32
	acc          map[int32]bool
}

// OrderSwaps returns the order-violation candidates of gr's trace, at
// most maxOrderPerLock per lock and maxOrderPerTrace in all, one per
// unordered pair of Lock sites (the pair's other order is the same two
// sections swapped back). For each section, the latest section of each
// other goroutine on the same lock before it that conflicts with it;
// kept when its Lock does not happen before the later one's (then the
// later goroutine's path to its section needs nothing the earlier one did
// at or after its own). Whether the schedule is feasible is for the
// schedule generator to decide.
func OrderSwaps(gr *ptg.Graph) []OrderSwap {
	evs := gr.Tr.Events
	var secs []*section
	for g := int32(0); g < int32(gr.NG); g++ {
		var open []*section
		for _, e := range gr.G(g) {
			ev := evs[e]
			switch {
			case ev.Op == trace.Lock:
				if len(secs) == maxOrderSections {
					continue // (its accesses still count for the open ones)
				}
				s := &section{g: g, lock: ev.Obj, acq: e, acc: map[int32]bool{}}
				open = append(open, s)
				secs = append(secs, s)
				continue
			case ev.Op == trace.Unlock:
				for i := len(open) - 1; i >= 0; i-- {
					if open[i].lock == ev.Obj {
						open = append(open[:i], open[i+1:]...)
						break
					}
				}
				continue
			}
			var w bool
			switch {
			case ev.Op.Writes() || ev.Op == trace.Close:
				w = true
			case ev.Op.Reads() || ev.Op == trace.Send:
			default:
				continue
			}
			for _, s := range open {
				s.acc[ev.Obj] = s.acc[ev.Obj] || w
			}
		}
	}
	if len(secs) < 2 {
		return nil
	}
	// Trace order: a lock's sections by their Lock, and the locks by
	// their first section, so that the same trace gives the same
	// candidates.
	slices.SortFunc(secs, func(a, b *section) int { return cmp.Compare(a.acq, b.acq) })
	byLock := map[int32][]*section{}
	var locks []int32
	for _, s := range secs {
		if byLock[s.lock] == nil {
			locks = append(locks, s.lock)
		}
		byLock[s.lock] = append(byLock[s.lock], s)
	}
	conflict := func(a, b *section) bool {
		if len(a.acc) > len(b.acc) {
			a, b = b, a
		}
		for o, wa := range a.acc {
			if wb, ok := b.acc[o]; ok && (wa || wb) {
				return true
			}
		}
		return false
	}
	type pair struct{ a, b int32 }
	seen := map[pair]bool{}
	perLock := map[int32]int{}
	var out []OrderSwap
	for _, l := range locks {
		ss := byLock[l]
		for j, s2 := range ss {
			if perLock[l] == maxOrderPerLock {
				break
			}
			done := map[int32]bool{} // goroutines whose latest earlier section was looked at
			for i := j - 1; i >= 0 && i >= j-maxOrderBack && perLock[l] < maxOrderPerLock; i-- {
				s1 := ss[i]
				if s1.g == s2.g || done[s1.g] || !conflict(s1, s2) {
					continue
				}
				done[s1.g] = true
				if gr.POR(s1.acq, s2.acq) {
					continue
				}
				a, b := evs[s1.acq].Site, evs[s2.acq].Site
				if a == b {
					// One Lock site in both: the same code in either
					// order (a pool's workers), the goroutines renamed.
					continue
				}
				if a > b {
					a, b = b, a
				}
				if seen[pair{a, b}] {
					continue
				}
				seen[pair{a, b}] = true
				perLock[l]++
				out = append(out, OrderSwap{Later: s2.acq, Earlier: s1.acq})
				if len(out) == maxOrderPerTrace {
					return out
				}
			}
		}
	}
	return out
}

// orderSwaps predicts the order violations of gr for the order pattern
// among pats, each with the schedule that runs the later section's Lock
// (and so its whole section: the earlier goroutine waits at its Lock of
// the same lock) first, and passes each to keep.
func orderSwaps(gr *ptg.Graph, gen *schedule.Generator, pats []*pattern.Pattern, stop func() bool, st *Stats, keep func(Anomaly) bool) {
	var p *pattern.Pattern
	for _, q := range pats {
		if q.Order {
			p = q
			break
		}
	}
	if p == nil {
		return
	}
	t := newTries(gr, stop, st, keep, 1)
	for _, c := range OrderSwaps(gr) {
		evs := []int32{c.Later, c.Earlier}
		generate := func() (schedule.Schedule, error) {
			sched, err := gen.Generate(evs, false)
			if err == nil {
				err = gen.Check(sched, evs, false)
			}
			return sched, err
		}
		if !t.try(p, evs, generate) {
			return
		}
	}
}
