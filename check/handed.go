package check

import (
	"slices"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// handed fills Event.Handed from the replay's own trace, for the
// read-backs whose writes between, in the schedule, are all atomic adds
// of a constant (delta): those of a count of the waiters for a lock the
// unit holds (moby/locker's Unlock, which keeps the name's entry while
// another Lock of the name waits for it). The trace is read (through rt)
// only when some read-back is such.
func handed(f *Finding, evs []depend.Event, delta func(site string) (int64, bool), rt *replayTrace) {
	s, pairs, tr, pos := replayedReadBacks(f, evs, delta, rt)
	if tr == nil {
		return
	}
	for _, p := range pairs {
		i, j := p[0], p[1]
		if s.Anomaly[i] >= len(pos) || s.Anomaly[j] >= len(pos) {
			continue
		}
		if pa, pb := pos[s.Anomaly[i]], pos[s.Anomaly[j]]; pa >= 0 && pb > pa && handedOn(tr, pa, pb, delta) {
			evs[j].Handed = append(evs[j].Handed, i)
		}
	}
}

// addsBetween reports whether the schedule's writes of step a's object
// after a and before step b are all atomic adds of a constant, another
// goroutine's among them.
func addsBetween(steps []trace.Step, a, b int, delta func(string) (int64, bool)) bool {
	other := false
	for st := a + 1; st < b && st < len(steps); st++ {
		c := steps[st]
		if c.Obj != steps[a].Obj || !writes(c.Op) {
			continue
		}
		if _, ok := delta(c.Site); c.Op != trace.AtomicRMW || !ok {
			return false
		}
		other = other || c.G != steps[a].G
	}
	return other
}

// handedOn reports whether the read-back at event pb of the variable
// that its goroutine u wrote at event pa was handed on (depend's
// Event.Handed): the count u read back held the adds of goroutines
// waiting for a lock u held, u did nothing with it before it let that
// lock go, and the holders after it ran the same read until one read
// what u's own adds alone give. Every write of the variable from pa to
// that read must be an atomic add of a constant (delta). A goroutine
// that holds no lock at pb and whose adds between pa and pb, or up to
// pb, net to zero is left out (its take-backs between counted as gone
// from the count); with only such goroutines between, u read its own
// value on the count without them.
func handedOn(tr *trace.Trace, pa, pb int, delta func(string) (int64, bool)) bool {
	evs := tr.Events
	u, obj, site := evs[pb].G, evs[pb].Obj, evs[pb].Site
	add := func(e trace.Event) (int64, bool) {
		if e.Op != trace.AtomicRMW || e.Flags&trace.FlagAdd == 0 {
			return 0, false
		}
		return delta(tabName(tr.Sites, e.Site))
	}
	// The writes between: u's own sum, and each other goroutine's last
	// and sum.
	var own int64
	last := map[int32]int{}
	net := map[int32]int64{}
	for k := pa + 1; k < pb; k++ {
		e := evs[k]
		if e.Obj != obj || !writes(e.Op) {
			continue
		}
		d, ok := add(e)
		if !ok {
			return false
		}
		if e.G == u {
			own += d
		} else {
			last[e.G] = k
			net[e.G] += d
		}
	}
	if len(last) == 0 {
		return false
	}
	// A goroutine that holds no lock at b and whose adds between net to
	// zero, or whose adds up to b do, is left out. The first left the
	// count as it found it (moby's Lock..Unlock of the name, run whole
	// between, locking the name's lock before u did); the second is
	// done, its whole registration over by b (the holder u waited for,
	// which counted itself before a and took its count back between).
	// b's value is then what a serial order running them before u's
	// unit gives: u's own adds plus the take-backs between (gone: adds
	// before a, which a's value held). One still holding a lock at b is
	// inside what the count guards, and stays (waitgate's second user,
	// inside the gate when the first one's Leave reads the count after
	// its release).
	var gone int64
	for g := range last {
		if n, ok := netUpTo(evs, g, obj, pb, add); (net[g] == 0 || ok && n == 0) && holdsNone(evs, g, pb) {
			gone += net[g]
			delete(last, g)
		}
	}
	if len(last) == 0 {
		// Only done goroutines wrote between: b reads u's own value,
		// on the count without them.
		return true
	}
	// The locks u holds at b, and the release of each that comes before
	// anything of u's but reads, activations' ends and beginnings and
	// other releases.
	held := map[int32]int{}
	for k := 0; k < pb; k++ {
		if e := evs[k]; e.G == u {
			switch e.Op {
			case trace.Lock:
				held[e.Obj]++
			case trace.Unlock:
				held[e.Obj]--
			}
		}
	}
	rel := map[int32]int{}
	for k := pb + 1; k < len(evs); k++ {
		e := evs[k]
		if e.G != u {
			continue
		}
		if e.Op == trace.Unlock && held[e.Obj] > 0 {
			if _, ok := rel[e.Obj]; !ok {
				rel[e.Obj] = k
			}
		}
		if !quiet(e.Op) {
			break
		}
	}
	// Each other writer's next acquire is of one lock L of those, after
	// u's release of it, with no access of the variable before.
	l := int32(-1)
	for g, w := range last {
		acq := -1
		for k := w + 1; k < len(evs) && acq < 0; k++ {
			e := evs[k]
			switch {
			case e.G != g:
			case e.Obj == obj && e.Op.IsAccess():
				return false
			case e.Op == trace.Lock || e.Op == trace.RLock:
				acq = k
			}
		}
		if acq < 0 || evs[acq].Op != trace.Lock || l >= 0 && evs[acq].Obj != l {
			return false
		}
		l = evs[acq].Obj
		if r, ok := rel[l]; !ok || acq < r {
			return false
		}
	}
	frames := framesAt(evs, u, pb)
	// The holders of L after u's release, in turn: each reads the
	// variable at b's site in b's activations while it holds L; the
	// first that reads u's own value ends the hand-off, the others must
	// be quiet from that read to their release.
	sum, cur := int64(0), pa+1 // the adds in [pa+1, cur)
	upTo := func(r int) bool {
		for ; cur < r; cur++ {
			if e := evs[cur]; e.Obj == obj && writes(e.Op) {
				d, ok := add(e)
				if !ok {
					return false
				}
				sum += d
			}
		}
		return true
	}
	holders := map[int32]bool{}
	holder, read := int32(-1), -1
	for k := rel[l] + 1; k < len(evs); k++ {
		e := evs[k]
		switch {
		case holder < 0:
			if e.Op == trace.Lock && e.Obj == l {
				holder, read = e.G, -1
				holders[e.G] = true
			}
		case e.G != holder:
		case e.Op == trace.Unlock && e.Obj == l:
			if read < 0 {
				return false
			}
			holder = -1
		case read < 0:
			if e.Obj == obj && e.Site == site && (e.Op == trace.AtomicLoad || e.Op == trace.Read) && slices.Equal(framesAt(evs, holder, k), frames) {
				read = k
				if !upTo(k) {
					return false
				}
				if sum == own+gone {
					for g := range last {
						if !holders[g] {
							return false
						}
					}
					return true
				}
			}
		case !quiet(e.Op):
			return false
		}
	}
	return false
}

// netUpTo is the sum of goroutine g's adds of obj before event k;
// false when a write of it there is not an atomic add of a constant.
func netUpTo(evs []trace.Event, g, obj int32, k int, add func(trace.Event) (int64, bool)) (int64, bool) {
	var n int64
	for i := 0; i < k; i++ {
		if e := evs[i]; e.G == g && e.Obj == obj && writes(e.Op) {
			d, ok := add(e)
			if !ok {
				return 0, false
			}
			n += d
		}
	}
	return n, true
}

// holdsNone reports whether goroutine g holds no lock (read or write) at
// event k.
func holdsNone(evs []trace.Event, g int32, k int) bool {
	held := map[int32]int{}
	for i := 0; i < k; i++ {
		switch e := evs[i]; {
		case e.G != g:
		case e.Op == trace.Lock || e.Op == trace.RLock:
			held[e.Obj]++
		case e.Op == trace.Unlock || e.Op == trace.RUnlock:
			held[e.Obj]--
		}
	}
	for _, n := range held {
		if n > 0 {
			return false
		}
	}
	return true
}

// quiet says an operation after a read-back changes nothing another
// goroutine can see but locks' release.
func quiet(op trace.Op) bool {
	switch op {
	case trace.Read, trace.AtomicLoad, trace.RegionBegin, trace.RegionEnd, trace.Unlock, trace.RUnlock:
		return true
	}
	return false
}

// framesAt returns the sites of the activations (region-begin events)
// goroutine g has open at event k, outermost first.
func framesAt(evs []trace.Event, g int32, k int) []int32 {
	var open []int32
	skip := 0
	for i := k - 1; i >= 0; i-- {
		e := evs[i]
		if e.G != g {
			continue
		}
		switch e.Op {
		case trace.RegionEnd:
			skip++
		case trace.RegionBegin:
			if skip > 0 {
				skip--
			} else {
				open = append(open, e.Site)
			}
		}
	}
	slices.Reverse(open)
	return open
}

// replayTrace reads a finding's replay trace and maps its schedule's steps
// onto the trace's events once, at the first judge that needs them
// (retries, handed), so a finding both apply to reads the file once; what
// the judges take from it is kept (dependIndex.judged), so the file is
// not read again when the finding is judged after the queue.
type replayTrace struct {
	f    *Finding
	read bool
	tr   *trace.Trace
	pos  []int
}

// traceRead, when set (by tests), is called with the path of each replay
// trace a replayTrace reads.
var traceRead func(path string)

// get gives the trace and schedulePositions' positions, or nil when the
// trace cannot be read.
func (r *replayTrace) get() (*trace.Trace, []int) {
	if !r.read {
		r.read = true
		if traceRead != nil {
			traceRead(r.f.Verdict.Trace)
		}
		if tr, err := trace.ReadFile(r.f.Verdict.Trace, trace.ReadOptions{Lenient: true}); err == nil {
			r.tr, r.pos = tr, schedulePositions(tr, r.f.Schedule)
		}
	}
	return r.tr, r.pos
}

// replayedReadBacks returns f's schedule, its add read-back pairs
// (addReadBacks) and its replay's whole trace with each step's position
// in it; the trace is nil when f has no such pair or no whole trace.
func replayedReadBacks(f *Finding, evs []depend.Event, delta func(site string) (int64, bool), rt *replayTrace) (*trace.Schedule, [][2]int, *trace.Trace, []int) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) || f.Verdict.Trace == "" {
		return nil, nil, nil, nil
	}
	pairs := addReadBacks(s, evs, delta)
	if len(pairs) == 0 {
		return nil, nil, nil, nil
	}
	tr, pos := rt.get()
	if tr == nil || tr.Truncated != "" {
		return nil, nil, nil, nil
	}
	return s, pairs, tr, pos
}

// addReadBacks returns the pairs (i, j) of evs, i the unit's write of a
// variable and j its later read of it (a read-back), whose writes
// between, in schedule s, are all atomic adds of a constant (delta):
// the read-backs handed and witnesses read the replay's trace for.
func addReadBacks(s *trace.Schedule, evs []depend.Event, delta func(site string) (int64, bool)) [][2]int {
	var pairs [][2]int
	for j := range evs {
		if !evs[j].Read || evs[j].Write {
			continue
		}
		for i := 0; i < j; i++ {
			if evs[i].Write && evs[i].Var == evs[j].Var && evs[i].Unit == evs[j].Unit && evs[i].Thread == evs[j].Thread && addsBetween(s.Steps, s.Anomaly[i], s.Anomaly[j], delta) {
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	return pairs
}
