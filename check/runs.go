package check

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/static/driver"
)

// testCheck is the checking of one test: its recorded runs (the ordinary
// one and, if that leaves nothing reproduced, perturbed ones), the
// predictions from each trace and their replays. Replays are counted over
// all its traces against MaxReplays; anomalies are reported once per
// package (seen, keyed by site combination and pattern) whichever trace
// predicted them.
type testCheck struct {
	ctx       context.Context
	b         *testbin.Build
	cands     []driver.Candidate // the package's static candidates
	candIdx   *candIndex         // cands, indexed by line
	pkg, test string
	dir       string
	opt       Options
	rep       *Report
	seen      map[string]bool
	acct      *account  // the package's work
	cov       *coverage // if not nil, collects the sites each trace's goroutines ran

	replays, skipped int
	shareCut         bool            // replays stopped for a trace's share of the budget
	share            int64           // the least such share (qResult.share)
	lateCut, netCut  bool            // replays stopped for the package's budget, for the safety net
	lateLimit        int64           // the limit of the queue that stopped them for the budget
	reserveCut       bool            // later rounds' replays stopped at the budget less the reserve (qResult)
	reserve          int64           // that reserve
	found            int             // predictions of this test proved (now or by an earlier test)
	pruned           map[string]bool // keys whose replays failed in an earlier trace of this test
	notedCut         bool            // the note that a recording stopped at MaxEvents is made
	predicted        int             // predictions from its traces so far
	undiverged       int             // of them, replayed to another verdict than diverged, or not replayed
	diverged         []unorderedCand // race predictions whose replay diverged
	selAlts          *selectAlts     // which channel operations are select cases with an escape (leaks)
	relocks          *relockSites    // which reads decide a branch that locks a held mutex again (double locks)
	// skippedKeys, triedKeys: the site combinations of the predictions
	// not replayed, and of those replayed (qResult).
	skippedKeys, triedKeys map[string]bool
}

// baseline tells replay how the test fails without pecanvet's help, so
// that a replay is not credited with that failure.
func (c *testCheck) baseline(rt record.Test) {
	// As a replay states it (Options.Consequence: its skips and the
	// recording's log lines left out), so that the same failure compares
	// equal.
	o := c.opt.Replay
	if o.Src == "" && c.b != nil {
		o.Src = c.b.Dirs[c.pkg]
	}
	panicked, cons := o.Consequence(rt.Output, false)
	c.opt.Replay.Baseline = cons
	c.opt.Replay.BaselinePanicked = panicked
}

// queued is a trace of a test whose predictions wait in a replayQueue.
type queued struct {
	c     *testCheck
	preds []prediction
	flt   *filters
	path  string // the trace
	// handed: its outcome was settled once, and what settle takes now
	// is a hand-over's (settleHanded).
	handed bool
}

// predict predicts from the trace at path (the outcome of recording rt)
// and queues the predictions on q; settle takes their outcome.
func (c *testCheck) predict(q *replayQueue, rt record.Test, path string) *queued {
	if lateSkip(c.test, rt) {
		return nil
	}
	if rt.Events == 0 {
		if rt.Truncated != "" {
			kind := note.Trace
			if rt.TimedOut {
				kind = note.Timeout
			}
			c.rep.addNote(kind, c.pkg, c.test, "no events recorded (%s)", rt.Truncated)
		}
		return nil
	}
	// capNote: this run's note says where the recording stopped; else
	// the reading's cut is noted below.
	capNote := strings.HasPrefix(rt.Truncated, "cut at ") && !c.notedCut
	if capNote {
		c.notedCut = true
		ended := ""
		if record.EndedAtCap(rt) {
			ended = ", ending the test there,"
		}
		if strings.Contains(rt.Truncated, "goroutine") {
			// rt stopped where ReadPrefix would cut the trace.
			if ended == "" {
				ended = ","
			}
			c.rep.addNote(note.Trace, c.pkg, c.test, "recording stopped at %d events, before it named more than %d goroutines%s to bound time and memory; predicting from those", rt.Events, predict.MaxGoroutines, ended)
		} else {
			c.rep.addNote(note.Trace, c.pkg, c.test, "recording stopped at %d events%s to bound time and memory; predicting from those", rt.Events, ended)
		}
	}
	if oneGoroutine(rt) {
		// Nothing to predict, and no coverage (coverage.held wants two
		// goroutines): charged as its reading would be, so that the
		// budget admits what it did before.
		q.charge(predictCost(rt.Events, 0))
		c.opt.progress("check: %s %s: one goroutine active in %d events: nothing to predict", c.pkg, c.test, rt.Events)
		return nil
	}
	tr, cut, err := predict.ReadPrefixSized(path, predict.MaxEvents, rt.Events, rt.Objects)
	if err != nil {
		c.rep.addNote(note.Trace, c.pkg, c.test, "unreadable trace: %v", err)
		return nil
	}
	if c.cov != nil {
		c.cov.add(tr)
	}
	if !capNote && cut && len(tr.Goroutines) >= predict.MaxGoroutines && len(tr.Events) < predict.MaxEvents {
		c.rep.addNote(note.Trace, c.pkg, c.test, "trace of %d events cut to its first %d, before it names more than %d goroutines, to bound memory; predicting from those", rt.Events, len(tr.Events), predict.MaxGoroutines)
	} else if !capNote && cut {
		c.rep.addNote(note.Trace, c.pkg, c.test, "trace of %d events cut to its first %d to bound memory; predicting from those", rt.Events, len(tr.Events))
	}
	// The search proposes, for each site combination, its instances in
	// order; a combination already settled (by a test of an earlier
	// queue: keyVerdicts) is confirmed at once, and the queue skips one
	// settled by an earlier test of its own.
	dir := filepath.Join(c.dir, strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	// The directory is made for the trace's first prediction: most
	// traces give none (Go's race testdata: 360 tests, their perturbed
	// runs, and a mkdir and its removal each, on a loaded machine about
	// 0.3 s of pecanvet's 4 s of CPU).
	var dirErr error
	dirMade := false
	mkdir := func() bool {
		if !dirMade {
			dirMade = true
			if dirErr = os.MkdirAll(dir, 0o755); dirErr != nil {
				c.rep.addNote(note.Predict, c.pkg, c.test, "%v", dirErr)
			}
		}
		return dirErr == nil
	}
	var preds []prediction
	flt := newFilters(tr, c.opt)
	// The trace's steps, written once for all its predictions' schedules
	// as far as they need, made on the first one.
	var st *trace.ScheduleText
	var idx *stepIndex
	collect := func(a predict.Anomaly) bool {
		if c.seen[a.Key] {
			c.found++
			c.predicted++
			c.undiverged++
			return true
		}
		if c.pruned[a.Key] {
			// Tried from an earlier run of this test: a perturbed run is
			// for what that run did not show. (Within one trace, other
			// instances of a pruned key are still tried.)
			return false
		}
		if st == nil {
			if !mkdir() {
				return false
			}
			st = trace.NewScheduleText(tr, filepath.Join(dir, "steps"))
			idx = newStepIndex()
		}
		p, err := newPrediction(st, idx, a, filepath.Join(dir, fmt.Sprintf("p%d.schedule", len(preds)+1)))
		if err != nil {
			c.rep.addNote(note.Predict, c.pkg, c.test, "%v", err)
			return false
		}
		flt.rate(&p)
		p.endBlocked = rt.Passed && blockedAtEnd(tr, a)
		if p.resting = restsAtEnd(tr, a); p.resting {
			p.idle = idleAfter(tr, a)
		}
		preds = append(preds, p)
		c.predicted++
		return false
	}
	pstart := time.Now()
	// One trace's prediction is bounded by its work (predictMaxWork), the
	// package's by its budget: a search that blows up on one trace (conc's
	// iter tests, 11 goroutines over 60,000 events, once spent the whole
	// 5 minutes) must not leave the package's other tests unchecked. A
	// share of the budget in wall time did that too, but cut traces on a
	// loaded machine and not on an idle one (two caches' searches stopped
	// at 7.5 s while their packages took 11-15 s of 5 minutes), and made
	// findings come and go with the load; a bound on work cuts the same
	// searches everywhere.
	popt := predict.Options{Confirm: collect, Feasible: flt.feasible, Deadline: c.acct.net, Context: c.ctx, MaxWork: predictMaxWork, SelectAlt: c.selAlts.at, SelectLoopAlt: c.selAlts.atLoop, StopCase: c.selAlts.stopCase, Relock: c.relocks.at, Inversion: c.relocks.invAt}
	if cands := c.candIdx; cands != nil && cands.n > 0 {
		// Search first what the static analysis points at:
		// a search the trace's share cuts has looked at those.
		popt.Prefer = cands.onCandidate
	}
	res, err := predict.Run(tr, orderCapped(anomaliesOf(c.test, c.opt.Anomalies), len(tr.Events)), popt)
	if st != nil {
		if cerr := st.Close(); cerr != nil {
			c.rep.addNote(note.Predict, c.pkg, c.test, "%v", cerr)
			preds = nil
		}
	}
	c.rep.Time.Predict += time.Since(pstart)
	if res != nil {
		c.rep.Folded += res.Stats.Folded
		w := predictCost(res.Stats.Events, res.Stats.Work)
		q.charge(w)
		c.opt.progress("check: %s %s: predicted %d in %v: %d work units (%d events, %d search units)", c.pkg, c.test, len(preds), time.Since(pstart).Round(time.Millisecond), w, res.Stats.Events, res.Stats.Work)
	}
	if err != nil {
		c.rep.addNote(note.Predict, c.pkg, c.test, "%v", err)
		return nil
	}
	for _, w := range res.Warnings {
		if strings.Contains(w, "not all indexed") || strings.Contains(w, "without a feasible schedule") {
			// What the search left out, or gave up with its reason (the
			// other warnings are the engine's own bookkeeping).
			c.rep.addNote(note.Predict, c.pkg, c.test, "%s", strings.TrimPrefix(w, "search: "))
		}
	}
	if res.Cut != "" {
		why := "cancelled"
		if c.acct.netPast() {
			why = c.acct.netWhy()
		}
		if res.WorkCut {
			why = fmt.Sprintf("its trace's work bound (%d units of search and scheduling) reached", predictMaxWork)
		}
		c.rep.addNote(note.Budget, c.pkg, c.test, "%s while predicting; %s", why, res.Cut)
	}
	markUnordered(tr, preds)
	preds = distinctFirst(candidatesFirst(flt.order(preds), c.candIdx), max(0, c.opt.MaxReplays-c.replays))
	// Both write into dir, and give nothing without tr.Blocked.
	if len(tr.Blocked) > 0 && mkdir() {
		// The leaks the recorded run itself shows: nothing to predict.
		preds = append(preds, c.observed(tr, rt, dir, anomaliesOf(c.test, c.opt.Anomalies))...)
		// A run that hung for good: nothing to predict either.
		preds = append(preds, c.observedHung(tr, rt, dir, anomaliesOf(c.test, c.opt.Anomalies))...)
	}
	if len(preds) > 0 && !mkdir() {
		return nil
	}
	// The trace and the filter built on it (each the size of the trace
	// again) are not needed past ordering, while flt waits for the
	// package's replays to be counted: kept, they held every test's trace
	// of the package at once (ants: gigabytes).
	flt.tr, flt.f = nil, nil
	ropt := c.opt.Replay
	ropt.Clock = rt.Clock
	// Replays are counted over all of the test's traces.
	// Its replays may share a process with others' (replay.RunBatch) when
	// its trace was recorded in one too (it ends with the test function,
	// as such a replay's does) and the test did not pause for t.Parallel
	// (it would run on interleaved with the next replay).
	batch := rt.Batched && !c.opt.Alone && len(c.b.TestEnv(c.pkg, c.test)) > 0 && !strings.Contains(rt.Output, "=== PAUSE")
	q.addBatch(c.test, tr, preds, dir, max(0, c.opt.MaxReplays-c.replays), ropt, batch, record.EndedAtCap(rt))
	return &queued{c: c, preds: preds, flt: flt, path: path}
}

// oneGoroutine reports whether rt's trace has nothing to predict from: one
// goroutine did everything (the main goroutine only forked and joined the
// test's, and a goroutine forked but never run did nothing), and the test
// ended, or stopped at the event cap, rather than hanging. Every pattern
// (races, atomicity and atomic-set violations, lock-order and double-lock
// deadlocks, leaks, lost signals) needs events of two goroutines, and a
// test that ended left no goroutine blocked for the observed leaks
// (testCheck.observed: a blocked goroutine has a begin of its own, so it
// counts as active); a hang is observedHung's, so it is read. On miekg/dns
// 229 of its 333 recorded traces are such (parsers and packers, four of
// them stopped at the cap), 7.6 of its 7.9 million events: they were
// read, indexed and searched for nothing, and held memory while they were.
func oneGoroutine(rt record.Test) bool {
	return rt.Active == 1 && rt.Events <= predict.MaxEvents && !rt.TimedOut && (rt.Truncated == "" || strings.HasPrefix(rt.Truncated, "cut at "))
}

// predictMaxWork bounds a trace's prediction (predict.Options.MaxWork):
// the search polls every 4096 steps (and in its costlier loops), 1,000 to
// 30,000 times a second here, and a schedule over a trace of a million
// events counts 257 units. At 150,000 units (7.5 s of a search polling
// 20,000 times a second), ants's long traces (a million events through a
// thousand goroutines, polling about 2,000 times a second) took a minute
// each and left 51 of its 64 tests unchecked; 15,000 is about the former
// wall-clock share, Budget/40 (7.5 s), on those, and none is cut by load.
// At a wall-clock share of 15 s, a dozen
// of ants's long tests (a million events through a thousand goroutines,
// none giving a prediction in 15 s) took 3 of the package's 5 minutes in
// turn.
const predictMaxWork = 15_000

// settleHanded takes the outcome of the hand-over (handOver) of n of the
// trace's predictions, which settle had counted as not replayed: they
// count as the hand-over's outcome says. When they were all the test's
// predictions left unreplayed, the note's reason is the hand-over's.
func (qd *queued) settleHanded(r qResult, n int) {
	c := qd.c
	if c.skipped == n {
		c.shareCut, c.reserveCut, c.lateCut, c.netCut = false, false, false, false
		c.skippedKeys = nil
	}
	c.skipped -= n
	c.undiverged -= n
	qd.handed = true
	qd.settle(r)
}

// settle takes the outcome of a trace's queued predictions.
func (qd *queued) settle(r qResult) {
	c := qd.c
	var replayed []Finding
	for _, f := range r.findings {
		if !f.Inferred {
			replayed = append(replayed, f)
		}
	}
	if !qd.handed {
		// Counted once, with the trace's first outcome.
		qd.flt.count(qd.preds, replayed, c.rep)
	}
	c.skipped += r.skipped
	if c.skippedKeys == nil {
		c.skippedKeys, c.triedKeys = map[string]bool{}, map[string]bool{}
	}
	maps.Copy(c.skippedKeys, r.skippedKeys)
	maps.Copy(c.triedKeys, r.triedKeys)
	c.undiverged += r.skipped
	found := r.found
	for _, f := range r.findings {
		if p := f.Anomaly.Pattern; p != nil && p.Order {
			// An order violation's swap does not stand for the run's
			// other predictions: when they all diverged, the test is
			// recorded again all the same (wantsPerturbed), and the bug
			// its panic shows may be found as what it is (notifyhint's
			// check-then-act, whose order swap panics at the same
			// index; group puts the order violation under it).
			if f.Reproduced() {
				found--
			}
			continue
		}
		if f.Verdict.Verdict != replay.Diverged {
			c.undiverged++
		}
	}
	if r.shareCut && (!c.shareCut || r.share < c.share) {
		c.share = r.share
	}
	c.shareCut = c.shareCut || r.shareCut
	if r.lateCut {
		c.lateCut, c.lateLimit = true, r.limit
	}
	c.netCut = c.netCut || r.netCut
	if r.reserveCut {
		c.reserveCut, c.reserve = true, r.reserve
	}
	c.found += found
	c.rep.Doomed += r.doomed
	c.rep.Alike += r.alike
	c.rep.Reordered += r.reordered
	if c.pruned == nil {
		c.pruned = map[string]bool{}
	}
	for _, f := range r.findings {
		if !f.Inferred {
			c.replays++ // an inferred one took no place (replayQueue)
		}
		if !f.Reproduced() && !c.seen[f.Anomaly.Key] {
			// A diverged key stays open for a perturbed run: another
			// recording may take the path its schedule needs
			// (wantsPerturbed).
			if f.Verdict.Verdict != replay.Diverged {
				c.pruned[f.Anomaly.Key] = true
			}
			if f.Verdict.Verdict == replay.Diverged && f.unordered {
				c.diverged = append(c.diverged, unorderedCand{f: f, path: qd.path})
			}
		}
	}
}

// checkQueued predicts from each trace, in order, replays through one
// queue, and settles the outcomes in order. The steps are charged to acct
// and start under limit (work.go): each asks q.admit before a test and
// charges its recording with q.charge; the predictions charge themselves.
// The later replay rounds leave reserve under limit (replayQueue.reserve).
//
// If between is not nil, it is asked once each is done; a function it
// returns (then) is a phase that comes between the queue's first round
// and its later rounds: round 0 is waited for and settled, then runs
// (charging acct), and the predictions the shares cut are handed to the
// later rounds after its work (handOver, leaving reserve). The first
// runs' queue puts the early perturbed recordings there (checkTests):
// after all rounds, the flood tests' later rounds had taken the budget
// down to the reserve, and ants.go:539's children-first recording went
// unchecked under go vet (session 40).
//
// It returns the queue, done, when the budget cut some of its
// predictions (handable), for a hand-over (handOver); else nil.
func checkQueued(ctx context.Context, b *testbin.Build, pkg string, acct *account, limit, reserve int64, opt Options, seen map[string]bool, rep *Report, each func(q *replayQueue, predict func(c *testCheck, rt record.Test, path string)), between func() (then func())) *keptQueue {
	q := newReplayQueue(ctx, b, pkg, acct.net, opt, seen)
	q.limit, q.spent, q.reserve = limit, acct.spent, min(reserve, limit)
	if acct.keys != nil {
		q.keys = acct.keys
	}
	start := acct.spent
	var qs []*queued
	each(q, func(c *testCheck, rt record.Test, path string) {
		if qd := predictOn(c, q, rt, path); qd != nil {
			qs = append(qs, qd)
		}
	})
	var then func()
	if between != nil {
		then = between()
	}
	// settleAll waits for the queue and settles its traces' outcomes.
	settleAll := func() {
		q.wait()
		for i, r := range q.finish(seen, rep) {
			qs[i].settle(r)
		}
		acct.spent = q.total()
	}
	if then != nil {
		settleAll()
		rep.Work += acct.spent - start
		opt.progress("check: %s: %d of %d work units charged after the first replay round (this phase's limit %d)", pkg, acct.spent, acct.units, limit)
		then()
		start = acct.spent
		if reopened, ok := q.handOver(limit, acct.spent-q.total(), reserve); ok {
			for q.again() {
			}
			q.wait()
			for i, r := range q.finish(seen, rep) {
				if reopened[i] > 0 {
					qs[i].settleHanded(r, reopened[i])
				}
			}
			acct.spent = q.total() // then's work included (since)
		}
	} else {
		for q.again() {
		}
		settleAll()
	}
	rep.Work += acct.spent - start
	opt.progress("check: %s: %d of %d work units charged (this phase's limit %d)", pkg, acct.spent, acct.units, limit)
	q.mu.Lock()
	defer q.mu.Unlock()
	if slices.ContainsFunc(q.items, handable) {
		return &keptQueue{q: q, qs: qs}
	}
	return nil
}

// predictOn is testCheck.predict (a variable for tests of the phases'
// order: TestEarlyPerturbedBetweenRounds).
var predictOn = (*testCheck).predict

// keptQueue is a done replay queue whose budget cut predictions, and its
// traces (qs[i] is q.groups[i]'s).
type keptQueue struct {
	q  *replayQueue
	qs []*queued
}

// handOver is what a package's tests' phase leaves for after its
// generated drivers: the queues whose predictions the phase's limit cut
// (the drivers keep Budget/driverShare of the budget for themselves), and
// the tests, whose notes wait for the hand-over's outcome.
type handOver struct {
	queues []*keptQueue
	tcs    []*testCheck
}

// keep adds a queue checkQueued kept, if any.
func (h *handOver) keep(k *keptQueue) {
	if h != nil && k != nil {
		h.queues = append(h.queues, k)
	}
}

// run hands what the drivers left of the package's budget to the
// predictions the tests' phase cut, queue by queue in the phase's order
// (the first runs', then each perturbation seed's), each reopened in a
// next round of its queue under the whole budget (replayQueue.handOver),
// and then writes the tests' notes. It runs after the drivers, so that
// they keep their share: a driver added that charges nothing leaves the
// outcome as it was, and what the tests left the drivers already had
// (their phase runs under the whole budget).
func (h *handOver) run(acct *account, opt Options, seen map[string]bool, rep *Report) {
	if h == nil {
		return
	}
	for _, k := range h.queues {
		if acct.spent >= acct.units || acct.netPast() {
			break
		}
		q := k.q
		start := acct.spent
		reopened, ok := q.handOver(acct.units, acct.spent-q.total(), 0)
		if !ok {
			continue
		}
		for q.again() {
		}
		q.wait()
		for i, r := range q.finish(seen, rep) {
			if reopened[i] > 0 {
				k.qs[i].settleHanded(r, reopened[i])
			}
		}
		acct.spent = q.total()
		rep.Work += acct.spent - start
		opt.progress("check: %s: %d of %d work units charged after the hand-over", q.pkg, acct.spent, acct.units)
	}
	for _, tc := range h.tcs {
		if tc != nil {
			tc.notes()
		}
	}
}

// wantsPerturbed reports whether the test is to be recorded again under
// perturbed schedules (rt.EnvPerturb, seeds 1..Perturb): its first run rt
// left the predictions thin. That is: no trace of it so far gave a
// prediction (a prediction, even pruned, means the run did show accesses
// of two goroutines to reorder), rt had two goroutines or more doing
// something (not counting the main goroutine, which only forks and joins
// the test's), and rt is short (thinPerturb events: a long run is a large
// sample of interleavings, and recording it again costs as much). Such a
// run may have hidden the accesses that race: a goroutine took another
// branch because of the order the others ran in. The seeds are fixed, so
// what is tried is the same every time. A test that skipped itself (a
// generated driver whose calls do not return) is not recorded again.
//
// Measured on Go's race testdata and on the corpus, perturbed runs found
// nothing the first runs had not; this keeps them for the
// cases they are for at a fraction of the cost (all tests with two active
// goroutines and nothing proved: 19 s of 44 on the race testdata).
//
// A run in which the test forked a goroutine that never ran (rt.Unstarted)
// is recorded again whatever it gave: what that goroutine races with is
// absent from the trace, and odd seeds run children first.
//
// So is a run whose predictions all diverged (none proved, none ending
// otherwise, none left unreplayed): each replay showed that a goroutine
// takes another branch under the schedule, which is what a prediction
// from another run could follow. The corpus's condcount shows its lost
// signal only when its producers finish in their sleeps' order; on a
// loaded machine (load 40 on 2 cores) the 60 ms producer finished after
// the 100 ms one in about 1 run of 4, and from that run both lost-signal
// schedules diverged (the last signaller's append changes the
// consumer's check), so the bug came and went with the recording.
// Another recording fails the same way only as often again.
//
// So is a run in which a goroutine signalled or broadcast a Cond while a
// child it had just forked had not begun, and no Wait on that Cond is in
// the trace (rt.EarlyNotify), whatever the run proved and however long it
// took: the children that could have waited began after the notify, so
// no lost signal can be predicted from it, and children first (seed 1,
// perturbEnv) has them reach their Waits first. ants' TestPoolTuneScaleUp
// forks five submitters and goes on at once to Tune's Broadcast; its
// first runs reproduced ants.go:380's av without effect (found > 0),
// placed no Wait at ants.go:539 in 3 of 3 recordings, and its own wall
// under load passed slowPerturb, so the lost signal came and went with
// the recording. The rule only adds a recording (every report is still a
// replay's), narrowly: on ants' 64 tests it picked 8 thin ones (a
// Release's or Tune's notify right after Submits forked workers), against
// 19 for any goroutine not begun at the notify, and its gate is the
// trace's events, not the load-dependent wall time.
//
// early asks before any replay has run: then only what the first run
// and its prediction count decide (the all-diverged case needs the
// replays, and before them every predicting run looks all-diverged).
func (c *testCheck) wantsPerturbed(rt record.Test, early bool) bool {
	// A run that hung (every goroutine blocked: rt/hang.go) took its
	// wall time waiting for the hang to be sure, not running the test.
	// Its trace ends in the hang, so it holds the path around it only if
	// the hang is an anomaly already, and nothing to predict from:
	// lockstop's poller, whose timer fired while Stop held the lock,
	// hung in 2 of 10 recordings under load and was then not reported.
	hung := strings.HasPrefix(rt.Truncated, "hung: ")
	// A slow run whose parent made a bulk copy before its child began
	// (record.Test.BulkBeforeChild) is not slow for waiting: children
	// first moves the child ahead of the copy, which then records the
	// parts the child touched. Go's TestRaceNestedArrayCopy copies 8 MB
	// (0.55 s uninstrumented) and was missed whenever its child began
	// after the copy (session 33: 4 runs of 4).
	if c.opt.Perturb <= 0 || rt.Skipped || rt.Events >= thinPerturb {
		return false
	}
	// A Cond notified before a forked goroutine began and never waited
	// on (record.Test.EarlyNotify) is recorded again whatever the run
	// proved, and whatever its wall time: the gate is the trace's events
	// (thinPerturb), which the load does not change, where the wall time
	// does (ants' TestPoolTuneScaleUp, ~2,600 events: 0.1 s alone and
	// idle, 0.57 s beside two flood tests at load 35, session 39).
	if rt.EarlyNotify > 0 {
		return true
	}
	slow := rt.OwnWall() >= slowPerturb && !hung && rt.BulkBeforeChild == 0
	if slow {
		return false
	}
	allDiverged := !early && c.predicted > 0 && c.undiverged == 0
	return rt.Unstarted > 0 || c.found == 0 && (c.predicted == 0 || allDiverged) && rt.Active >= 2
}

// thinPerturb bounds the events of a run that wantsPerturbed calls thin.
const thinPerturb = 1 << 16

// slowPerturb bounds the wall time of a run recorded again perturbed (the
// test's own, record.Test.OwnWall: not the process's start). A
// slow run is a test waiting on timers (pond's StopAndWaitFor, 1.2 s):
// recording it again costs as much, and a perturbation's small delays at
// the gates barely change what runs in those waits. pond's perturbed
// recordings took 2 s of its 6.5 s check.
const slowPerturb = 250 * time.Millisecond

// recordPerturbed records tests[i] for each i in idx under perturbation
// seed: the test functions in one process (record.RecordBatch) per
// perturbation (perturbEnv), the rest, and what that process cannot vouch
// for, each alone. The traces go beside the first runs'.
func recordPerturbed(ctx context.Context, b *record.Recorder, pkg string, tests []string, firsts []record.Test, idx []int, scratch string, seed int, opt Options) map[int]record.Test {
	path := func(ti int) string {
		return filepath.Join(scratch, fmt.Sprintf("t%d", ti), "record.p"+strconv.Itoa(seed)+".trace")
	}
	out := map[int]record.Test{}
	var omu sync.Mutex
	// The recordings alone run beside the batches, at most GOMAXPROCS at
	// once: conc/pool's three tests of parallel subtests took 5.4 s one
	// after the other (2.3 s, 1.5 s, 1.7 s), after a batch that could
	// not vouch for them.
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	alone := func(ti int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			env, how := perturbEnv(seed, firsts[ti]), ""
			if len(env) > 1 {
				how = ", parents first"
			}
			opt.progress("check: %s %s: recording, perturbed (seed %d%s)", pkg, tests[ti], seed, how)
			t := b.RecordTestEnv(ctx, pkg, tests[ti], path(ti), opt.Timeout, env)
			omu.Lock()
			out[ti] = t
			omu.Unlock()
		}()
	}
	batch := map[string]chan record.BatchResult{}
	groups := map[string][]string{} // batchable tests, by environment
	for _, ti := range idx {
		if paused(firsts[ti]) {
			// Its first run paused for t.Parallel (the test or a
			// subtest): no batch vouches for it (RecordBatch), so it
			// goes alone at once.
			alone(ti)
			continue
		}
		if record.Batchable(tests[ti]) && !opt.Alone {
			k := strings.Join(perturbEnv(seed, firsts[ti]), " ")
			groups[k] = append(groups[k], tests[ti])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		names := groups[k]
		if len(names) < 2 {
			continue
		}
		dir := filepath.Join(scratch, fmt.Sprintf("batch.p%d.%d", seed, len(batch)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			continue
		}
		chs := map[string]chan record.BatchResult{}
		for _, n := range names {
			chs[n] = make(chan record.BatchResult, 1)
			batch[n] = chs[n]
		}
		b.RecordBatches(ctx, pkg, names, dir, opt.Timeout, strings.Fields(k), chs, runtime.GOMAXPROCS(0), 4)
	}
	for _, ti := range idx {
		if paused(firsts[ti]) {
			continue // recording alone already
		}
		if ch := batch[tests[ti]]; ch != nil {
			if t, ok := takeBatch(ch, path(ti)); ok {
				omu.Lock()
				out[ti] = t
				omu.Unlock()
				continue
			}
		}
		alone(ti)
	}
	wg.Wait()
	return out
}

// paused reports whether the test paused for t.Parallel in its run rt, or
// one of its subtests did: a batch of tests cannot vouch for its
// recording (record.RecordBatch).
func paused(rt record.Test) bool { return strings.Contains(rt.Output, "=== PAUSE") }

// perturbEnv is the environment of a recording of a test under seed whose
// first run was first. An odd seed runs the goroutines in the order at go
// statements farther from the first run's: children first, or parents
// first (rt.EnvParentsFirst) when the first run's parents went on with
// more operations after their children began than before (and no
// goroutine was left unstarted, which children first is for). The
// corpus's notifyhint ran its loop goroutine's first round before the
// test's first Add in 1 to 3 of 12 first runs under load; its predictions
// then all diverged, and so did those of its children-first run, the same
// order. Odd seeds after the first alternate (3 the nearer order, 5 the
// farther, and so on), so that -perturb 3 tries both.
func perturbEnv(seed int, first record.Test) []string {
	env := []string{"PECANVET_PERTURB=" + strconv.Itoa(seed)}
	// A bulk copy before a child began wants the child first (seed 1),
	// and so does a notify before a child began (EarlyNotify): the child
	// is to reach its Wait before the notify.
	nearerChildren := first.RunOnAfter > first.RunOnBefore && first.BulkBeforeChild == 0 && first.EarlyNotify == 0
	if seed%2 == 1 && first.Unstarted == 0 && nearerChildren != (seed/2%2 == 1) {
		env = append(env, "PECANVET_PARENTS_FIRST=1")
	}
	return env
}

// notes adds the notes about bounds hit.
func (c *testCheck) notes() {
	if c.skipped > 0 {
		why := fmt.Sprintf("-maxreplays %d", c.opt.MaxReplays)
		switch {
		case c.netCut:
			why = c.acct.netWhy()
		case c.shareCut:
			why = fmt.Sprintf("its replays took their share of the budget, %d work units (%s)", c.share, shareWhy(c.share, c.opt.Budget))
		case c.reserveCut && c.reserve > 0:
			why = fmt.Sprintf("the later replay rounds stop where a replay would end past the budget less %d work units held for the perturbed recordings and the race detector", c.reserve)
		case c.reserveCut:
			why = "the budget left was less than a replay's charge"
		case c.lateCut:
			why = fmt.Sprintf("budget of %v spent (%d work units)", c.opt.Budget, c.acct.units)
			if c.lateLimit > 0 && c.lateLimit < c.acct.units {
				// A phase's limit (the tests' leave the drivers theirs).
				why = fmt.Sprintf("budget of %v spent (this phase's limit, %d of its %d work units)", c.opt.Budget, c.lateLimit, c.acct.units)
			}
		}
		// Say whether the cut left site combinations untried, or only
		// further instances of combinations whose replays here proved
		// nothing (resenje.org/singleflight's TestDo_concurrentAccess:
		// 196, of 3 double-lock combinations replayed 101 times, each
		// diverging).
		untried := 0
		for k := range c.skippedKeys {
			if !c.triedKeys[k] && !c.seen[k] {
				untried++
			}
		}
		what := fmt.Sprintf(": more instances of %d site combinations already replayed here without a proof", len(c.skippedKeys))
		if untried > 0 {
			what = fmt.Sprintf(", of %d site combinations, %d of them never replayed", len(c.skippedKeys), untried)
		}
		c.rep.addNote(note.Replays, c.pkg, c.test, "%d predictions not replayed (%s)%s", c.skipped, why, what)
	}
}

// replayRetrying is replay.Run, once more with a longer stall bound when
// the goroutine whose turn it was never reached a gate: on a loaded
// machine it may just have been slow, and a stall verdict would then
// depend on the load.
func replayRetrying(ctx context.Context, b *testbin.Build, pkg, test string, p prediction, dir string, o replay.Options) replay.Verdict {
	run := func(dir string) replay.Verdict {
		if p.s != nil {
			return replayRun(ctx, b, pkg, test, p.s, dir, o)
		}
		if err := p.writeFile(); err != nil {
			return replay.Verdict{Verdict: replay.Ended, Message: "writing the schedule: " + err.Error(), Steps: p.steps}
		}
		return replay.RunFile(ctx, b, pkg, test, p.file, p.steps, dir, o)
	}
	v := run(dir)
	if stalledOnLate(v, p) && ctx.Err() == nil {
		o.Stall = 4 * stallOf(o)
		first := v.Step
		v = run(dir + "-retry")
		v.Stalled = stalledOnLate(v, p) && v.Step == first && ctx.Err() == nil
	}
	for i := 1 + p.wrongRuns; i < wrongObjectRuns && v.Verdict == replay.WrongObject && !p.wrongAlike(v) && ctx.Err() == nil; i++ {
		v = run(fmt.Sprintf("%s-again%d", dir, i))
	}
	return v
}

// replayRun is replay.Run (a variable for tests).
var replayRun = replay.Run

// wrongObjectRuns is how many times a schedule whose replay touched other
// objects than the prediction's is replayed in all. Go starts every range
// over a map at a random entry, and the schedule names the n-th access at
// a site in the range's body, not the entry: in a replay the n-th access
// can touch another entry than it did in the recording. cache2go's
// generated driver (MostAccessed, whose range reads each item's
// accessCount, against Value's KeepAlive) lost its race to a wrong-object
// replay in about 1 run of 8: a two-item map's order comes out reversed
// that often. Another run of the same schedule usually ranges in the
// recorded order; a mismatch of another cause stays one, at the cost of
// these few replays (wrong-object verdicts are rare: 3 of 219 replays of
// cache2go). A run that touched other objects as an earlier instance of
// its combination did after all its runs (prediction.wrongShape) is not
// run again: that mismatch is the combination's, not chance.
const wrongObjectRuns = 4

// stalledOnLate reports whether replay v stopped because nothing moved for
// the stall bound while the goroutine owning the awaited step was not
// waiting at any gate (it had not got there yet, rather than being held).
func stalledOnLate(v replay.Verdict, p prediction) bool {
	if v.Verdict != replay.Deadlock || !strings.HasPrefix(v.Message, "nothing moved") || v.Step < 1 {
		return false
	}
	g := p.stepG(v.Step)
	if g == "" {
		return false
	}
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

// candIndex indexes a package's static candidates by the lines of their
// sides, for onCandidate: the search asks it once per combination of
// sites it meets (search.Options.Prefer), and a scan of every candidate's
// sides for each site's line was 37% of the check's CPU on
// go-datastructures' btree/immutable (hundreds of candidates, tens of
// thousands of combinations per trace).
type candIndex struct {
	n    int
	side [2]map[string][]int32 // line ("path:line") → candidates with it on that side
}

func newCandIndex(cands []driver.Candidate) *candIndex {
	x := &candIndex{n: len(cands), side: [2]map[string][]int32{{}, {}}}
	for i, c := range cands {
		for k := range c.Sides {
			for _, l := range c.Sides[k] {
				if ids := x.side[k][l]; len(ids) == 0 || ids[len(ids)-1] != int32(i) {
					x.side[k][l] = append(ids, int32(i))
				}
			}
		}
	}
	return x
}

// onCandidate reports whether sites have one on each side of some
// candidate (onSides).
func (x *candIndex) onCandidate(sites []string) bool {
	if x == nil || x.n == 0 {
		return false
	}
	var buf [8]string
	lines := buf[:0]
	for _, s := range sites {
		lines = append(lines, lineOf(s))
	}
	for _, a := range lines {
		for _, c := range x.side[0][a] {
			for _, b := range lines {
				if slices.Contains(x.side[1][b], c) {
					return true
				}
			}
		}
	}
	return false
}

// candidatesFirst moves the predictions whose sites are a static
// candidate's (one on each of its sides) before the others, keeping the
// order within each part: the replays the static analysis points at are
// the ones a tight budget or -maxreplays should not leave out. All the
// instances of a site combination go to the same part, in their order,
// so which instance of a combination is replayed first does not change.
func candidatesFirst(preds []prediction, cands *candIndex) []prediction {
	if cands == nil || cands.n == 0 {
		return preds
	}
	var first, rest []prediction
	for _, p := range preds {
		if cands.onCandidate(p.a.Sites) {
			first = append(first, p)
		} else {
			rest = append(rest, p)
		}
	}
	return append(first, rest...)
}

// distinctFirst moves the first instance of each site combination before
// the later instances of any, keeping the order within each part, when
// the trace has more predictions than n, the replays it may make: a
// combination whose instances diverge one after the other then cannot
// spend the trace's replays before a combination further down the list
// is tried at all. On amirylm/lockfree v0.0.4's TestStack_Concurrency_Bytes
// (341 predictions over about 60 combinations) the default 100 replays
// went to a few av combinations' diverging instances, 38 combinations
// were never replayed, and stack.go:46's asv, a true capacity race, was
// reported only with -maxreplays 400 (issue 30). The instances of one
// combination keep their order, so which instance comes first is the
// same; with n or fewer predictions nothing moves, so no trace the
// replays do not cut changes.
func distinctFirst(preds []prediction, n int) []prediction {
	if len(preds) <= n {
		return preds
	}
	seen := map[string]bool{}
	first := make([]prediction, 0, len(preds))
	var rest []prediction
	for _, p := range preds {
		if seen[p.a.Key] {
			rest = append(rest, p)
			continue
		}
		seen[p.a.Key] = true
		first = append(first, p)
	}
	return append(first, rest...)
}

// lateSkip reports whether rt is a generated driver's run that skipped
// after its calls ran together (driver.LateSkipLog): its later serial
// orders panicked or did not return. With the oracle run first, as
// drivers did before issue 30, such a run skipped before the calls ran
// together and its trace held nothing of them; nothing is predicted from
// it now either, nor counted as reaching a candidate: replayed, a call's
// panic would end the process unjudged, an effect where the orders say
// there is no usable oracle.
func lateSkip(test string, rt record.Test) bool {
	return strings.HasPrefix(test, driver.Prefix) && driverSkip(rt) != "" && strings.Contains(rt.Output, driver.LateSkipLog)
}

// staleRead is the check-then-act of two calls whose recorded run is
// sequential (issue 27's ledger: deposit 10, withdraw 7 twice): the second
// call's check read the first call's debit and failed, so neither call's
// trace holds a write between the other's check and debit, and no
// atomicity pattern matches. Moving the second check before the first
// debit makes it read the balance before the debit: its goroutine then
// takes another path, the program runs free, and the schedule counts only
// if the driver's oracle fails (replay's interrupted verdict). The
// interleaving is serializable as recorded, so outside a driver, whose
// oracle is the effect, it would only cost replays. It is the builtin
// av/RRW without its acting option (any read, not only an atomic load
// at an acting site), under a name of its own.
var staleRead = pattern.MustParse("av/RRW-stale atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-r-w")

// maxOrderEvents bounds the traces whose order violations are predicted:
// each is a replay of the whole test, and most prove nothing (the other
// serial order of two sections is usually as good as the recorded one),
// while a long trace's test is a long replay: x/sync's TestWeighted
// (200,023 events) replayed one swap for 5.5 s, which made the module's
// go vet 1.5 times slower. The bound is on the trace, not the clock, so
// the same recording predicts the same swaps on any machine.
const maxOrderEvents = 100_000

// orderCapped is pats without the order patterns for a trace of n events
// over maxOrderEvents.
func orderCapped(pats []*pattern.Pattern, n int) []*pattern.Pattern {
	if n <= maxOrderEvents {
		return pats
	}
	return withoutOrder(pats)
}

// withoutOrder is pats without its order patterns: pats itself when it
// has none, else a copy.
func withoutOrder(pats []*pattern.Pattern) []*pattern.Pattern {
	order := func(p *pattern.Pattern) bool { return p.Order }
	if !slices.ContainsFunc(pats, order) {
		return pats
	}
	return slices.DeleteFunc(slices.Clone(pats), order)
}

// anomaliesOf is the patterns predicted in test's traces: a generated
// driver's also get staleRead, when the atomicity violations are asked
// for, and not the order patterns: a driver's two calls one after the
// other, in either order, are the package's sequential use, which may
// panic by contract in one of them (ttlcache's drivers had 5 order
// predictions of their 9 replays).
func anomaliesOf(test string, pats []*pattern.Pattern) []*pattern.Pattern {
	if !strings.HasPrefix(test, driver.Prefix) {
		return pats
	}
	pats = withoutOrder(pats)
	av := false
	for _, p := range pats {
		if p.Kind == "av" {
			av = true
		}
		if p.Kind == staleRead[0].Kind && p.Name == staleRead[0].Name {
			return pats
		}
	}
	if !av {
		return pats
	}
	return append(pats[:len(pats):len(pats)], staleRead[0].Clone())
}
