package rt

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Replay's object check: "reproduced" means that the anomaly's events ran
// in the pattern's order on the same objects as in the prediction. Steps
// are matched by goroutine, op, site and occurrence, which say nothing of
// the object: a goroutine that allocates a fresh variable per iteration
// touches a different one at the same site every time. So the replayer
// notes the object of each anomaly step's event as it is recorded (in the
// replay's own naming, by allocation: see objref_weak.go) and requires the
// same partition as the schedule's: two anomaly steps that name one object
// in the schedule touch one object in the replay, and two that name
// different objects touch different ones. Names differ between the runs
// (they count objects in the order first seen); only this relation is
// compared. A mismatch is the verdict "wrong-object".

// objCheck is the replayer's state for the check.
type objCheck struct {
	granted map[string]int // goroutine → its step whose event is still to be recorded
	objs    map[int]int32  // anomaly step → object its event touched in the replay
	keys    map[int]int64  // anomaly step → the map key's hash its event carried (trace.Step.MapKey)
	await   bool           // "reproduced" waits for the objects of the last steps
}

// grant notes that goroutine g was given step i: its next recorded event
// is that step's.
func (r *replayer) grant(g string, i int) {
	if r.leak || !r.isAnom[i] || r.s.Steps[i].Op.Object() != trace.ObjObject {
		return
	}
	if r.oc.granted == nil {
		r.oc.granted, r.oc.objs = map[string]int{}, map[int]int32{}
	}
	r.oc.granted[g] = i
}

// touched is called (under mu) when g records ev, before recorded.
func (r *replayer) touched(g *Goroutine, ev trace.Event) {
	i, ok := r.oc.granted[g.name]
	if !ok {
		return
	}
	delete(r.oc.granted, g.name)
	r.oc.objs[i] = ev.Obj
	if ev.Op.HasKey() && ev.Arg != 0 {
		if r.oc.keys == nil {
			r.oc.keys = map[int]int64{}
		}
		r.oc.keys[i] = ev.Arg
	}
	if v, bad := r.objectMismatch(i); bad {
		r.decide(v)
		return
	}
	if r.oc.await && r.objectsSeen() {
		r.oc.await = false
		r.decide(Verdict{Verdict: "reproduced", Step: len(r.s.Steps)})
	}
}

// objectMismatch compares anomaly step i's object with those of the
// anomaly steps seen before it.
func (r *replayer) objectMismatch(i int) (Verdict, bool) {
	si := r.s.Steps[i]
	for _, j := range r.s.Anomaly {
		oj, ok := r.oc.objs[j]
		if j == i || !ok {
			continue
		}
		sj := r.s.Steps[j]
		if (si.Obj == sj.Obj) == (r.oc.objs[i] == oj) {
			if v, bad := r.keyMismatch(i, j); bad {
				return v, true
			}
			continue
		}
		name := rec.objName
		rel := "the same object"
		if si.Obj != sj.Obj {
			rel = "different objects"
		}
		return Verdict{Verdict: "wrong-object", Step: i + 1, Goroutine: si.G, Expected: si.Obj, Actual: name(r.oc.objs[i]),
			Message: fmt.Sprintf("steps %d (%s) and %d (%s) of the anomaly touch %s in the prediction, but %s and %s in the replay",
				j+1, sj, i+1, si, rel, name(oj), name(r.oc.objs[i]))}, true
	}
	return Verdict{}, false
}

// keyMismatch compares the map keys of anomaly steps i and j, which
// touched the same objects in the replay as in the schedule: when the
// schedule names one element of one map for both (equal Step.MapKey), the
// replay must touch one element, and two elements when it names two. A
// step is matched by its occurrence at its site, not by its key: a range
// over a map visits the keys in a random order, so cache2go's expiry
// looked up and deleted another key than the prediction's, and an insert
// of a third key between them reproduced an atomicity violation on one
// element that the run never showed. Hashes are compared as a relation
// (some keys hash by a seed of the process: rt.KeyHash); a whole-map
// access (0) on either side is every element and matches.
func (r *replayer) keyMismatch(i, j int) (Verdict, bool) {
	si, sj := r.s.Steps[i], r.s.Steps[j]
	if si.Obj != sj.Obj || si.MapKey == 0 || sj.MapKey == 0 {
		return Verdict{}, false
	}
	ki, kj := r.oc.keys[i], r.oc.keys[j]
	if ki == 0 || kj == 0 || (si.MapKey == sj.MapKey) == (ki == kj) {
		return Verdict{}, false
	}
	rel, got := "one element", "two"
	if si.MapKey != sj.MapKey {
		rel, got = "two elements", "one"
	}
	return Verdict{Verdict: "wrong-object", Step: i + 1, Goroutine: si.G, Expected: si.Obj, Actual: rec.objName(r.oc.objs[i]),
		Message: fmt.Sprintf("steps %d (%s) and %d (%s) of the anomaly touch %s of the map in the prediction, but %s in the replay (another key)",
			j+1, sj, i+1, si, rel, got)}, true
}

// objectsSeen reports whether every anomaly step that acts on an object
// has had its event recorded.
func (r *replayer) objectsSeen() bool {
	if r.leak {
		return true // neither operation of a leak completes: leakProof
	}
	for _, i := range r.s.Anomaly {
		if r.s.Steps[i].Op.Object() != trace.ObjObject {
			continue
		}
		if _, ok := r.oc.objs[i]; !ok {
			return false
		}
	}
	return true
}

// holdReproduced reports whether a "reproduced" verdict must wait: the
// turn passes on from a plain access when its goroutine reaches its next
// gate, or after pendingGrace, which can come before the access's event
// was recorded. touched decides when it is.
func (r *replayer) holdReproduced() bool {
	if r.verdict != "" || r.objectsSeen() {
		return false
	}
	r.oc.await = true
	return true
}

// unrecorded lists the anomaly steps acting on an object whose events were
// not recorded, as "5 (g1 send ...), 7 (...)".
func (r *replayer) unrecorded() string {
	var out []string
	for _, i := range r.s.Anomaly {
		if r.s.Steps[i].Op.Object() != trace.ObjObject {
			continue
		}
		if _, ok := r.oc.objs[i]; !ok {
			out = append(out, fmt.Sprintf("%d (%s)", i+1, r.s.Steps[i]))
		}
	}
	return strings.Join(out, ", ")
}

// ask passes the turn on from waiting acquisition i of a deadlock
// schedule, whose gate goroutine g just passed (mu held): its lock is held
// by another goroutine of the inversion, so it will not be recorded, and
// its object is the one taken at the gate (Goroutine.gateObj).
func (r *replayer) ask(g *Goroutine, i int) {
	delete(r.oc.granted, g.name)
	if r.oc.objs == nil {
		r.oc.granted, r.oc.objs = map[string]int{}, map[int]int32{}
	}
	r.oc.objs[i] = g.gateObj
	if v, bad := r.objectMismatch(i); bad {
		r.decide(v)
		return
	}
	r.asking[g.name] = i
	if r.rwWriter && r.s.Steps[i].Op == trace.Lock && g.gateRW != nil {
		go r.awaitWriter(g.gateRW)
		return
	}
	r.advance()
}

// awaitWriter passes the turn on from a writer's waiting Lock of rw
// (ask) once the writer waits inside rw.Lock: then a new reader cannot
// get in (rw.TryRLock fails), which is what makes the following RLock
// queue behind it. It gives up after the stall bound and passes the turn
// on anyway: the RLock then gets the lock, and the replay diverges.
func (r *replayer) awaitWriter(rw *sync.RWMutex) {
	deadline := time.Now().Add(r.stall)
	for time.Now().Before(deadline) {
		if !rw.TryRLock() {
			break // the writer holds rw's reader slots
		}
		rw.RUnlock()
		time.Sleep(20 * time.Microsecond)
	}
	mu.Lock()
	if !r.free && r.verdict == "" {
		r.advance()
	}
	mu.Unlock()
}

// lockWait reports whether a goroutine blocked in the wrapper op waits
// for a lock: Lock and RLock, and OnceDo, whose call waits in Do for the
// call running the Once's function, which holds the Once's lock (api.go's
// OnceDo).
func lockWait(op string) bool { return op == "Lock" || op == "RLock" || op == "OnceDo" }

// deadlockVerdict decides a deadlock schedule once every step had its
// turn and nothing moves (mu held; gs is the dump, names its goroutines'
// logical names, blocked who waits where, why what the wait is): a
// "deadlock" with Deadlocked set when each waiting acquisition's
// goroutine is blocked inside that lock, else "diverged". Its lock is
// one another goroutine of the inversion holds (the objects were checked
// as a relation: ask), so none of them can go on.
func (r *replayer) deadlockVerdict(gs []gstate, names map[int64]string, blocked []string, why string) Verdict {
	if r.lostSignal {
		return r.lostSignalVerdict(gs, names, blocked, why)
	}
	if r.inversion {
		return r.inversionVerdict(gs, blocked, why)
	}
	if r.relock {
		return r.relockVerdict(gs, names, blocked, why)
	}
	inLock := map[string]bool{}
	for _, g := range gs {
		if g.class == gRecorded && lockWait(g.op) {
			inLock[names[g.id]] = true
		}
	}
	var stuck []string
	for _, i := range r.s.Anomaly {
		st := r.s.Steps[i]
		if k, ok := r.asking[st.G]; !ok || k != i {
			continue
		}
		if !inLock[st.G] {
			return Verdict{Verdict: "diverged", Step: i + 1, Goroutine: st.G, Expected: st.Key(), Waiting: append(r.waiters(), blocked...),
				Message: fmt.Sprintf("%s, but goroutine %s is not blocked in the lock of step %d (%s)", why, st.G, i+1, st)}
		}
		stuck = append(stuck, fmt.Sprintf("%s in %s %s @%s", st.G, st.Op, st.Obj, st.Site))
	}
	if len(stuck) < 2 {
		return Verdict{Verdict: "diverged", Step: len(r.s.Steps), Waiting: append(r.waiters(), blocked...),
			Message: fmt.Sprintf("%s, but %d goroutines wait at the inversion's acquisitions", why, len(stuck))}
	}
	how := "each holding the lock the other waits for"
	if r.rwWriter {
		how = "the writer waiting for the reader's first read lock, the reader's second behind the writer"
	}
	return Verdict{Verdict: "deadlock", Step: len(r.s.Steps), Waiting: append(r.waiters(), blocked...), Deadlocked: stuck,
		Message: fmt.Sprintf("%s: %s, %s", why, strings.Join(stuck, " and "), how)}
}

// lostSignalVerdict decides a lost signal's schedule once every step had
// its turn and nothing moves (as deadlockVerdict): a "deadlock" with
// Deadlocked set when the goroutine of the Wait's entry, the schedule's
// last anomaly step, is blocked inside a Cond.Wait: that one, or a later
// one when a later signal woke it (Rewaited, which check weighs against
// the recorded run's end); else "diverged" (it took another path).
func (r *replayer) lostSignalVerdict(gs []gstate, names map[int64]string, blocked []string, why string) Verdict {
	i := r.s.Anomaly[1]
	st := r.s.Steps[i]
	waiting := false
	for _, g := range gs {
		if g.class == gRecorded && g.op == "CondWait" && names[g.id] == st.G {
			waiting = true
		}
	}
	if !waiting {
		return Verdict{Verdict: "diverged", Step: i + 1, Goroutine: st.G, Expected: st.Key(), Waiting: append(r.waiters(), blocked...),
			Message: fmt.Sprintf("%s, but goroutine %s is not blocked in the Cond.Wait of step %d (%s)", why, st.G, i+1, st)}
	}
	sig := r.s.Steps[r.s.Anomaly[0]]
	stuck := []string{fmt.Sprintf("%s in cond-wait @%s", st.G, st.Site)}
	msg := fmt.Sprintf("%s: %s waits for ever, the signal of %s (%s @%s) having come before its Wait", why, stuck[0], sig.G, sig.Op, sig.Site)
	if r.lostWoken {
		msg = fmt.Sprintf("%s: %s waits for ever, in a later Wait: a signal after %s's (%s @%s) woke its Wait of step %d", why, stuck[0], sig.G, sig.Op, sig.Site, i+1)
	}
	return Verdict{Verdict: "deadlock", Step: len(r.s.Steps), Waiting: append(r.waiters(), blocked...), Deadlocked: stuck,
		Rewaited: r.lostWoken, AfterEnd: r.finishing, Message: msg}
}

// heldLock is what a goroutine holds of one lock: write and read
// acquisitions not yet released, and where it took it last.
type heldLock struct {
	w, r int
	site string
}

// hold counts a goroutine's recorded lock and unlock events (mu held):
// what it holds is what a double lock's reader may take again.
func (r *replayer) hold(g *Goroutine, ev trace.Event) {
	var dw, dr int
	switch ev.Op {
	case trace.Lock:
		dw = 1
	case trace.RLock:
		dr = 1
	case trace.Unlock:
		dw = -1
	case trace.RUnlock:
		dr = -1
	default:
		return
	}
	m := r.held[g.name]
	if m == nil {
		m = map[int32]*heldLock{}
		r.held[g.name] = m
	}
	h := m[ev.Obj]
	if h == nil {
		h = &heldLock{}
		m[ev.Obj] = h
	}
	h.w, h.r = max(h.w+dw, 0), max(h.r+dr, 0)
	if dw > 0 || dr > 0 {
		h.site = rec.tab.Name(trace.TabSite, ev.Site)
	}
}

// noteRelock notes, at the gate of an acquisition of obj by the double
// lock's reader (mu held), that the reader holds obj in a mode the
// acquisition waits for: a Lock behind its own Lock or RLock, an RLock
// behind its own Lock. sync's locks are not reentrant: it will not
// return.
func (r *replayer) noteRelock(g *Goroutine, obj int32, op trace.Op, site int32) {
	if r.inversion {
		r.noteInversion(g, obj, op, site)
		return
	}
	if g.name != r.relockG || r.relockHit != "" {
		return
	}
	h := r.held[g.name][obj]
	if h == nil || !(h.w > 0 || op == trace.Lock && h.r > 0) {
		return
	}
	mode := "Lock"
	if h.w == 0 {
		mode = "RLock"
	}
	// The lock's name as the schedule gives it: the step that took it
	// (the recorder's table may not name it yet).
	name := rec.objName(obj)
	for _, st := range r.s.Steps {
		if st.G == g.name && (st.Op == trace.Lock || st.Op == trace.RLock) && st.Site == h.site && st.Obj != "" {
			name = st.Obj
		}
	}
	r.relockHit = fmt.Sprintf("%s in %s %s @%s, holding it (%s @%s)", g.name, op, name,
		rec.tab.Name(trace.TabSite, rec.site(site).idx), mode, h.site)
}

// relockVerdict decides a double lock's schedule once every step had its
// turn and nothing moves (as deadlockVerdict): a "deadlock" with
// Deadlocked set when the reader, whose acquisition of a lock it holds
// was noted at its gate (noteRelock), is blocked inside a lock call; else
// "diverged" (it did not go down that path, or something let it through).
func (r *replayer) relockVerdict(gs []gstate, names map[int64]string, blocked []string, why string) Verdict {
	i := r.s.Anomaly[1]
	if r.s.Steps[r.s.Anomaly[0]].Op == trace.Read {
		i = r.s.Anomaly[0]
	}
	st := r.s.Steps[i]
	inLock := false
	for _, g := range gs {
		if g.class == gRecorded && (g.op == "Lock" || g.op == "RLock") && names[g.id] == st.G {
			inLock = true
		}
	}
	if !inLock || r.relockHit == "" {
		return Verdict{Verdict: "diverged", Step: i + 1, Goroutine: st.G, Expected: st.Key(), Waiting: append(r.waiters(), blocked...),
			Message: fmt.Sprintf("%s, but goroutine %s is not blocked in a lock it holds after the read of step %d (%s)", why, st.G, i+1, st)}
	}
	return Verdict{Verdict: "deadlock", Step: len(r.s.Steps), Waiting: append(r.waiters(), blocked...), Deadlocked: []string{r.relockHit},
		Message: fmt.Sprintf("%s: %s, which never returns (sync's locks are not reentrant)", why, r.relockHit)}
}

// waitsFor reports whether goroutine n holds lock obj (from its recorded
// lock events) in a mode that an acquisition op ("Lock", "RLock") waits
// for, and where it took it.
func (r *replayer) waitsFor(n string, obj int32, op string) (site string, ok bool) {
	h := r.held[n][obj]
	if h == nil || !(h.w > 0 || op == "Lock" && h.r > 0) {
		return "", false
	}
	return h.site, true
}

// noteInversion notes, at the gate of an acquisition of obj by a stale
// read's reader (mu held), that another goroutine holds obj in a mode it
// waits for: the reader may be going into the inversion's cycle, which
// inversionVerdict checks once nothing moves. Each such acquisition
// replaces the note (an earlier one may have been let through).
func (r *replayer) noteInversion(g *Goroutine, obj int32, op trace.Op, site int32) {
	if g.name != r.relockG {
		return
	}
	mode := "Lock"
	if op == trace.RLock {
		mode = "RLock"
	}
	for n := range r.held {
		if n == g.name {
			continue
		}
		if at, ok := r.waitsFor(n, obj, mode); ok {
			r.relockHit = fmt.Sprintf("%s in %s of a lock %s holds (@%s)", g.name, op, n, at)
			return
		}
	}
}

// inversionVerdict decides a stale read's inversion schedule once every
// goroutine that can move has (as deadlockVerdict): a "deadlock" with
// Deadlocked set when the reader is blocked inside the acquisition of a
// lock that another goroutine holds, and that goroutine is blocked
// inside the acquisition of a lock the reader holds: a wait-for cycle,
// which nothing can break (sync's locks have no timeout). Else
// "diverged": the reader took another path, or got its lock.
func (r *replayer) inversionVerdict(gs []gstate, blocked []string, why string) Verdict {
	type waiter struct {
		obj   int32
		op    string
		where string
	}
	in := map[string]waiter{} // goroutine → the lock it is blocked in
	for _, g := range gs {
		if g.class != gRecorded || !lockWait(g.op) {
			continue
		}
		if rg := rec.gmap[g.id]; rg != nil {
			op := g.op
			if op == "OnceDo" {
				op = "Lock" // the Once's lock, held by the call running f
			}
			in[rg.name] = waiter{rg.gateObj, op, g.where}
		}
	}
	// A lock's name as the schedule gives it: the step of its holder that
	// took it (the recorder's table may not name it yet).
	name := func(obj int32, holder, site string) string {
		n := rec.objName(obj)
		for _, st := range r.s.Steps {
			if st.G == holder && (st.Op == trace.Lock || st.Op == trace.RLock) && st.Site == site && st.Obj != "" {
				n = st.Obj
			}
		}
		return n
	}
	rd := r.relockG
	if x, ok := in[rd]; ok {
		for n, y := range in {
			if n == rd {
				continue
			}
			atX, ok1 := r.waitsFor(n, x.obj, x.op)
			atY, ok2 := r.waitsFor(rd, y.obj, y.op)
			if !ok1 || !ok2 {
				continue
			}
			nx, ny := name(x.obj, n, atX), name(y.obj, rd, atY)
			stuck := []string{
				fmt.Sprintf("%s in %s %s @%s, holding %s (@%s)", rd, x.op, nx, x.where, ny, filepath.Base(atY)),
				fmt.Sprintf("%s in %s %s @%s, holding %s (@%s)", n, y.op, ny, y.where, nx, filepath.Base(atX)),
			}
			return Verdict{Verdict: "deadlock", Step: len(r.s.Steps), Waiting: append(r.waiters(), blocked...), Deadlocked: stuck,
				Message: fmt.Sprintf("%s: %s and %s, each holding the lock the other waits for", why, stuck[0], stuck[1])}
		}
	}
	i := r.s.Anomaly[0]
	st := r.s.Steps[i]
	return Verdict{Verdict: "diverged", Step: i + 1, Goroutine: st.G, Expected: st.Key(), Waiting: append(r.waiters(), blocked...),
		Message: fmt.Sprintf("%s, but goroutine %s is not in a wait-for cycle after the read of step %d (%s)", why, st.G, i+1, st)}
}
