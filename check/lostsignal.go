package check

import (
	"fmt"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// A lost signal's replay proves it by its waiter blocked in a Cond.Wait
// for good (rt's lostSignalVerdict). A waiter that loops on its Wait for
// ever, a consumer nothing stops, is blocked there at the end of every
// run, the recorded one included: the replay's hang proves a lost signal
// only if the waiter would otherwise have got past its Wait. So a replay
// whose test returned (Verdict.AfterEnd) is not credited when the
// recorded run ended with the waiter blocked in a Wait at the same site
// on the same Cond (trace.Trace.Blocked), and either
//   - a later signal woke the Wait of the schedule in the replay before
//     the waiter blocked again (Verdict.Rewaited): it was not lost for
//     good, and the replay ends as the recorded run did; or
//   - in the recorded run, the waiter did nothing after the Wait the
//     signal woke but read (its guard) and wait again, there, until the
//     test ended (idleAfter): the signal woke it for nothing, and losing
//     it changes nothing but those reads.
//
// kelindar/event's consumer.Listen goroutines, woken every 500 µs by their
// group's ticker and never stopped by the test. A waiter the replay
// leaves in the very Wait whose signal it needed (it took work after it
// in the recorded run), or a test that hangs, is still credited.

// restsAtEnd reports whether the waiter of the lost signal a (events: the
// signal, the Wait's entry) was blocked, when the recorded test of tr
// ended, in a Wait at its entry's site on the signal's Cond.
func restsAtEnd(tr *trace.Trace, a predict.Anomaly) bool {
	sig, entry, _, ok := lostSignalEvents(tr, a)
	if !ok {
		return false
	}
	for _, b := range tr.Blocked {
		if b.Op == trace.CondWait && b.G == entry.G && b.Site == entry.Site && b.Obj == sig.Obj {
			return true
		}
	}
	return false
}

// idleAfter reports whether the waiter of the lost signal a did nothing,
// in the recorded run tr, after the Wait the signal woke but read, and
// leave and take the Wait's lock there (its returns and re-entries): its
// guard sent it back to that Wait each time, where the end found it
// (restsAtEnd says that).
func idleAfter(tr *trace.Trace, a predict.Anomaly) bool {
	sig, entry, e, ok := lostSignalEvents(tr, a)
	if !ok {
		return false
	}
	cond := sig.Obj
	for _, x := range tr.Events[e+1:] {
		if x.G != entry.G {
			continue
		}
		switch {
		case x.Op == trace.CondWait && x.Obj == cond && x.Site == entry.Site:
		case (x.Op.IsAcquire() || x.Op.IsRelease()) && x.Obj == entry.Obj && x.Site == entry.Site:
		case x.Op.IsAccess() && !x.Op.Writes():
		case x.Op == trace.RegionBegin || x.Op == trace.RegionEnd:
		default:
			return false
		}
	}
	return true
}

// restingWaiter turns the verdict v of a lost signal's replay whose
// waiter is at rest as the recorded run left it (see above) into
// "diverged".
func restingWaiter(p prediction, v replay.Verdict) replay.Verdict {
	if pt := p.a.Pattern; pt == nil || !pt.Cond || !p.resting || v.Verdict != replay.Reproduced || len(v.Deadlocked) == 0 || !v.AfterEnd || !v.Rewaited && !p.idle {
		return v
	}
	why := "a later signal woke the Wait of the schedule"
	if !v.Rewaited {
		why = "in the recorded run the signal woke the waiter only to wait there again"
	}
	v.Verdict = replay.Diverged
	v.Message = fmt.Sprintf("%s; but %s, and the recorded run too ended with the waiter blocked in a Wait there on that Cond: not a lost signal, a waiter at rest after its test", v.Message, why)
	v.Deadlocked = nil
	return v
}

// lostSignalEvents returns the events of the lost signal a in tr: the
// signal, the Wait's entry and the entry's index; false when a is no
// lost signal of tr.
func lostSignalEvents(tr *trace.Trace, a predict.Anomaly) (sig, entry trace.Event, e int, ok bool) {
	if a.Pattern == nil || !a.Pattern.Cond || len(a.Events) != 2 {
		return sig, entry, 0, false
	}
	s, e := int(a.Events[0]), int(a.Events[1])
	if s < 0 || e < 0 || s >= len(tr.Events) || e >= len(tr.Events) {
		return sig, entry, 0, false
	}
	return tr.Events[s], tr.Events[e], e, true
}
