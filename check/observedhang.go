package check

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// Observed hangs (issue 29): a recording that hung for good.
//
// rt's hang watcher ends a recording in which every goroutine has waited
// for another one for 5 s (dynamic/rt/hang.go: each blocked in a
// recorded operation or in package testing waiting for the test; none
// runs, sleeps or waits for a timer or I/O; 1 s when all wait in recorded
// operations and no timer the instrumented code made is pending),
// marking its trace "hung: ",
// and writes the operations the goroutines were blocked in as
// FlagBlocked events (observeHung). Such a run is a bug of the test or
// the code under test: go test would wait out its timeout there
// (looplab/fsm's TestContextInCallbacks, when the goroutine that cancels
// the context runs before the transition). The trace's own order, then
// the test goroutine's blocked operation, is the schedule; its replay
// proves the hang when, after the schedule lets go, the process hangs
// for good with that goroutine still blocked there (rt's leakProof for
// hungPattern). Nothing is predicted: the run showed it, whether it was
// the test's first recording or a perturbed one, so either reports it.

// observedHang is the pattern of an observed hang: one event, the blocked
// operation of the test's goroutine. It is check's, not the pattern
// language's: it replays as an observed leak (Leak, Observed), and
// -pecan.patterns turns it on with the lock-order inversion pattern.
var observedHang = &pattern.Pattern{Kind: "deadlock", Name: "hung", Leak: true, Observed: true,
	T: []int{0}, SV: []int{0}, AR: []int{0}, AT: []pattern.Access{pattern.W},
	TNames: []string{"t1"}, SVNames: []string{"s1"}, ARNames: []string{"u1"}, Pos: "check"}

// hungOn reports whether pats asks for blocking bugs: observed hangs
// come with the deadlock set's lock-order inversion pattern.
func hungOn(pats []*pattern.Pattern) bool {
	for _, p := range pats {
		if p.Kind == "deadlock" && p.Lock && !p.Relock && !p.RWWriter() && !p.OnceRun() {
			return true
		}
	}
	return false
}

// observedHung returns the prediction of the observed hang of test rt's
// trace tr: the schedule of tr's events in their order
// and then the operation the test's goroutine hung in (else the first
// blocked goroutine's, in name order). It is written from a copy of tr
// that ends with that operation, into dir.
func (c *testCheck) observedHung(tr *trace.Trace, rt record.Test, dir string, pats []*pattern.Pattern) []prediction {
	if !strings.HasPrefix(rt.Truncated, "hung: ") || len(tr.Blocked) == 0 || !hungOn(pats) {
		return nil
	}
	k := 0
	if len(tr.Events) > 0 {
		// The test's goroutine: the main goroutine's fork that opens the
		// trace (as blockedFacts takes it).
		if e := tr.Events[0]; e.Op == trace.Fork && tr.Goroutines[e.G] == "g1" {
			for i, b := range tr.Blocked {
				if b.G == e.Obj {
					k = i
					break
				}
			}
		}
	}
	ev := tr.Blocked[k]
	if ev.Site < 0 || int(ev.Site) >= len(tr.Sites) {
		return nil
	}
	site := tr.Sites[ev.Site]
	// Which recording hung (the first, or a perturbed one) is timing:
	// the message is the same either way (same input, same output).
	run := "a recorded run"
	waits := "" // report's default: chan send or receive
	switch ev.Op {
	case trace.Lock:
		waits = "Lock"
	case trace.RLock:
		waits = "RLock"
	case trace.WGWait:
		waits = "WaitGroup.Wait"
	case trace.CondWait:
		waits = "Cond.Wait"
	}
	ev.Flags &^= trace.FlagBlocked
	n := int32(len(tr.Events))
	ext := &trace.Trace{Tables: tr.Tables, Events: append(slices.Clip(tr.Events), ev)}
	a := predict.Anomaly{Pattern: observedHang, Events: []int32{n}, Sites: []string{site},
		Key:      pattern.Key(observedHang, []string{site}),
		Schedule: schedule.Schedule{Prefix: n, Tail: []int32{n}},
		Waits:    waits, Stuck: "every goroutine is blocked (deadlock, observed in " + run + ")"}
	if c.seen[a.Key] {
		c.found++
		c.predicted++
		c.undiverged++
		return nil
	}
	if c.pruned[a.Key] {
		return nil
	}
	st := trace.NewScheduleText(ext, filepath.Join(dir, "hung.steps"))
	p, err := newPrediction(st, nil, a, filepath.Join(dir, "hung.schedule"))
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		c.rep.addNote(note.Predict, c.pkg, c.test, "%v", err)
		return nil
	}
	c.predicted++
	c.opt.progress("check: %s %s: the recording hung with %d goroutines blocked; replaying the hang at %s", c.pkg, c.test, len(tr.Blocked), site)
	return []prediction{p}
}
