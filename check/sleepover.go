package check

import (
	"slices"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/predict/schedule"
	"github.com/pecanvet/pecanvet/replay"
)

// A test that sleeps to let another goroutine get somewhere (sturdyc's
// `time.Sleep(10 ms)` before checking what a background refresh left in
// the cache; go-cron's 50 ms sleep before moving its fake clock, assuming
// the run loop has armed its timer by then) orders the two by time only.
// A replay that holds the other goroutine at a gate lets the sleep end on
// the virtual clock first (dynamic/rt/vclock.go): the test then runs its
// next step ahead of work the recorded run did during the sleep, and may
// fail by that alone, whether or not the anomaly's events interleave.
//
// sleepWindow is one sleep, at a site in a _test.go file, of goroutine
// X, in the recorded trace: next is X's first step after it, and late
// holds, for each other goroutine, its last step recorded before next:
// the work the test had seen done, or assumed done, by the time it woke
// (sturdyc's refresh had deleted the records before the test began its
// sleep; go-cron's loop armed its timer during it). A schedule that puts
// such a step after next held that goroutine across the whole sleep.
//
// A receive at a _test.go site from a timer's channel that no recorded
// goroutine sends on (`<-time.After(d)`, ttlcache's TestCache_TestTouch)
// is such a sleep too (wait): it is recorded when it completes, so it is
// its own next step.
type sleepWindow struct {
	next stepKey
	late []stepKey
	wait bool
}

// stepKey names a schedule step as trace.Step does, without its object.
type stepKey struct {
	g    string
	op   trace.Op
	site string
	n    int
}

func keyOf(st trace.Step) stepKey { return stepKey{st.G, st.Op, st.Site, st.N} }

// maxSleepKeys bounds the steps testSleeps keeps for one trace (a test
// that polls with short sleeps has a window per poll, each naming every
// goroutine): fewer windows only make overrunsSleep say no more often.
const maxSleepKeys = 1 << 16

// testSleeps returns tr's test sleeps (sleepWindow), in trace order.
func testSleeps(tr *trace.Trace) []sleepWindow {
	if tr == nil {
		return nil
	}
	timers := timerWaits(tr)
	if len(timers) == 0 && !slices.ContainsFunc(tr.Events, func(ev trace.Event) bool { return ev.Op == trace.Sleep && testSite(tr.Site(ev)) }) {
		return nil // the common case: no pass over the trace's occurrences
	}
	occ := map[uint64]int{}
	n := make([]int, len(tr.Events))
	for i := range tr.Events {
		ev := &tr.Events[i]
		k := uint64(uint32(ev.G))<<40 ^ uint64(ev.Op)<<32 ^ uint64(uint32(ev.Site))
		occ[k]++
		n[i] = occ[k]
	}
	key := func(i int) stepKey {
		ev := tr.Events[i]
		return stepKey{tr.Goroutines[ev.G], ev.Op, tr.Site(ev), n[i]}
	}
	var out []sleepWindow
	keys := 0
	last := map[int32]int{}    // goroutine → its last event so far
	asleep := map[int32]bool{} // goroutines whose last event is a test sleep
	for i, ev := range tr.Events {
		wait := ev.Op == trace.Recv && timers[ev.Obj] && testSite(tr.Site(ev))
		if asleep[ev.G] || wait {
			w := sleepWindow{next: key(i), wait: wait && !asleep[ev.G]}
			delete(asleep, ev.G)
			for g, e := range last {
				if g != ev.G {
					w.late = append(w.late, key(e))
				}
			}
			if len(w.late) > 0 && keys+len(w.late) <= maxSleepKeys {
				keys += len(w.late)
				out = append(out, w)
			}
		}
		last[ev.G] = i
		if ev.Op == trace.Sleep && testSite(tr.Site(ev)) {
			asleep[ev.G] = true
		}
	}
	return out
}

// timerWaits returns the channels of tr that a test may wait on as on a
// timer: of type <-chan time.Time (time.After, time.Tick, a Timer's C),
// with no send recorded (the time package fills them).
func timerWaits(tr *trace.Trace) map[int32]bool {
	var out map[int32]bool
	for _, ev := range tr.Events {
		if ev.Op == trace.Recv && ev.Obj >= 0 && strings.HasPrefix(tr.ObjName(ev), "<-chan_time.Time") && testSite(tr.Site(ev)) {
			if out == nil {
				out = map[int32]bool{}
			}
			out[ev.Obj] = true
		}
	}
	if out == nil {
		return nil
	}
	for _, ev := range tr.Events {
		if ev.Op == trace.Send {
			delete(out, ev.Obj)
		}
	}
	return out
}

// testSite reports whether site ("x_test.go:12:3") is in a test file.
func testSite(site string) bool {
	file, _, ok := strings.Cut(site, ":")
	return ok && strings.HasSuffix(file, "_test.go")
}

// overrunsSleep reports whether schedule s runs some test sleep's next
// step (sleepWindow) ahead of work another goroutine did during that
// sleep in the recorded run, both goroutines among gs (the anomaly's):
// the other goroutine's late step comes after next in s, or not at all
// (a goroutine with no step left waits until the schedule ends). Each
// goroutine's steps keep their order in a schedule, so its last step of
// the window decides.
func overrunsSleep(s *trace.Schedule, ws []sleepWindow, gs map[string]bool) bool {
	if s == nil || len(ws) == 0 {
		return false
	}
	pos := make(map[stepKey]int, len(s.Steps))
	for i, st := range s.Steps {
		pos[keyOf(st)] = i
	}
	for _, w := range ws {
		at, ok := pos[w.next]
		if !ok || !gs[w.next.g] {
			continue
		}
		for _, l := range w.late {
			if !gs[l.g] {
				continue
			}
			if j, ok := pos[l]; !ok || j > at {
				return true
			}
		}
	}
	return false
}

// straddles reports, from the schedules alone (straddlesRun reads the
// control's replay instead, and falls back on this), whether, at control
// c's first anomaly step (the local unit's first event), another
// goroutine is inside a call (its outermost region open there) that
// touches one of the anomaly's objects both before that step and after
// it: a unit of its
// own that the local unit splits, so that c, serial for the local unit,
// still interleaves that one. account's "after" order left Transfer's
// write of bob's balance after Deposit, its read before: the lost update
// again, "bob = 130" as in the schedule. Not only the anomaly's
// goroutines: gauge's serial orders put the Reset inside the long call,
// which the anomaly (the short call's) does not name, and failed at the
// same check with -1 where the schedule had -2. Such a control says
// nothing of timing. The objects and each goroutine's steps are s's
// (c's anomaly line may keep only the local events, and its after order
// leaves the remote steps out); each goroutine's steps in c are the first
// of its steps in s, in order, so a count splits them. A region still open
// at s's end counts as touching the objects after.
//
// A blocking point (trace.Op.EndsUnit: a channel operation, a sleep, a
// wait) inside an open call ends that goroutine's unit there, as it ends
// every unit predict builds: a long-running loop such as Run's
// `for { select { … } }` is many units, not one. Accesses on the two
// sides of one are no unit the control can split: the order that runs
// the part before it ahead of the local unit and the part after it
// behind is a serial order of units. antlabs/timer's minHeap.Run swapped
// heap nodes in one process() call, received from its timer, and popped
// one in the next, after Test_Reset's Stops (min_heap.go:80, issue 26):
// counted as one call open across the Stops, it left the after order
// that failed as the schedule did ("count:0 != 2", the callbacks not run
// within the test's 3 ms sleep) without a say.
func straddles(c, s *trace.Schedule) bool { return straddlesBy(c, s, true) }

// straddlesCall is straddles with each call taken whole, blocking points
// and all: controlled asks it of a serial order that fails at the
// schedule's checks with other values. Such an order does not show the
// schedule's outcome to be a serial one; that the failure follows the
// lateness alone "whatever it prints" holds only where no call ran
// split around the unit. gauge's long call sleeps between its Add(1)
// and Add(-1) (two units): its serial orders put the Reset between them
// and fail with running = -1, where the schedule, which splits the short
// call's unit, fails with -2, a count that no order of whole units
// gives. Cut at the sleep (straddles), that order passed for the
// schedule's timing and the report was lost whenever the after order's
// free run let the Reset in before the long call's Add(-1) (session 53:
// 3 of 5 runs).
func straddlesCall(c, s *trace.Schedule) bool { return straddlesBy(c, s, false) }

// straddlesBy is straddles, with a blocking point ending an open call's
// unit when units is set (straddles) and not otherwise (straddlesCall).
func straddlesBy(c, s *trace.Schedule, units bool) bool {
	if c == nil || s == nil || len(c.Anomaly) == 0 {
		return true
	}
	first := c.Anomaly[0] // event 0 is the local unit's (serialControls); remote ones may come before it
	if first < 0 || first >= len(c.Steps) {
		return true
	}
	local := c.Steps[first].G
	objs := map[string]bool{}
	for _, i := range s.Anomaly {
		if i >= 0 && i < len(s.Steps) {
			objs[s.Steps[i].Obj] = true
		}
	}
	before := map[string]int{}
	for _, st := range c.Steps[:first] {
		before[st.G]++
	}
	seq := map[string][]trace.Step{}
	for _, st := range s.Steps {
		if st.G != local {
			seq[st.G] = append(seq[st.G], st)
		}
	}
	for g, steps := range seq {
		k := min(before[g], len(steps))
		depth, touched := 0, false
		for _, st := range steps[:k] {
			switch st.Op {
			case trace.RegionBegin:
				depth++
			case trace.RegionEnd:
				depth = max(0, depth-1)
				if depth == 0 {
					touched = false
				}
			default:
				if units && st.Op.EndsUnit() {
					touched = false // the unit so far ended here
					continue
				}
				touched = touched || depth > 0 && objs[st.Obj]
			}
		}
		if depth == 0 || !touched {
			continue
		}
		closed := false
		for _, st := range steps[k:] {
			if st.Op == trace.RegionBegin {
				depth++
			} else if st.Op == trace.RegionEnd {
				if depth--; depth == 0 {
					closed = true
					break
				}
			} else if units && st.Op.EndsUnit() {
				closed = true // its unit ends at the blocking point
				break
			} else if objs[st.Obj] {
				return true
			}
		}
		if !closed {
			return true
		}
	}
	return false
}

// straddlesRun is straddles judged on what control c's replay ran (its
// trace at path) rather than on the steps c and s schedule: those end
// with the schedule, and the rest of an open call then runs free, not as
// recorded (getteract's second Retire recorded no Add; moved, its check
// makes it Add). A goroutine whose outermost call, open at the unit's
// first event, accessed one of the anomaly's objects before it (the
// call's head), splits the unit's serial order unless the replay shows
// one of these:
//
//   - the call's tail, from the unit's first event to the call's end,
//     touches none of the objects: the call did its part on them before
//     the unit (go-cron's "before" order: Advance moved the fake clock and
//     fired its due timers under its lock; past the schedule's end it only
//     returned);
//   - the head conflicts with none of the unit goroutine's accesses to
//     the objects from the unit's first event until the call ends (no
//     write on one side of an object the other accessed), nor does what
//     the call did by the unit's last event with the unit's: both then
//     commute past the unit, and the run is the call whole after the
//     unit (sturdyc's "after" order: the refresh had only looked records
//     up before the test counted them, and deleted two after; that
//     order fails with other values than the schedule, though, and
//     controlled judges such an order on the schedules).
//
// Neither holds when the unit's own call is split before the unit: an
// access of another goroutine, inside that call, conflicts with one the
// call made earlier (linkedlist's before order, below).
//
// The second needs no end: a call still open where the trace ends
// (sturdyc's refresh, when the test returned first) began, as far as
// the run shows, after the unit. The first does: its tail is unknown
// there, and may be the rest of what the unit saw half done (a transfer
// that debited before the unit and credits after). A trace that cannot
// be read, or a unit whose events the trace does not show, leave
// straddles's judgment of the schedules. As there, a blocking point
// inside the call ends its unit: the head starts after the last one
// before the unit's first event, and the tail ends at the first one
// after it.
func straddlesRun(path string, c, s *trace.Schedule) bool {
	if path == "" || c == nil || s == nil || len(c.Anomaly) == 0 {
		return straddles(c, s)
	}
	tr, err := trace.ReadFile(path, trace.ReadOptions{Lenient: true})
	if err != nil {
		return straddles(c, s)
	}
	first := c.Anomaly[0]
	if first < 0 || first >= len(c.Steps) {
		return true
	}
	pos := schedulePositions(tr, c)
	lo := pos[first]
	if lo < 0 {
		return straddles(c, s)
	}
	local := c.Steps[first].G
	hi := lo // the unit's last event in the trace
	for _, i := range c.Anomaly {
		if i < 0 || i >= len(c.Steps) || c.Steps[i].G != local {
			continue
		}
		if pos[i] < 0 {
			return straddles(c, s)
		}
		hi = max(hi, pos[i])
	}
	objs := map[string]bool{}
	for _, i := range s.Anomaly {
		if i >= 0 && i < len(s.Steps) {
			objs[s.Steps[i].Obj] = true
		}
	}
	// access records how a goroutine's events touch the objects: a
	// read, or anything else (a write, or a synchronization on one).
	type access struct{ read, wrote map[string]bool }
	newAccess := func() access { return access{map[string]bool{}, map[string]bool{}} }
	note := func(a *access, e trace.Event) bool {
		o := eventObj(tr, e)
		if !objs[o] {
			return false
		}
		if e.Op == trace.Read || e.Op == trace.AtomicLoad {
			a.read[o] = true
		} else {
			a.wrote[o] = true
		}
		return true
	}
	conflict := func(a, b access) bool {
		for o := range a.wrote {
			if b.read[o] || b.wrote[o] {
				return true
			}
		}
		for o := range a.read {
			if b.wrote[o] {
				return true
			}
		}
		return false
	}
	type open struct {
		depth int
		head  access
	}
	// step follows a goroutine's open call through e: a call opened at
	// depth 0 starts its head afresh (began), and so does a blocking
	// point inside one, which ends its unit (see straddles); an access
	// inside one joins the head.
	step := func(o *open, e trace.Event) (began bool) {
		switch e.Op {
		case trace.RegionBegin:
			if o.depth == 0 {
				o.head, began = newAccess(), true
			}
			o.depth++
		case trace.RegionEnd:
			o.depth = max(0, o.depth-1)
		default:
			if o.depth > 0 && e.Op.EndsUnit() {
				o.head, began = newAccess(), true
			} else if o.depth > 0 {
				note(&o.head, e)
			}
		}
		return began
	}
	calls := map[int32]*open{}
	// The unit's own call, open at its first event, is split too when
	// another goroutine's access falls inside it, after an access of the
	// call's that it conflicts with: linkedlist's "before" order for the
	// asv on tail and size ran the other AddLast whole between this
	// AddLast's read of tail and the unit (its write of tail), the lost
	// update again.
	own := open{head: newAccess()}
	split := false
	for _, e := range tr.Events[:lo] {
		if tabName(tr.Goroutines, e.G) == local {
			if step(&own, e) {
				split = false
			}
			continue
		}
		if own.depth > 0 && !split {
			one := newAccess()
			split = note(&one, e) && conflict(one, own.head)
		}
		o := calls[e.G]
		if o == nil {
			o = &open{}
			calls[e.G] = o
		}
		step(o, e)
	}
	if own.depth > 0 && split {
		return true
	}
	for g, o := range calls {
		if o.depth == 0 || len(o.head.read)+len(o.head.wrote) == 0 {
			continue
		}
		// unit: the unit goroutine's accesses from the unit's first
		// event to its last, and on while the call is open; inside: the
		// call's own accesses by the unit's last event, which must
		// commute with the unit's too to move after it.
		unit, inside := newAccess(), newAccess()
		depth, tail, closed := o.depth, false, false
		for k := lo; k < len(tr.Events); k++ {
			e := tr.Events[k]
			if e.G != g {
				if (k <= hi || !closed) && tabName(tr.Goroutines, e.G) == local {
					note(&unit, e)
				}
				if closed && k >= hi {
					break
				}
				continue
			}
			if closed {
				continue
			}
			switch e.Op {
			case trace.RegionBegin:
				depth++
			case trace.RegionEnd:
				depth--
			default:
				if e.Op.EndsUnit() {
					depth = 0 // the call's unit ends at the blocking point
					break
				}
				if k <= hi {
					note(&inside, e)
				}
				scratch := newAccess()
				tail = note(&scratch, e) || tail
			}
			closed = depth == 0
		}
		if tail && (conflict(o.head, unit) || conflict(inside, unit)) || !closed && conflict(o.head, unit) {
			return true
		}
	}
	return false
}

// maxTail bounds the recorded steps unitTail keeps, and maxTailScan the
// trace events it reads for them: a unit's last lock is released within
// a few steps (a deferred unlock, a region end), and a continuation not
// found so soon only leaves releaseOrder without its control.
const (
	maxTail     = 64
	maxTailScan = 1 << 16
)

// unitTail returns the steps the local goroutine of anomaly a (its
// pattern event 0's) recorded after the local unit's last event, at most
// maxTail, with their occurrence counts unset (releaseOrder sets them
// from the schedule, whose goroutines' steps are each a prefix of their
// program order). Nil when the anomaly's events are not tr's.
func unitTail(tr *trace.Trace, a predict.Anomaly) []trace.Step {
	p := a.Pattern
	if tr == nil || p == nil || len(a.Events) == 0 || len(a.Events) != len(p.T) || len(p.T) != len(p.AR) {
		return nil
	}
	last := int32(-1)
	for k, e := range a.Events {
		if p.T[k] == p.T[0] && p.AR[k] == p.AR[0] {
			last = max(last, e)
		}
	}
	if last < 0 || int(last) >= len(tr.Events) {
		return nil
	}
	g := tr.Events[last].G
	var out []trace.Step
	for i := int(last) + 1; i < len(tr.Events) && i <= int(last)+maxTailScan && len(out) < maxTail; i++ {
		ev := tr.Events[i]
		if ev.G == g {
			out = append(out, trace.Step{G: tr.Goroutines[ev.G], Op: ev.Op, Obj: tr.ObjName(ev), Site: tr.Site(ev)})
		}
	}
	return out
}

// timerPastSleep returns the step count at which replay v of schedule s
// fired a program timer (replay.Verdict.Fired) ahead of a test's
// post-sleep work, or -1: a goroutine X of the anomaly (gs) woke from a
// test sleep (sleepWindow.next) before the fire, the fire is past the
// recorded order (the schedule's first prefix steps), and X has a step
// after the fire that the recording ran before the event the fire let
// run (sched maps s's steps to the trace's events). X was held at its
// gate while the virtual clock moved past the timer's due time.
//
// bytedance/gopkg's asynccache TestGetOK sleeps 0.5 s and expects its Get
// to see the old value, the shared refresh ticker being due at 1 s: the
// schedule ran the tick's refresh ahead of that Get, which the recording
// ran first. A test that sleeps less than a program timer's period and
// asserts what it sees before the timer fires orders the two by time
// only, as overrunsSleep's sleep that waits for work does; this is its
// mirror, a deadline rather than a delay.
//
// The virtual clock also runs with the real one (dynamic/rt/vclock.go),
// so on a loaded machine the timer may come due while X still sleeps:
// the schedule's gated steps between the timer's arming and X's sleep
// took longer, in real time, than the sleep's head start on the timer.
// The fire then lets nothing run at once; the schedule's gates still
// hold the goroutine that waits on the timer until its step. So a fire
// while X sleeps (after X's sleep step, by X's wake) counts too, when
// the event it let run is a receive from a timer's channel (timerRecv),
// the first one at or after the fire, of a goroutine other than X, past
// the recorded order and after X's wake: the schedule, not the clock,
// ran it after the wake and ahead of X's later step. tickreadfixed
// (TestGetBeforeRefresh) at load 12 to 30: its ticker fired during the
// test's 50 ms sleep in some replays and controls and after it in
// others, and the failure was credited or not as they fell. It then
// returns the receive's index: the step count at which the fire would
// have come on an idle machine, every goroutine waiting (the schedule's
// gates and the timer). For the same reason a control's fire counts
// anywhere from the test's sleep on, up to that receive (fireSince).
//
// A timer wait (sleepWindow.wait) is its own wake, so X may also be held
// before it: the wait comes after the fire in s, the recording ran it
// before the event the fire let run, and no later fire came before it
// (X's timer, due first, fired with the program's). ttlcache's
// TestCache_TestTouch touches an item 0.5 s into its 0.9 s TTL: the
// schedule ran the expiration loop's 0.9 s timer and its expiry check
// ahead of the Touch, which the test's wake at 0.5 s let run first in
// the recording.
func timerPastSleep(s *trace.Schedule, sched schedule.Schedule, v replay.Verdict, ws []sleepWindow, gs map[string]bool) int {
	if s == nil || len(ws) == 0 || len(v.Fired) == 0 || sched.Len() != len(s.Steps) {
		return -1
	}
	pos := make(map[stepKey]int, len(s.Steps))
	for i, st := range s.Steps {
		pos[keyOf(st)] = i
	}
	// heldPast reports whether X has a step after j that the recording
	// ran before the event at j.
	heldPast := func(x string, j int) bool {
		for k := j + 1; k < len(s.Steps); k++ {
			if s.Steps[k].G == x && sched.At(k) < sched.At(j) {
				return true
			}
		}
		return false
	}
	for _, f := range v.Fired {
		if f < 0 || f >= len(s.Steps) {
			continue
		}
		for _, w := range ws {
			x := w.next.g
			a, ok := pos[w.next]
			if !ok || !gs[x] {
				continue
			}
			if f >= int(sched.Prefix) && x != s.Steps[f].G {
				freed := sched.At(f) // the event the fire let run
				if w.wait && a > f {
					// The wake is the receive itself: held at its gate
					// past the fire that let freed run, the recording
					// having run it first, and its own timer fired by
					// then (no later fire before it).
					if sched.At(a) < freed && !slices.ContainsFunc(v.Fired, func(g int) bool { return g > f && g <= a }) {
						return f
					}
					continue
				}
				if a < f && heldPast(x, f) {
					return f
				}
			}
			// A fire while X slept: what it let run is the first timer
			// receive after it, which the schedule ran past X's wake.
			if sl := sleepStep(s, x, a); !w.wait && sl >= 0 && sl < f && f <= a {
				if j := recvAfter(s, f, x); j > a && j >= int(sched.Prefix) && heldPast(x, j) {
					return j
				}
			}
		}
	}
	return -1
}

// fireSince returns the least step count at which a control's fire
// counts as the fire at step count at of the replay whose failure it
// controls (timerPastSleep): at itself, or, when step at receives from
// a timer's channel (timerRecv), any count after the last test sleep
// before it of another goroutine that woke (took its next step) before
// it. The receive cannot run before its timer fired, and where the fire
// fell from the sleep on is the load's: the virtual clock runs with the
// real one. That sleep is the one timerPastSleep found, or a later one,
// so this is no wider than it.
func fireSince(s *trace.Schedule, at int) int {
	if s == nil || at < 0 || at >= len(s.Steps) || !timerRecv(s, at) {
		return at
	}
	woke := map[string]bool{} // goroutines with a step after the one at i, before at
	for i := at - 1; i >= 0; i-- {
		st := s.Steps[i]
		if st.Op == trace.Sleep && st.G != s.Steps[at].G && testSite(st.Site) && woke[st.G] {
			return i + 1
		}
		woke[st.G] = true
	}
	return at
}

// sleepStep returns the index in s of X's time.Sleep right before its
// step at a (X's previous step), or -1 when that is not a sleep.
func sleepStep(s *trace.Schedule, x string, a int) int {
	for i := min(a, len(s.Steps)) - 1; i >= 0; i-- {
		if s.Steps[i].G == x {
			if s.Steps[i].Op == trace.Sleep {
				return i
			}
			return -1
		}
	}
	return -1
}

// recvAfter returns the index of the first step of s at or after f, of
// a goroutine other than x, that receives from a timer's channel
// (timerRecv), or -1.
func recvAfter(s *trace.Schedule, f int, x string) int {
	for j := max(f, 0); j < len(s.Steps); j++ {
		if s.Steps[j].G != x && timerRecv(s, j) {
			return j
		}
	}
	return -1
}

// timerRecv reports whether step j of s receives, outside a test file,
// from a timer's or ticker's channel: of type <-chan time.Time (which
// the time package fills), with no send on it among s's steps.
func timerRecv(s *trace.Schedule, j int) bool {
	st := s.Steps[j]
	if st.Op != trace.Recv || !strings.HasPrefix(st.Obj, "<-chan_time.Time") || testSite(st.Site) {
		return false
	}
	return !slices.ContainsFunc(s.Steps, func(o trace.Step) bool { return o.Op == trace.Send && o.Obj == st.Obj })
}
