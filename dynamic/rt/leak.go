package rt

import (
	"fmt"
	"strings"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Replaying a leak schedule (pattern kind "leak"): its last two steps are
// a select's case (the select's goroutine, at its gate, waits for the
// step's turn and then runs without it: with the partner held at its own
// gate, the select can only take another branch — a timer of the virtual
// clock fires once nothing else moves, a default is taken at once) and
// the partner's operation, which then has the turn and blocks. The proof
// comes when the test has returned (ended): the partner's goroutine must
// be blocked inside that channel operation and the select's goroutine
// gone. Nothing else can reach the channel: the leak finder takes only a
// channel whose one send and one receive these two are.
//
// An observed leak's schedule (observedPattern) is the recorded order and
// then the one operation the recorded run ended its test blocked in
// (trace.FlagBlocked): that step has the turn and blocks, and the proof
// is the same without a select (check/observed.go says why nothing else
// can reach the channel).

// observedPattern is the pattern ID of an observed leak's schedule.
const observedPattern = "leak/observed"

// hungPattern is the pattern ID of an observed hang's schedule: the
// order of a recording that hung (every goroutine blocked for good), then
// the operation its test's goroutine hung in. It replays as an observed
// leak's, but its proof is the hang itself: leakProof runs when the
// process hangs after the schedule ("hang after replay"), and a test that
// returns instead proves nothing.
const hungPattern = "deadlock/hung"

// leakSettle bounds how long leakProof waits for the goroutines still
// running after the test returned to finish or block.
const leakSettle = time.Second

// leakSelect is preSelect for the select's case of a leak schedule (mu
// held): if one of the select's cases is step i, it waits for the step's
// turn and lets the select run without taking it.
func (r *replayer) leakSelect(g *Goroutine, i int, st trace.Step, cases []SelCase, occ map[occKey]int) {
	for _, c := range cases {
		op := trace.Recv
		if c.Send {
			op = trace.Send
		}
		if st.Op != op || c.Site < 0 {
			continue
		}
		siteName := rec.tab.Name(trace.TabSite, rec.site(c.Site).idx)
		k := occKey{op, siteName}
		if st.Site != siteName || st.N != occ[k]+1 {
			continue
		}
		occ[k]++
		r.moves++
		r.waiting[g.name] = st
		r.waitTurn(i)
		delete(r.waiting, g.name)
		if r.free {
			return
		}
		r.leakSel = g
		return
	}
}

// selectedOther is called (mu held) when the select of a leak schedule's
// first step did something (op at site, or its default: OpInvalid): its
// case is a divergence, anything else the other branch the schedule
// wanted, after which its goroutine runs free and the partner's step has
// the turn.
func (r *replayer) selectedOther(g *Goroutine, op trace.Op, site string) {
	r.leakSel = nil
	i := r.s.Anomaly[0]
	st := r.s.Steps[i]
	if op == st.Op && site == st.Site {
		r.decide(Verdict{Verdict: "diverged", Step: i + 1, Goroutine: g.name, Expected: st.Key(),
			Message: fmt.Sprintf("goroutine %s: the select of step %d (%s) took that case: no other branch", g.name, i+1, st)})
		return
	}
	r.freed[g.name] = true
	r.next[g.name]++
	r.advance()
}

// leakProof decides a leak schedule whose steps all had their turn, once
// the test has returned (mu held; ended): it waits, bounded, until no
// goroutine runs, then requires the partner's goroutine blocked inside
// its channel operation (a goroutine dump: blocked in chan send or
// receive in rt's wrapper, not in a select with a timer, not in I/O) and
// the select's goroutine gone. It sets Verdict.Leaked, or turns the
// verdict into "diverged".
//
// When the process hangs (reason "hang after replay": every goroutine
// waits, and none can be woken by a timer or I/O), the select's goroutine
// may instead be blocked acquiring a lock (its other branch looped back
// through a lock the partner holds, moby#28462): nothing will ever
// release it, so both are blocked forever, and Leaked names both.
func (r *replayer) leakProof(reason string) {
	last := r.s.Anomaly[len(r.s.Anomaly)-1]
	sel, str := r.s.Steps[r.s.Anomaly[0]], r.s.Steps[last]
	if r.observed {
		sel = trace.Step{} // no select: the recorded run took its branch
	}
	// A partner that ended (recorded its end) is no leak whatever the
	// others do: waiting for them to settle only spends the bound.
	ended := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return r.gone[str.G]
	}
	// With the watcher gone, a hold after the verdict ends only when the
	// goroutine running alone reaches a gate: while it blocks where only
	// another goroutine can end its wait, the goroutines held for it
	// cannot move (pond's held purger and worker kept settle from quiet
	// for its whole bound: every leak replay of StopAndWaitFor 1.15 s).
	var alone int64
	if r.alone != nil && r.unwatched {
		select {
		case <-r.watchDone:
			alone = r.alone.goid
		default:
		}
	}
	buf := make([]byte, 64<<10)
	mu.Unlock()
	gs := settle(time.Now().Add(leakSettle), ended, alone, func() []gstate {
		var gs []gstate
		gs, buf = dumpGoroutines(buf)
		return gs
	})
	mu.Lock()
	if rec == nil {
		return
	}
	names := rec.goroutineNames()
	fail := func(msg string) {
		v := Verdict{Verdict: "diverged", Step: last + 1, Goroutine: str.G, Expected: str.Key(), Steps: len(r.s.Steps),
			Message: "the test returned, but " + msg + ": no leak"}
		r.verdict, r.final = v.Verdict, v
		r.write(v)
	}
	if r.hung && reason != "hang after replay" {
		v := Verdict{Verdict: "diverged", Step: last + 1, Goroutine: str.G, Expected: str.Key(), Steps: len(r.s.Steps),
			Message: "the test ended without hanging: no hang"}
		r.verdict, r.final = v.Verdict, v
		r.write(v)
		return
	}
	var stuck, selLock *gstate
	for k := range gs {
		switch names[gs[k].id] {
		case "":
		case sel.G:
			if r.stolen {
				continue // the thief may live on: it took the partner
			}
			if reason == "hang after replay" && gs[k].class == gRecorded && (gs[k].op == "Lock" || gs[k].op == "RLock") {
				selLock = &gs[k]
				continue
			}
			fail(fmt.Sprintf("goroutine %s of the select (step %d) still lives (%s at %s)", sel.G, r.s.Anomaly[0]+1, gs[k].state, gs[k].where))
			return
		case str.G:
			stuck = &gs[k]
		}
	}
	switch {
	case stuck == nil || r.gone[str.G]:
		fail(fmt.Sprintf("goroutine %s of step %d (%s) has ended", str.G, last+1, str))
		return
	case !blockedInStep(stuck, str, r.observed):
		fail(fmt.Sprintf("goroutine %s is not blocked in the operation of step %d (%s): %s in %s at %s", str.G, last+1, str, stuck.state, stuck.op, stuck.where))
		return
	}
	what := "chan send"
	switch {
	case stuck.state == "select":
		what = "select"
	case str.Op == trace.Recv:
		what = "chan receive"
	case str.Op != trace.Send:
		what = str.Op.String()
	}
	r.final.Leaked = []string{fmt.Sprintf("%s in %s %s @%s", str.G, what, str.Obj, str.Site)}
	r.final.Message = fmt.Sprintf("the test returned with goroutine %s blocked forever in %s @%s, its partner's select (%s @%s) gone", str.G, what, str.Site, sel.G, sel.Site)
	if selLock != nil {
		r.final.Leaked = append(r.final.Leaked, fmt.Sprintf("%s in %s @%s", sel.G, strings.ToLower(selLock.op), selLock.where))
		r.final.Message = fmt.Sprintf("the process hangs with goroutine %s blocked forever in %s @%s and its partner's select (%s @%s), after another branch, blocked in %s at %s", str.G, what, str.Site, sel.G, sel.Site, selLock.op, selLock.where)
	}
	if r.stolen {
		r.final.Message = fmt.Sprintf("the test returned with goroutine %s blocked forever in %s @%s, its partner taken by %s @%s", str.G, what, str.Site, sel.G, sel.Site)
	}
	if r.observed {
		r.final.Message = fmt.Sprintf("the test returned with goroutine %s blocked forever in %s @%s, as the recorded run ended it", str.G, what, str.Site)
	}
	if r.hung {
		r.final.Message = fmt.Sprintf("the process hangs with goroutine %s blocked forever in %s @%s, as the recorded run hung", str.G, what, str.Site)
	}
	r.write(r.final)
}

// settle waits until the goroutines still running settle (three dumps
// in a row without a busy one), the deadline passes or ended says the
// wait is moot, and returns the last dump (nil if none was taken). The
// replay's watcher waiting for its tick moves no goroutine of the test's:
// counted busy, it kept the settling from quiet for the whole bound on a
// loaded machine (eapache/channels' select-branch replays took 1.1 s
// instead of 0.1 s). alone, if not 0, is the runtime id of the goroutine
// running alone after the verdict with the watcher gone: the goroutines
// held for it are not busy while it blocks in a recorded operation or a
// wait only another goroutine can end.
func settle(deadline time.Time, ended func() bool, alone int64, dump func() []gstate) []gstate {
	var gs []gstate
	for quiet := 0; quiet < 3 && time.Now().Before(deadline) && !ended(); {
		time.Sleep(2 * time.Millisecond)
		gs = dump()
		quiet++
		stuck := false
		for _, x := range gs {
			if alone != 0 && x.id == alone {
				stuck = x.class == gRecorded || x.class == gHard
			}
		}
		for _, x := range gs {
			if x.class == gBusy && !(x.watcher && !busyState(x.state)) && !(x.held && stuck) {
				quiet = 0
				break
			}
		}
	}
	return gs
}

// blockedInStep reports whether g, a goroutine of a dump, is blocked in
// step st's operation: a channel operation (inChanOp), or, for an
// observed leak (observed), the select whose case st is (at the select's
// line, at or before the case's: check/observedsync.go found every case
// of it stranded) or a lock, WaitGroup or Cond wait in rt's wrapper.
func blockedInStep(g *gstate, st trace.Step, observed bool) bool {
	switch st.Op {
	case trace.Send, trace.Recv:
		if g.state == "select" && g.class == gSoft && observed {
			file, line, ok := fileLine(st.Site)
			wf, wl, wok := fileLine(g.where)
			return ok && wok && file == wf && wl <= line
		}
		return strings.HasPrefix(g.state, "chan ") && inChanOp(g, st)
	case trace.Lock, trace.RLock, trace.WGWait, trace.CondWait:
		return observed && g.class == gRecorded && g.op == syncWrapper(st.Op, g.op)
	}
	return false
}

// inChanOp reports whether g, blocked in a channel operation, is blocked
// in step st's: inside rt's wrapper for it (Send, Recv), or, for the
// operations the user's code performs itself after a gate (a range
// loop's receive, a select's case), with its innermost user frame at the
// step's line.
func inChanOp(g *gstate, st trace.Step) bool {
	if g.class == gRecorded {
		return strings.HasPrefix(g.op, opWrapper(st.Op))
	}
	site := st.Site
	if i := strings.LastIndexByte(site, ':'); i >= 0 {
		site = site[:i] // file:line:col → file:line
	}
	if i := strings.LastIndexByte(site, '/'); i >= 0 {
		site = site[i+1:]
	}
	return (g.class == gSoft || g.class == gHard) && g.where != "" && g.where == site
}

// opWrapper is the prefix of the names of rt's wrappers for op.
func opWrapper(op trace.Op) string {
	if op == trace.Send {
		return "Send"
	}
	return "Recv"
}
