package check

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/ssatrace/predict"
	"github.com/pecanvet/pecanvet/ssatrace/record"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// testCheck is the checking of one test: its recorded runs (the ordinary
// one and, if that leaves nothing reproduced, perturbed ones), the
// predictions from each trace and their replays. Replays are counted over
// all its traces against MaxReplays; anomalies are reported once per
// package (seen, keyed by site combination and pattern) whichever trace
// predicted them.
type testCheck struct {
	ctx       context.Context
	b         *record.Build
	pkg, test string
	dir       string
	opt       Options
	rep       *Report
	seen      map[string]bool
	deadline  time.Time

	replays, skipped int
	found            int             // predictions of this test proved (now or by an earlier test)
	pruned           map[string]bool // keys whose replays failed in an earlier trace of this test
}

// baseline tells replay how the test fails without pecanvet's help, so
// that a replay is not credited with that failure.
func (c *testCheck) baseline(rt record.Test) {
	panicked, cons := replay.Consequence(rt.Output, false)
	c.opt.Replay.Baseline = cons
	c.opt.Replay.BaselinePanicked = panicked
}

// check predicts from the trace at path (the outcome of recording rt) and
// replays the predictions.
func (c *testCheck) check(rt record.Test, path string) {
	if rt.Events == 0 {
		if rt.Truncated != "" {
			c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%s %s: no events recorded (%s)", c.pkg, c.test, rt.Truncated))
		}
		return
	}
	tr, cut, err := predict.ReadPrefix(path, predict.MaxEvents)
	if err != nil {
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%s %s: unreadable trace: %v", c.pkg, c.test, err))
		return
	}
	if cut {
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%s %s: trace of %d events cut to its first %d to bound memory; predicting from those", c.pkg, c.test, rt.Events, len(tr.Events)))
	}
	// Replay confirms each prediction inside the search, so that a site
	// combination whose first schedule is pruned gets its other instances
	// tried.
	prunedBefore, prunedNow := c.pruned, map[string]bool{}
	defer func() {
		if c.pruned == nil {
			c.pruned = map[string]bool{}
		}
		for k := range prunedNow {
			c.pruned[k] = true
		}
	}()
	confirm := func(a predict.Anomaly) bool {
		if c.seen[a.Key] {
			c.found++
			return true // already proved by an earlier test or trace
		}
		if prunedBefore[a.Key] {
			// Tried from an earlier run of this test: a perturbed run is
			// for what that run did not show. (Within one trace, other
			// instances of a pruned key are still tried.)
			return false
		}
		if c.replays >= c.opt.MaxReplays || time.Now().After(c.deadline) {
			c.skipped++
			return false
		}
		c.replays++
		s, err := trace.NewSchedule(tr, a.Pattern.ID(), a.Schedule.Events(), a.Events)
		if err != nil {
			c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%s %s: %v", c.pkg, c.test, err))
			return false
		}
		c.opt.progress("check: %s %s: replay %d (%s %s)", c.pkg, c.test, c.replays, a.Pattern.ID(), a.Sites[0])
		v := replay.Run(c.ctx, c.b, c.pkg, c.test, s, filepath.Join(c.dir, fmt.Sprintf("r%d", c.replays)), c.opt.Replay)
		if stalledOnLate(v, s) && c.replays < c.opt.MaxReplays && !time.Now().After(c.deadline) {
			// The goroutine whose turn it was never reached a gate: on a
			// loaded machine it may just have been slow. A stall verdict
			// then depends on the load, and the answer on the run: try
			// once more with a longer stall bound.
			c.replays++
			o := c.opt.Replay
			o.Stall = 4 * stallOf(o)
			c.opt.progress("check: %s %s: replay %d (%s %s), stall bound %v", c.pkg, c.test, c.replays, a.Pattern.ID(), a.Sites[0], o.Stall)
			v = replay.Run(c.ctx, c.b, c.pkg, c.test, s, filepath.Join(c.dir, fmt.Sprintf("r%d", c.replays)), o)
		}
		f := Finding{Package: c.pkg, Test: c.test, Anomaly: a, Schedule: s, Verdict: v}
		for _, e := range a.Events {
			ev := tr.Events[e]
			f.Goroutines = append(f.Goroutines, tr.Goroutines[ev.G])
			f.Objects = append(f.Objects, tr.ObjName(ev))
		}
		c.rep.Findings = append(c.rep.Findings, f)
		if f.Reproduced() {
			c.seen[a.Key] = true
			c.found++
			return true
		}
		prunedNow[a.Key] = true
		return false
	}
	res, err := predict.Run(tr, c.opt.Anomalies, predict.Options{Confirm: confirm, Deadline: c.deadline, Context: c.ctx})
	if err != nil {
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%s %s: %v", c.pkg, c.test, err))
		return
	}
	if res.Cut != "" {
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%s %s: budget of %v spent while predicting; %s", c.pkg, c.test, c.opt.Budget, res.Cut))
	}
}

// perturbed records the test again under perturbed schedules (rt.EnvPerturb,
// seeds 1..Perturb) when its first run, rt, had two goroutines or more but
// nothing was proved from it: the run may have hidden the accesses that
// race (a goroutine ran wholly before another started, or ended in an
// order that hid them). Each trace is predicted from and replayed like the
// first. The seeds are fixed, so what is tried is the same every time.
func (c *testCheck) perturbed(rt record.Test, path string) {
	if c.opt.Perturb <= 0 || c.found > 0 || rt.Goroutines < 2 {
		return
	}
	for seed := 1; seed <= c.opt.Perturb; seed++ {
		if time.Now().After(c.deadline) || c.ctx.Err() != nil {
			return
		}
		p := path[:len(path)-len(filepath.Ext(path))] + ".p" + strconv.Itoa(seed) + ".trace"
		c.opt.progress("check: %s %s: recording, perturbed (seed %d)", c.pkg, c.test, seed)
		prt := c.b.RecordTestEnv(c.ctx, c.pkg, c.test, p, c.opt.Timeout, []string{"PECANVET_PERTURB=" + strconv.Itoa(seed)})
		c.rep.Events += prt.Events
		c.check(prt, p)
	}
}

// notes adds the notes about bounds hit.
func (c *testCheck) notes() {
	if c.skipped > 0 {
		why := fmt.Sprintf("-max-replays %d", c.opt.MaxReplays)
		if time.Now().After(c.deadline) {
			why = fmt.Sprintf("budget of %v spent", c.opt.Budget)
		}
		c.rep.Notes = append(c.rep.Notes, fmt.Sprintf("%s %s: %d predictions not replayed (%s)", c.pkg, c.test, c.skipped, why))
	}
}

// stalledOnLate reports whether replay v stopped because nothing moved for
// the stall bound while the goroutine owning the awaited step was not
// waiting at any gate (it had not got there yet, rather than being held).
func stalledOnLate(v replay.Verdict, s *trace.Schedule) bool {
	if v.Verdict != replay.Deadlock || !strings.HasPrefix(v.Message, "nothing moved") || v.Step < 1 || v.Step > len(s.Steps) {
		return false
	}
	g := s.Steps[v.Step-1].G
	for _, w := range v.Waiting {
		if strings.HasPrefix(w, g+" waits") {
			return false
		}
	}
	return true
}

func stallOf(o replay.Options) time.Duration {
	if o.Stall > 0 {
		return o.Stall
	}
	return 2 * time.Second
}
