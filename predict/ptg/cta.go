package ptg

import "github.com/pecanvet/pecanvet/dynamic/trace"

// CheckThenAct marks, by event index, the atomic loads that start a
// check-then-act: the goroutine's next access of the same object is an
// atomic store or read-modify-write, inside the same unit of work (a
// region-begin/end unit or a critical section) with no boundary event
// (fork, join, channel operation, wg-wait, cond-wait) between them. Such a
// load takes no POR edge from the store it read: the pair is what an
// atomicity violation on the object interleaves (Load then Store of an
// atomic.Int64, sync.Map Load then Store of a key), and the schedule that
// moves the load before that store is worth a replay, which checks that
// the unit still acts as recorded (if the new value sends it another way,
// the replay diverges and nothing is reported). A load that no write of
// its own unit follows (a flag read, message passing) keeps its edge.
func CheckThenAct(tr *trace.Trace) []bool {
	mark := make([]bool, len(tr.Events))
	type gstate struct {
		depth, locks int
		pending      map[int32]int // object → latest load in the unit
	}
	gs := make([]gstate, len(tr.Goroutines))
	reset := func(s *gstate) {
		for k := range s.pending {
			delete(s.pending, k)
		}
	}
	for i, e := range tr.Events {
		if e.G < 0 || int(e.G) >= len(gs) {
			continue
		}
		s := &gs[e.G]
		if e.Op.EndsUnit() {
			reset(s)
			continue
		}
		switch e.Op {
		case trace.RegionBegin:
			s.depth++
		case trace.RegionEnd:
			if s.depth > 0 {
				s.depth--
			}
			if s.depth == 0 && s.locks == 0 {
				reset(s)
			}
		case trace.Lock, trace.RLock:
			s.locks++
		case trace.Unlock, trace.RUnlock:
			if s.locks > 0 {
				s.locks--
			}
			if s.depth == 0 && s.locks == 0 {
				reset(s)
			}
		case trace.AtomicLoad:
			if s.depth > 0 || s.locks > 0 {
				if s.pending == nil {
					s.pending = map[int32]int{}
				}
				s.pending[e.Obj] = i
			}
		case trace.AtomicStore, trace.AtomicRMW:
			if l, ok := s.pending[e.Obj]; ok {
				mark[l] = true
				delete(s.pending, e.Obj)
			}
		}
	}
	return mark
}

// ActingReadSites returns the sites of the check-then-act loads that cta
// (CheckThenAct's result) marks: the acting read sites, where a load's
// value decides whether its unit writes the object. Loads without a site
// are left out.
func ActingReadSites(tr *trace.Trace, cta []bool) map[int32]bool {
	sites := map[int32]bool{}
	for i, e := range tr.Events {
		if cta[i] && e.Site >= 0 {
			sites[e.Site] = true
		}
	}
	return sites
}

// ActingLoads marks, by event index, the atomic loads at acting read sites
// (ActingReadSites), whether or not their own unit acted in this run: the
// check of a goroutine that saw the key present and returned is the same
// check as the one that saw it absent and stored. Like a check-then-act
// load, such a load takes no POR edge from the store it read, so that a
// schedule may move it before that store (av/RRW: both checks see the old
// value); replay then shows whether its goroutine acts on what it read.
// cta is CheckThenAct's result; the marks include it.
func ActingLoads(tr *trace.Trace, cta []bool) []bool {
	sites := ActingReadSites(tr, cta)
	mark := make([]bool, len(tr.Events))
	for i, e := range tr.Events {
		mark[i] = cta[i] || e.Op == trace.AtomicLoad && e.Site >= 0 && sites[e.Site]
	}
	return mark
}
