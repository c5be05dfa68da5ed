package check

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// checkedCalls fills Event.Checked and Event.Steady from the replayed
// schedule (depend's checkedAlike): for a plain write, the call made
// directly from its own activation that last read its object before it;
// for a plain read, whether its own activation read only one write of
// its object.
func checkedCalls(f *Finding, evs []depend.Event) {
	s := f.Schedule
	if s == nil || len(s.Anomaly) != len(evs) {
		return
	}
	for i := range evs {
		at := s.Anomaly[i]
		if at >= len(s.Steps) || s.Steps[at].Obj == "" {
			continue
		}
		switch s.Steps[at].Op {
		case trace.Write:
			if evs[i].Write && !evs[i].Read {
				evs[i].Checked, evs[i].Unchecked = checkedBy(s.Steps, at)
			}
		case trace.Read:
			if evs[i].Read && !evs[i].Write {
				evs[i].Steady, evs[i].Open = steadyRead(s.Steps, at)
			}
		}
	}
}

// checkedBy walks back from the write at step w over its goroutine's
// steps in its own activation, which must begin in the schedule: the
// regions entered directly from it (one level down) that read w's
// object after the last write of the object by any goroutine before w,
// each with its reads there, nearest first; and the callees (region
// sites) of the regions entered directly from it before that write.
func checkedBy(steps []trace.Step, w int) (fresh []depend.Checked, stale []string) {
	e := steps[w]
	var reads []string
	depth, written := 0, false
	for st := w - 1; st >= 0; st-- {
		c := steps[st]
		if c.Obj == e.Obj && writes(c.Op) {
			written = true
			continue
		}
		if c.G != e.G {
			continue
		}
		switch c.Op {
		case trace.RegionEnd:
			depth++
			if depth == 1 {
				reads = nil
			}
		case trace.RegionBegin:
			if depth == 0 {
				// w's activation began here.
				return fresh, stale
			}
			depth--
			if depth > 0 {
				continue
			}
			switch {
			case written:
				stale = append(stale, c.Site)
			case len(reads) > 0:
				fresh = append(fresh, depend.Checked{Call: c.Site, Reads: reads})
			}
		case trace.Read, trace.AtomicLoad:
			if c.Obj == e.Obj && depth == 1 && !written {
				reads = append(reads, c.Site)
			}
		}
	}
	return nil, nil
}

// steadyRead reports whether the read at step r and every other read of
// its object by its goroutine's innermost activation that the schedule
// shows (from its region's start, none in a region below) read one
// write: no goroutine wrote the object between the first of them and
// the last. open is the site of the last of them when the schedule ends
// before the activation does (depend's checkedAlike then asks that no
// read of the object can follow it in the function).
func steadyRead(steps []trace.Step, r int) (ok bool, open string) {
	// Back to the activation's start, which the schedule must show: a
	// write, then an earlier read of the activation's, means two values.
	if ok, ended, _ := oneWrite(steps, r, -1); !ok || !ended {
		return false, ""
	}
	ok, ended, last := oneWrite(steps, r, +1)
	if !ok || ended {
		return ok, ""
	}
	return true, last
}

// oneWrite walks from the read at step r, by dir (-1 back, +1 on), over
// its goroutine's innermost activation: ok is false when a read of r's
// object there is in a region below, or has a write of the object (by
// any goroutine) between it and r; ended says the walk reached the
// activation's edge rather than the schedule's, and last is the site of
// the farthest read of the object it passed (r's own when none).
func oneWrite(steps []trace.Step, r, dir int) (ok, ended bool, last string) {
	e := steps[r]
	enter, leave := trace.RegionBegin, trace.RegionEnd
	if dir < 0 {
		enter, leave = leave, enter
	}
	wrote, depth, last := false, 0, e.Site
	for st := r + dir; st >= 0 && st < len(steps); st += dir {
		c := steps[st]
		switch {
		case c.Obj == e.Obj && writes(c.Op):
			wrote = true
		case c.G != e.G:
		case c.Op == enter:
			depth++
		case c.Op == leave:
			if depth == 0 {
				return true, true, last
			}
			depth--
		case c.Obj == e.Obj && (c.Op == trace.Read || c.Op == trace.AtomicLoad):
			if depth > 0 || wrote {
				return false, false, ""
			}
			last = c.Site
		}
	}
	return true, false, last
}
