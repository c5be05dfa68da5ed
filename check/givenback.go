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
	s, first, last, ok := patternSpan(f, evs)
	if !ok {
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
		evs[i].GivenBack = back && sum == 0 && releasedAll(s.Steps, e.G, first, last)
	}
}

// settled fills Event.Settled and Event.Since from the replayed schedule:
// for a read, Since is the step of its goroutine's first read of the
// same map element (the same object, and the same key in the replay's
// trace) from the pattern's first step up to it, the read itself when
// there is none before or the keys are not known; and Settled says the
// goroutine wrote the read's object at no step from Since to the
// pattern's last, every atomic read-modify-write it made there is an add
// of a constant (delta), those of each object summing to zero, and every
// lock it took there it released by the last step. The reader counted
// itself on what it found and took its count back, done with it, before
// the pattern ended: moby/locker's Lock that found the name's entry
// another Lock made (locker.go:78), counted itself, locked, took its
// count back, and in its Unlock looked the entry up again (:99) and
// unlocked it, all before that other Lock's Unlock deleted the entry
// (madeEntry). Other writes it made are left out: madeEntry's entry
// type is written only by such adds and its locks.
func settled(f *Finding, evs []depend.Event, delta func(site string) (int64, bool), rt *replayTrace) {
	s, first, last, ok := patternSpan(f, evs)
	if !ok {
		return
	}
	for i := range evs {
		at := s.Anomaly[i]
		if !evs[i].Read || evs[i].Write || at >= last {
			continue
		}
		e := s.Steps[at]
		since := at
		for st := first + 1; st < at; st++ {
			if c := s.Steps[st]; c.G == e.G && c.Obj == e.Obj && c.Op == trace.Read && sameKey(rt, s, st, at) {
				since = st
				break
			}
		}
		evs[i].Since = since
		ok := true
		sums := map[string]int64{}
		for st := since + 1; st <= last && ok; st++ {
			c := s.Steps[st]
			switch {
			case c.G != e.G:
			case c.Obj == e.Obj && writes(c.Op):
				ok = false
			case c.Op == trace.AtomicRMW:
				d, known := delta(c.Site)
				ok = known && d != 0
				sums[c.Obj] += d
			}
		}
		for _, n := range sums {
			ok = ok && n == 0
		}
		evs[i].Settled = ok && releasedAll(s.Steps, e.G, since+1, last)
	}
}

// sameKey reports whether schedule steps a and b, map reads, read one
// key in the replay's trace (rt): both carry a key, and it is one. The
// trace is read only when some read has such an earlier read.
func sameKey(rt *replayTrace, s *trace.Schedule, a, b int) bool {
	if rt == nil {
		return false
	}
	tr, pos := rt.get()
	if tr == nil || a >= len(pos) || b >= len(pos) || pos[a] < 0 || pos[b] < 0 {
		return false
	}
	ea, eb := tr.Events[pos[a]], tr.Events[pos[b]]
	return ea.Op.HasKey() && eb.Op.HasKey() && ea.Arg != 0 && ea.Arg == eb.Arg
}

// patternSpan returns f's schedule and its pattern's first and last
// steps, ok when the schedule holds one step per event and the pattern's
// steps.
func patternSpan(f *Finding, evs []depend.Event) (s *trace.Schedule, first, last int, ok bool) {
	s = f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return nil, 0, 0, false
	}
	first, last = slices.Min(s.Anomaly), slices.Max(s.Anomaly)
	return s, first, last, last < len(s.Steps)
}

// tracePos is the index in the replay's trace of the pattern's event k
// (pos maps schedule steps to trace events, replayTrace.get), or -1 when
// the trace does not reach it.
func tracePos(s *trace.Schedule, pos []int, k int) int {
	if st := s.Anomaly[k]; st < len(pos) {
		return pos[st]
	}
	return -1
}

// releasedAll reports whether goroutine g released, by step to, every
// lock it took from step from.
func releasedAll(steps []trace.Step, g string, from, to int) bool {
	held := map[string]int{}
	for st := from; st <= to; st++ {
		switch c := steps[st]; {
		case c.G != g:
		case c.Op == trace.Lock || c.Op == trace.RLock:
			held[c.Obj]++
		case c.Op == trace.Unlock || c.Op == trace.RUnlock:
			held[c.Obj]--
		}
	}
	for _, n := range held {
		if n > 0 {
			return false
		}
	}
	return true
}
