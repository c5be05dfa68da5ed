package record

import (
	"io"
	"os"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// traceInfo is what traceStats reads off a trace.
type traceInfo struct {
	events, goroutines int
	// active counts goroutines with events other than forks and joins
	// (the main goroutine, which only forks and joins a test's
	// goroutine, is not one).
	active int
	shared int // locations as SharedLocations counts them
	// unstarted counts goroutines forked in the trace whose first event
	// never came: the test ended (or the trace was cut) before they ran,
	// so whatever they race with is absent from the trace.
	unstarted int
	// runOnBefore and runOnAfter sum, over the run's go statements, the
	// operations the parent went on with (runsOn) between the fork and
	// its next pause, before its child began and after: how far children
	// first and parents first (rt's perturbations) would move the child,
	// for the perturbed run to take the order farther from this one.
	runOnBefore, runOnAfter int
	// bulkBeforeChild counts the runs of bulkRun accesses or more that
	// a goroutine made at one site, one after another, while a child it
	// forked had not begun (see Test.BulkBeforeChild).
	bulkBeforeChild int
	// earlyNotify counts the Conds signalled or broadcast by a goroutine
	// while a child it forked since its last pause had not begun, and
	// never waited on in the trace (see Test.EarlyNotify).
	earlyNotify int
	truncated   string
	// objects counts the object names the trace defines (for
	// predict.ReadPrefixSized), 0 if the decoder cannot say.
	objects int
}

// bulkRun is rt's maxRange: a copy of a value of more parts records that
// many, and past them only the parts other accesses made known.
const bulkRun = 256

// accessRun is a goroutine's latest run of accesses at one site.
type accessRun struct {
	site    int32
	op      trace.Op
	n       int
	counted bool
}

// runsOn reports whether a parent's event e is one it went on to without
// waiting for another goroutine: not a sleep, a receive, an unbuffered
// send, a wait, a join or its end (a pause), at which parents first lets
// its children begin anyway.
func runsOn(e trace.Event) bool {
	switch e.Op {
	case trace.Sleep, trace.Recv, trace.WGWait, trace.CondWait, trace.Join, trace.End:
		return false
	case trace.Send:
		return e.Arg != 0
	}
	return true
}

// forkCount is a parent's go statements since its last pause: how many
// of their children have begun and how many not, in its epoch (the
// pauses it made before).
type forkCount struct {
	epoch          int
	begun, waiting int
}

// forkAt names a child not begun yet: its parent and the parent's epoch
// at the fork.
type forkAt struct {
	parent int32
	epoch  int
}

// traceStats reads the trace at path one event at a time — a recorded
// trace can be larger than memory.
func traceStats(path string) (traceInfo, error) {
	var ti traceInfo
	f, err := os.Open(path)
	if err != nil {
		return ti, err
	}
	defer f.Close()
	// No object names are needed here: CountObjects keeps the decoder's
	// memory independent of how many objects (allocations) the test named.
	d, err := trace.NewDecoderOptions(f, path, trace.ReadOptions{Lenient: true, CountObjects: true})
	if err != nil {
		return ti, err
	}
	sh := newSharedCounter()
	var act []bool
	forked := map[int32]bool{}      // children forked with no event of theirs yet
	forks := map[int32]*forkCount{} // by parent
	parentOf := map[int32]forkAt{}  // children not begun
	runs := map[int32]*accessRun{}  // by goroutine
	// notified: the Conds notified while a child of the notifier's had
	// not begun; waited: the Conds some Wait returned from (CondWait is
	// recorded when Wait returns, so a waiter blocked at the notify comes
	// after it: only the whole trace says whether the Cond had one).
	notified, waited := map[int32]bool{}, map[int32]bool{}
	for {
		e, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return traceInfo{}, err
		}
		if e.Flags&trace.FlagBlocked != 0 {
			continue // no event of the run (trace.Trace.Blocked)
		}
		ti.events++
		sh.add(e)
		if fc := forks[e.G]; fc != nil && e.G >= 0 {
			if runsOn(e) {
				ti.runOnBefore += fc.waiting
				ti.runOnAfter += fc.begun
			} else {
				fc.epoch++
				fc.begun, fc.waiting = 0, 0
			}
		}
		if e.Op == trace.Read || e.Op == trace.Write {
			r := runs[e.G]
			if r == nil {
				r = &accessRun{}
				runs[e.G] = r
			}
			if r.n == 0 || r.site != e.Site || r.op != e.Op {
				*r = accessRun{site: e.Site, op: e.Op}
			}
			r.n++
			if fc := forks[e.G]; r.n >= bulkRun && !r.counted && fc != nil && fc.waiting > 0 {
				r.counted = true
				ti.bulkBeforeChild++
			}
		} else if r := runs[e.G]; r != nil {
			r.n = 0
		}
		if at, ok := parentOf[e.G]; ok {
			if fc := forks[at.parent]; fc.epoch == at.epoch {
				fc.waiting--
				fc.begun++
			}
			delete(parentOf, e.G)
		}
		if e.Op == trace.Fork && e.Obj >= 0 {
			forked[e.Obj] = true
			fc := forks[e.G]
			if fc == nil {
				fc = &forkCount{}
				forks[e.G] = fc
			}
			fc.waiting++
			parentOf[e.Obj] = forkAt{e.G, fc.epoch}
		}
		if e.G >= 0 {
			delete(forked, e.G)
		}
		switch e.Op {
		case trace.CondSignal, trace.CondBroadcast:
			// The notifier went on to it from go statements whose
			// children had not begun (no pause between): what a
			// children-first recording moves (rt.EnvPerturb).
			if fc := forks[e.G]; fc != nil && fc.waiting > 0 && e.Obj >= 0 {
				notified[e.Obj] = true
			}
		case trace.CondWait:
			waited[e.Obj] = true
		}
		if e.Op != trace.Fork && e.Op != trace.Join && e.G >= 0 {
			if int(e.G) >= len(act) {
				act = append(act, make([]bool, int(e.G)+1-len(act))...)
			}
			if !act[e.G] {
				act[e.G] = true
				ti.active++
			}
		}
	}
	ti.goroutines, ti.shared, ti.unstarted, ti.truncated = len(d.Tables().Goroutines), sh.count(), len(forked), d.Truncated()
	for c := range notified {
		if !waited[c] {
			ti.earlyNotify++
		}
	}
	if c, ok := d.(interface{ NumObjects() int }); ok {
		ti.objects = c.NumObjects()
	}
	return ti, nil
}

// sharedCounter is SharedLocations, one event at a time. It is indexed by
// object: a test that allocates in a loop has millions of objects (one per
// allocation), and a map of pointers cost over 50 bytes each where this
// costs 8.
type sharedCounter struct{ objs []sharedAcc }

type sharedAcc struct {
	g1     int32 // the first goroutine to access the object, plus one; 0: none yet
	multi  bool
	writes bool
}

func newSharedCounter() *sharedCounter { return &sharedCounter{} }

func (s *sharedCounter) add(e trace.Event) {
	if !e.Op.IsAccess() || e.Op.IsAtomic() || e.Obj < 0 {
		return
	}
	if int(e.Obj) >= len(s.objs) {
		s.objs = append(s.objs, make([]sharedAcc, int(e.Obj)+1-len(s.objs))...)
	}
	a := &s.objs[e.Obj]
	if a.g1 == 0 {
		a.g1 = e.G + 1
	} else if a.g1 != e.G+1 {
		a.multi = true
	}
	if e.Op.Writes() {
		a.writes = true
	}
}

func (s *sharedCounter) count() int {
	n := 0
	for _, a := range s.objs {
		if a.multi && a.writes {
			n++
		}
	}
	return n
}
