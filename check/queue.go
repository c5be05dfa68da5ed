package check

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/replay"
)

// replayQueue replays the predictions of many traces of a package (the
// tests' first runs, or their runs under one perturbation seed), up to
// GOMAXPROCS at a time across tests, with the outcome of checking the
// traces one after the other, each replaying its predictions in order.
// A replay takes tens of milliseconds, mostly starting the process, and
// most tests have one or two predictions: replaying a test at a time
// leaves cores idle, and the package's time becomes the sum of its
// replays' latencies.
//
// The order is what makes the outcome independent of timing. The queue
// holds the predictions of all traces in order (trace by trace, each in
// the order it is to be replayed); an instance of a site combination
// starts only once every earlier instance, of any trace, was pruned, so a
// combination settled by an earlier test (reported: keyVerdicts) is not
// replayed again, as it would not have been proposed; and an instance starts only when it is
// surely among the first MaxReplays needed of its trace. A schedule the
// same trace already replayed (another instance with the same steps) is
// not replayed again. Nor is one whose schedule begins with the steps an
// earlier replay of the same trace failed within (failure): it is
// inferred, takes no place among MaxReplays, and is decided only from
// final replays, so that too is the sequential outcome. After a final
// replay stalled on a root that had not started, a probe (probe.go)
// replays a deeper schedule of the trace before the rest of it, as if it
// came next. Findings are taken trace by trace, in order, by finish.
type replayQueue struct {
	ctx      context.Context
	b        *testbin.Build
	pkg      string
	deadline time.Time // the safety net's (account.net): past it, nothing more starts
	opt      Options
	seen     map[string]bool // proved before this queue; read-only here
	workers  int
	// limit is the work (units) the queue's steps may start under, 0 for
	// none; share, a trace's replays' at most (shareUnits), and
	// shareMin, at least (fairShare). See work.go.
	limit, share, shareMin int64
	// reserve: the work the later rounds (again) leave under limit for
	// the phases after the queue (the perturbed recordings, the race
	// detector's confirmation): a later round's replay starts only if
	// its charge ends at limit-reserve or before (roundLimit).
	reserve int64
	// held: what limit already leaves under its phase's for the phases
	// after (the race detector's charge, below the perturbed
	// recordings'), for the notes.
	held int64
	// left: the tests left to check, the next one included (setLeft); 0:
	// not known, each trace's share is q.share.
	left int
	// round: the replay round (again): 0, each trace's predictions up to
	// its share; later rounds, the predictions the shares cut, with what
	// the earlier rounds left. base: the work charged before the round's
	// replays (all but theirs, exact: the earlier rounds are final).
	round int
	base  int64
	// handRound: the round the hand-over began (handOver), 0 for none:
	// finish and the controls take only the items of it and after.
	handRound int

	mu    sync.Mutex
	cond  *sync.Cond
	items []*qItem
	byKey map[string][]int // item indices of each site combination
	// bySite: item indices by anomaly site, each item once per site
	// (relatedWrongPending).
	bySite  map[string][]int
	groups  []*qGroup
	running int
	// crowded: more than one process of the package ran at a time (two
	// replays or controls, or a recording beside a replay): a test's
	// failure may then be another process's doing (aloneRepeat).
	crowded bool
	// recording, if not nil, is closed when the recordings started
	// beside the queue's replays (earlyPerturbed) are done.
	recording <-chan struct{}
	from      int             // items before it are all decided
	proved    map[string]bool // site combinations settled here (keyVerdicts)
	// keys: the package's combinations' verdicts, across its queues.
	keys *keyVerdicts
	// hung: site combinations of blocking patterns (deadlock, leak, wg)
	// whose replay hit the wall-clock bound here. Another test's instance
	// is not replayed: such a replay runs its whole bound (30 s) when
	// something outside the schedule keeps moving (a ticker, a purging
	// goroutine), and the tests of one package share those helpers (on
	// ants, one lost signal timed out in each of its five WaitToGetWorker
	// tests: 150 s of a package's budget for nothing).
	hung     map[string]bool
	replays  int
	replayed time.Duration
	// spent: the work charged before the queue (account.spent) and the
	// recordings and predictions charged since (charge), in order.
	spent int64
	// explore: per test, its explorations (replay.Options.Explore):
	// permits held by running replays, and explorations done.
	explore map[string]*exploreBudget
	alts    selectAlts // the package's test timeouts (timedOutLeak)
	// unmeant reports whether test is a generated driver of a type not
	// meant for concurrent use, whose findings are not reported with or
	// without an effect (Finding.WithoutEffect): no repeat (nil: none).
	unmeant func(test string) bool
}

// exploreBudget bounds a test's explorations (maxExplorations).
type exploreBudget struct{ held, used int }

// maxExplorations bounds the explorations of one test: replays that,
// after a changed read, let the program run free past a divergence
// (replay.Options.Explore). An exploration that fails the test is run
// exploreRuns times in all, and one that passes costs the rest of the
// test's run instead of the divergence's exit (a hang: up to the free
// run's 2 s quiet bound). divergecta explores twice (its av/RWR and an
// asv-11 whose schedule shares the reversed check), both failing; a test
// whose predictions diverge by the dozen (a loop reading the shared state
// each round) would otherwise spend its replay share on free runs. Four
// keep a test's extra cost under four test runs plus eight
// confirmations (TestExploreBound).
const maxExplorations = 4

// exploreRuns is how many times in all a failing exploration runs: its
// free run is not controlled, so the failure counts only if it repeats
// in each (Same input, same output).
const exploreRuns = 3

// explorePermit reports whether item it's replay may explore, and takes
// the permit if so (q.mu held): a replay holds one while it runs, and
// gives it back unless it explored, so that at most maxExplorations of a
// test's replays explore, whatever runs in parallel.
func (q *replayQueue) explorePermit(it *qItem) bool {
	if it.permit {
		return true
	}
	if q.explore == nil {
		q.explore = map[string]*exploreBudget{}
	}
	b := q.explore[it.g.test]
	if b == nil {
		b = &exploreBudget{}
		q.explore[it.g.test] = b
	}
	if b.held+b.used >= maxExplorations {
		return false
	}
	b.held++
	it.permit = true
	return true
}

// exploreDone returns item it's permit, counting an exploration if v is
// one (q.mu held).
func (q *replayQueue) exploreDone(it *qItem, v *replay.Verdict) {
	if !it.permit {
		return
	}
	it.permit = false
	b := q.explore[it.g.test]
	b.held--
	if v != nil && v.Explored {
		b.used++
	}
}

// qGroup is the predictions of one trace.
type qGroup struct {
	test string
	// batch: its replays may run in a process with others (replay.RunBatch):
	// the test starts its recording with itself, did not pause for
	// t.Parallel, and its trace has one root (no goroutine started by
	// uninstrumented code, which a later replay in the process could see).
	batch bool
	dir   string
	max   int // replays at most
	ropt  replay.Options
	// capped: the recording stopped at its event cap and ended the test
	// there (record.EndedAtCap): no recorded outcome of its checks.
	capped bool
	// freeBound: its schedule replays' replay.Options.FreeBound (not its
	// controls' and probes', which compare how the test ends with the
	// schedule's replay and take it whole, as before).
	freeBound int64
	first     int // index of its first item
	n         int
	same      map[[sha256.Size]byte][]int // schedule text's sum → its items, in order
	// before is the work charged before its replays in the sequential
	// order, but for the earlier traces' replays (replayQueue.spent when
	// it was added).
	before int64
	// share: its replays' share of the budget (fairShare), 0 for none;
	// rshare, their share in a later round (again), of the replays of
	// that round only; cutAt: the share that cut it last (the note's).
	share, rshare, cutAt int64
	// Past the trace's share of the budget, the package's budget or the
	// safety net, its other predictions are dropped (workCut).
	shareCut, lateCut, netCut bool
	dooms                     []doom        // learned from its replays that deadlocked outside recorded operations
	sleeps                    []sleepWindow // the trace's test sleeps (testSleeps), for controlled
	fails                     []failure     // of its final items, in order
	// reserveCut: in a later round, past the limit less the reserve, or
	// a replay's charge would have ended past it (again).
	reserveCut bool
	// probes: how many it ran (probe); reached: by root, the fewest
	// steps before its first step of a probe's schedule that got past it.
	probes  int
	reached map[string]int
}

// A trace's replays may take Budget/replayShare of the budget's work in
// all, and at least replayShareMin's: on ants, the replays of each of a dozen long
// tests (a million steps through a thousand goroutines, every one
// failing after 5 to 30 s) took the package's whole budget in turn, and
// the tests after them were never checked. As for prediction (predictMaxWork),
// one trace must not take what the package's other tests need.
const replayShare = 10

const replayShareMin = 10 * time.Second

// shareUnits is a trace's replays' share of a budget, in work units: the
// most a trace's replays take (fairShare may give less).
func shareUnits(budget time.Duration) int64 {
	return workOf(max(replayShareMin, budget/replayShare))
}

// A trace's replays' share is also at most its fair part of what is left:
// the budget less the work charged before it in the sequential order, but
// for the earlier traces' replays (qGroup.before), over the tests left to
// check, its own included (replayQueue.left); and at least
// Budget/fairShareDiv, so that a test with a few replays keeps them (a
// hundred small ones, on Go's race testdata). On ants (76 tests), twelve
// tests near the front start 700 to 1,000 goroutines (six record a
// million events), and a replay of theirs charges 1,000 to 20,000 units:
// with the fixed share each took up to 51,000, and in one of four pinned
// runs the package spent its budget with 36 tests unchecked, among them
// the three whose races are true bugs. The part depends only on work
// charged in order and on how many tests are left, so the cut is as
// deterministic as the fixed share's. What the parts leave unspent goes
// back to the traces they cut, in later rounds after the last test's
// (again).
const fairShareDiv = 100

// The later replay rounds (again) of a phase's queue leave
// Budget/reserveDiv under its limit for the phases after it: the
// perturbed recordings of the tests whose first runs proved nothing,
// their predictions and replays, and the race detector's confirmation
// (raceRuns runs of each test holding a pair, raceRunUnits each). In one
// of two ants runs of session 36 the rounds spent the tests' phase to
// its limit (463,617 of 459,000 units) and the race detector's one pair
// was not checked; main's fixed shares had left those phases 50,000 to
// 75,000 units. Round 0 does not leave it: a test's first replays come
// before any later phase.
const reserveDiv = 100

// reserveUnits is the reserve of a budget, in work units.
func reserveUnits(budget time.Duration) int64 { return workOf(budget / reserveDiv) }

// fairShare is the share of a trace's replays (qGroup.share) with before
// charged ahead of them but for the earlier traces' replays, left tests
// to check (0: not known, the fixed share alone), under a limit, a fixed
// share most and a floor least.
func fairShare(limit, before int64, left int, most, least int64) int64 {
	if most <= 0 || limit <= 0 || left <= 0 {
		return most
	}
	return min(most, max(least, (limit-before)/int64(left)))
}

// Why an item is not to start (workCut): cutNo, it may; cutMaybe, it
// cannot be told yet (earlier replays are not final); the others, it is
// dropped.
const (
	cutNo = iota
	cutMaybe
	cutLate  // the package's budget is spent
	cutShare // its trace's replays took their share
	cutNet   // the safety net
)

// workCut says whether item it (of round 0) may start, with lo and hi
// bounding the work charged before it in the sequential order (the
// earlier traces' replays and its trace's earlier ones), and gLo, gHi its
// trace's replays' before it (q.mu held): only if its own charge
// (replayCost) ends under the limit too, as a later round's, so that a
// phase's replays do not run past its limit (one started just under it
// did: session 37's 459,993 of 459,000). What is charged is a function
// of the earlier replays' outcomes, not of their time: an item waits for
// them to be final when that decides, so the items dropped are those a
// check replaying one at a time would drop.
func (q *replayQueue) workCut(it *qItem, lo, hi, gLo, gHi int64) int {
	return q.workCutOf(q.limit, it.g.before+it.cost, it.g.share, lo, hi, gLo, gHi)
}

// workCutOf is workCut under limit, with before charged ahead of lo and
// hi, and a share of the trace's replays (again: a later round's, with
// gLo and gHi that round's replays, and before including the item's own
// charge, so that it starts only if it ends under limit).
func (q *replayQueue) workCutOf(limit, before, share, lo, hi, gLo, gHi int64) int {
	switch {
	case q.netPast():
		return cutNet
	case limit > 0 && before+lo >= limit:
		return cutLate
	case share > 0 && gLo >= share && limit > 0 && before+hi >= limit:
		// Over its share, and maybe over the package's budget once the
		// replays before it are final: which of the two cut it (what the
		// note says) waits for them.
		return cutMaybe
	case share > 0 && gLo >= share:
		return cutShare
	case limit > 0 && before+hi >= limit, share > 0 && gHi >= share:
		return cutMaybe
	}
	return cutNo
}

// itemCharge bounds the work item i's replays charge (q.mu held): lo
// what it surely does, hi what it may. A replay that an earlier one's
// failure or doom covers charges nothing (it takes no place); a failing
// exploration charges its confirmations too; the time either took does
// not count.
func (q *replayQueue) itemCharge(i int) (lo, hi int64) {
	it := q.items[i]
	switch it.state {
	case pOpen, pNeeded, pRunning:
		runs := int64(1)
		if it.permit || it.state != pRunning && q.mayExplore(it) {
			runs = exploreRuns
		}
		return 0, it.cost*runs + quietUnits
	case pDone:
		if it.inferred > 0 || q.doomed(i) {
			return 0, 0
		}
		c := it.cost*int64(1+it.confirms) + quietCharge(it.v)
		plo, phi := q.probeCharge(it)
		if it.final {
			return c + plo, c + phi
		}
		return 0, c
	}
	return 0, 0
}

// quietCharge is what replay verdict v charges beside its replay's
// cost: quietUnits for a deadlock judged by the quiet bound (what waits
// outside recorded operations had that long to move), else nothing.
func quietCharge(v replay.Verdict) int64 {
	if v.Verdict == replay.Deadlock && strings.Contains(v.Message, quietWake) {
		return quietUnits
	}
	return 0
}

// quietWake is in the message of a deadlock verdict judged by the quiet
// bound (dynamic/rt's quiescent).
const quietWake = "only a timer or I/O could still wake"

// mayExplore reports whether item it's replay could get an exploration
// permit (q.mu held): a permit held now may come back.
func (q *replayQueue) mayExplore(it *qItem) bool {
	b := q.explore[it.g.test]
	return b == nil || b.used < maxExplorations
}

// permitPending reports whether item it's replay is to wait before it
// starts (q.mu held): every permit of its test is taken, but one held by
// a running replay comes back if that replay does not explore. Started
// now, it would not explore where the sequential order lets it; which
// replays explore would then depend on which replay's goroutine got the
// lock first (TestExploreBound failed 14 of 100 runs at -cpu=2: a
// reproduced replay still held its permit while the test's other six
// replays started, so the test explored 3 times, not 4).
func (q *replayQueue) permitPending(it *qItem) bool {
	b := q.explore[it.g.test]
	return !it.permit && b != nil && b.held > 0 && b.used < maxExplorations && b.held+b.used >= maxExplorations
}

// capHi caps hi, the work g's replays may charge, at what its share
// lets it: an item starts only while its trace's replays charged less
// than the share.
func (q *replayQueue) capHi(g *qGroup, hi int64) int64 {
	return q.capRound(g, 0, g.share, hi)
}

// capRound caps hi, the work g's replays of round r may charge, at what
// share lets them.
func (q *replayQueue) capRound(g *qGroup, r int, share, hi int64) int64 {
	if share <= 0 {
		return hi
	}
	most := int64(0)
	for i := g.first; i < g.first+g.n; i++ {
		if q.items[i].round == r {
			most = max(most, q.items[i].cost*exploreRuns+quietUnits)
		}
	}
	return min(hi, share+most)
}

// groupCharges bounds the work g's replays charge (q.mu held): those of
// round 0 under its share, the later rounds' not capped (hi only
// matters while round 0 runs: admit, pump's cut of round 0).
func (q *replayQueue) groupCharges(g *qGroup) (lo, hi int64) {
	var hi0 int64
	for i := g.first; i < g.first+g.n; i++ {
		l, h := q.itemCharge(i)
		lo = lo + l
		if q.items[i].round == 0 {
			hi0 += h
		} else {
			hi += h
		}
	}
	return lo, hi + q.capHi(g, hi0)
}

// roundCharges bounds the work g's replays of round r charge (q.mu
// held), under its share of that round.
func (q *replayQueue) roundCharges(g *qGroup, r int) (lo, hi int64) {
	for i := g.first; i < g.first+g.n; i++ {
		if q.items[i].round == r {
			l, h := q.itemCharge(i)
			lo, hi = lo+l, hi+h
		}
	}
	return lo, q.capRound(g, r, g.rshare, hi)
}

// charges bounds the work the queue's replays charge (q.mu held).
func (q *replayQueue) charges() (lo, hi int64) {
	for _, g := range q.groups {
		l, h := q.groupCharges(g)
		lo, hi = lo+l, hi+h
	}
	for _, it := range q.items {
		lo, hi = lo+it.cost*int64(it.controls), hi+it.cost*int64(it.controls)
	}
	return lo, hi
}

// charge charges w units of work done outside the replays (a recording,
// a prediction), in the sequential order.
func (q *replayQueue) charge(w int64) {
	q.mu.Lock()
	q.spent += w
	q.mu.Unlock()
}

// admit reports whether the work charged so far, the queue's replays
// included, is under the queue's limit, and the safety net not reached:
// whether the next test is to be checked. When the replays still running
// or waiting decide it, it waits for them. It also returns the work
// surely charged so far.
func (q *replayQueue) admit() (bool, int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		lo, hi := q.charges()
		switch {
		case q.netPast():
			return false, q.spent + lo
		case q.limit <= 0, q.spent+hi < q.limit:
			return true, q.spent + lo
		case q.spent+lo >= q.limit:
			return false, q.spent + lo
		}
		q.pump()
		if q.running == 0 {
			// Nothing runs that could settle it (all final: lo is hi).
			return q.spent+lo < q.limit, q.spent + lo
		}
		q.cond.Wait()
	}
}

// setLeft says how many tests are left to check, the next one included
// (fairShare).
func (q *replayQueue) setLeft(n int) {
	q.mu.Lock()
	q.left = n
	q.mu.Unlock()
}

// total is the work the queue charged (after wait and finish).
func (q *replayQueue) total() int64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	lo, _ := q.charges()
	return q.spent + lo
}

// netPast reports whether the safety net's deadline passed.
func (q *replayQueue) netPast() bool { return !q.deadline.IsZero() && now().After(q.deadline) }

type qItem struct {
	g          *qGroup
	p          prediction
	s          *trace.Schedule // what the finding shows (prediction.schedule), once replayed
	gs, objs   []string
	state      int
	v          replay.Verdict
	provedSkip bool // skipped because an earlier instance settled its combination (keyVerdicts)
	doomsTried int  // of its group's dooms
	isDoomed   bool
	// alike: not replayed, alikeRuns earlier instances of its
	// combination having deadlocked or touched other objects alike (alikeOf).
	alike bool
	// shape: of its replay's verdict, once read (alikeShape).
	shape            string
	shaped, hasShape bool
	idx              int // in q.items
	// inferred: 1 + the item whose failure it shares (failure), if any.
	// It takes no place among the trace's replays, whether or not it was
	// replayed meanwhile (it started before that replay was final), and
	// shows that replay's verdict: the outcome is the sequential one.
	inferred   int
	failsTried int               // of its group's fails
	sigs       map[int]prefixSig // by failure step, once read
	sums       map[int]prefixSum // by failure step, once read (prefixSums)
	bags       map[int]uint64    // by failure step, once read (bagSums)
	// reordered: inferred through another order of the failed replay's
	// first steps (reorderShares).
	reordered bool
	final     bool   // it and every earlier item of its trace are decided
	permit    bool   // holds an exploration permit (explorePermit)
	control   string // Finding.Control (controlItems)
	cost      int64  // of one replay (replayCost)
	confirms  int    // runs confirming its exploration (confirmExplored)
	controls  int    // its control replays (controlItems)
	// round: the replay round it is in (again); shareDrop: dropped for
	// its trace's share in that round, which the next may give back;
	// lateDrop: dropped for the queue's limit (or a later round's), which
	// a hand-over of the budget the drivers left may give back
	// (handOver).
	round               int
	shareDrop, lateDrop bool
	// tail: the local goroutine's recorded steps after its unit
	// (unitTail), kept when its trace has test sleeps (releaseOrder).
	tail []trace.Step
	// probe: the replay run after its own stalled on an unstarted root,
	// before the items after it (probe); reaches: where its schedule
	// reaches a root's first step, by root, once read (reachOf).
	probe   *probe
	reaches map[string]reach
}

func newReplayQueue(ctx context.Context, b *testbin.Build, pkg string, deadline time.Time, opt Options, seen map[string]bool) *replayQueue {
	q := &replayQueue{ctx: ctx, b: b, pkg: pkg, deadline: deadline, opt: opt, seen: seen, workers: runtime.GOMAXPROCS(0),
		byKey: map[string][]int{}, bySite: map[string][]int{}, proved: map[string]bool{}, hung: map[string]bool{}, keys: newKeyVerdicts(nil)}
	q.cond = sync.NewCond(&q.mu)
	if opt.Budget > 0 {
		q.share = shareUnits(opt.Budget)
		q.shareMin = workOf(opt.Budget / fairShareDiv)
	}
	if b != nil {
		q.alts.dir = b.Dirs[pkg]
	}
	return q
}

// blocking reports whether p is a blocking pattern's (deadlock, leak,
// WaitGroup.Add after Wait), proved only by a replay that blocks or
// returns early.
func blocking(p *pattern.Pattern) bool {
	return p != nil && (p.Lock || p.Leak || p.Cond || p.WG || p.Relock)
}

// timedOutLeak turns the verdict of a leak's replay whose test failed at
// its own timeout assertion (selectAlts.testTimedOut), or at its
// assertion of the timeout error its helper's select returned
// (selectAlts.helperTimedOut), into "diverged":
// the goroutine it left blocked proves no leak.
func (q *replayQueue) timedOutLeak(p prediction, v replay.Verdict) replay.Verdict {
	if pt := p.a.Pattern; pt == nil || !pt.Leak || v.Verdict != replay.Reproduced || len(v.Leaked) == 0 || v.Passed {
		return v
	}
	at, how := q.alts.testTimedOut(v.Consequence), "its own timeout"
	if at == "" && !p.endBlocked && len(p.a.Sites) == 2 {
		at, how = q.alts.helperTimedOut(p.a.Sites[0], v.Consequence), "its assertion of a helper's timeout error"
	}
	if at == "" {
		return v
	}
	v.Verdict = replay.Diverged
	v.Message = fmt.Sprintf("the test failed at %s (%s) with %s: a goroutine left blocked on a path where the test has failed is what the assertion reports, no leak", how, at, strings.Join(v.Leaked, "; "))
	v.Leaked = nil
	return v
}

// heldLeak turns the verdict of a leak's replay that stranded the partner
// only by holding it at its gate while the program's clock fired (a fire
// with the select's or the partner's step at the cursor:
// replay.Verdict.Fired) into "diverged", when nothing in the recorded
// run could make the partner that late (predict.Anomaly.Unpaced): the
// select's timeout branch fired because of the hold, as a failing test's
// does in heldOverTimer, and the goroutine it left blocked proves no
// leak a real schedule shows. watermill's subscriber decorator: its
// forwarding goroutine, its message ready, was held at its send while
// BulkRead's 1 s time.After fired.
func heldLeak(p prediction, v replay.Verdict) replay.Verdict {
	if pt := p.a.Pattern; pt == nil || !pt.Leak || pt.Stolen || !p.a.Unpaced || v.Verdict != replay.Reproduced || len(v.Leaked) == 0 {
		return v
	}
	// The schedule ends with the select's step and the partner's
	// (schedule.Generator.Leak).
	sel := p.steps - len(p.anomaly)
	if len(p.anomaly) != 2 || sel < 0 || firedIn(v.Fired, sel, p.steps) == 0 {
		return v
	}
	v.Verdict = replay.Diverged
	v.Message = fmt.Sprintf("the select's timer fired (clock fired at steps %v) while the schedule held its partner at its gate, which nothing but the hold delayed (the partner was started elsewhere and waits on no time of its own), so %s proves no leak a real schedule shows", v.Fired, strings.Join(v.Leaked, "; "))
	v.Leaked = nil
	return v
}

// add queues the predictions of a trace of test, replay order, at most max
// replays, and starts what can start. tr names the findings' goroutines
// and objects; it is not kept.
func (q *replayQueue) add(test string, tr *trace.Trace, preds []prediction, dir string, max int, ropt replay.Options) *qGroup {
	return q.addBatch(test, tr, preds, dir, max, ropt, false, false)
}

// addBatch is add, with batch saying whether the test's replays may share
// a process (qGroup.batch), and capped whether the recording ended the
// test at its event cap (qGroup.capped).
func (q *replayQueue) addBatch(test string, tr *trace.Trace, preds []prediction, dir string, max int, ropt replay.Options, batch, capped bool) *qGroup {
	g := &qGroup{test: test, dir: dir, max: max, ropt: ropt, n: len(preds), same: map[[sha256.Size]byte][]int{}, batch: batch && oneRoot(tr) && !capped, capped: capped}
	if capped {
		// (Not batched: each of its replays ends its process at the
		// bound, or at the time bound, and a batch would lose the rest.)
		g.freeBound = freeBoundOf(len(tr.Events))
	}
	if !q.opt.NoControls {
		g.sleeps = testSleeps(tr)
	}
	items := make([]*qItem, len(preds))
	for i, p := range preds {
		if p.s != nil {
			h := sha256.New()
			p.s.WriteTo(h)
			h.Sum(p.sum[:0])
		}
		it := &qItem{g: g, p: p, cost: replayCost(len(tr.Events), p.len())}
		if len(g.sleeps) > 0 {
			it.tail = unitTail(tr, p.a)
		}
		for _, e := range p.a.Events {
			if int(e) < len(tr.Events) {
				ev := tr.Events[e]
				it.gs = append(it.gs, tr.Goroutines[ev.G])
				it.objs = append(it.objs, tr.ObjName(ev))
			}
		}
		items[i] = it
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	g.before = q.spent
	g.share = fairShare(q.limit, g.before, q.left, q.share, q.shareMin)
	g.first = len(q.items)
	for i, it := range items {
		it.idx = g.first + i
		g.same[it.p.sum] = append(g.same[it.p.sum], g.first+i)
		q.byKey[it.p.a.Key] = append(q.byKey[it.p.a.Key], g.first+i)
		q.indexSites(g.first+i, it)
	}
	q.items = append(q.items, items...)
	q.groups = append(q.groups, g)
	q.pump()
	return g
}

// pump decides, with q.mu held, what is needed, in order, and starts what
// can start; it repeats until nothing changes.
func (q *replayQueue) pump() {
	for changed := true; changed; {
		changed = false
		var ready []int // needed, to start
		allDecided := true
		var cumLo, cumHi int64   // the earlier traces' replays' work (itemCharge)
		var cumRLo, cumRHi int64 // of those, this round's (again), when not round 0
		for _, g := range q.groups {
			rLo, rHi := cumRLo, cumRHi // this round's before g
			addRound := func() {
				if q.round > 0 {
					lo, hi := q.roundCharges(g, q.round)
					cumRLo, cumRHi = cumRLo+lo, cumRHi+hi
				}
			}
			if g.first+g.n <= q.from {
				lo, hi := q.groupCharges(g)
				cumLo, cumHi = cumLo+lo, cumHi+hi
				addRound()
				continue
			}
			// Of g before i: undecided, needed so far, replaying; and
			// unsettled: undecided, to replay or replaying (an earlier
			// item's replay may yet fail and make it inferred).
			open, needed, running, unsettled := 0, 0, 0, 0
			probing := false     // an item before i waits for its probe: i does not start
			var gLo, gHi int64   // the work of g's replays before i
			var gRLo, gRHi int64 // of those, this round's
			for i := g.first; i < g.first+g.n; i++ {
				if i > g.first {
					lo, hi := q.itemCharge(i - 1)
					gLo, gHi = gLo+lo, gHi+hi
					if q.items[i-1].round == q.round && q.round > 0 {
						gRLo, gRHi = gRLo+lo, gRHi+hi
					}
				}
				it := q.items[i]
				k := it.p.a.Key
				if (it.state == pNeeded || it.state == pRunning || it.state == pDone) && it.inferred == 0 && !it.final && q.infer(i) {
					if it.state == pNeeded {
						it.state = pInferred
					}
					changed = true
				}
				if it.state == pOpen {
					switch {
					case q.seen[k] || q.proved[k]:
						it.state, it.provedSkip, changed = pSkipped, true, true
					case q.earlierOpen(i), q.wrongPending(i), q.relatedWrongPending(i):
						// wait for the earlier instances of k
					case q.hung[k] && blocking(it.p.a.Pattern):
						it.state, changed = pSkipped, true
					case q.doomed(i):
						it.state, changed = pDoomed, true
					default:
						if alike, wait := q.alikeOf(i); wait {
							break // the earlier instances' verdicts are not final
						} else if alike {
							it.state, it.alike, changed = pDoomed, true, true
							break
						}
						switch q.sameReplayed(i) {
						case -1:
							// wait for the earlier items with the same steps
						case 1:
							it.state, changed = pSkipped, true // same steps, same outcome
						default:
							if q.infer(i) {
								it.state = pInferred
							} else {
								it.state = pNeeded
							}
							changed = true
						}
					}
				}
				switch it.state {
				case pOpen:
					open++
				case pNeeded:
					if q.doomed(i) {
						it.state, changed = pDoomed, true
						continue
					}
					maxed := needed+open >= g.max
					cut, share := 0, g.share
					if it.round > 0 {
						// A later round's: after every replay of the
						// earlier rounds (q.base) and this round's before
						// it, in order, and only if its own charge ends
						// under the round limit: a flood's replay of
						// 20,000 units started just under it would take
						// the reserve.
						share = g.rshare
						cut = q.workCutOf(q.roundLimit(), q.base+it.cost, share, rLo+gRLo, rHi+gRHi, gRLo, gRHi)
					} else {
						cut = q.workCut(it, cumLo+gLo, cumHi+gHi, gLo, gHi)
					}
					if maxed || cut != cutNo {
						// Surely over the limit only when nothing before
						// it is unsettled (a replay still running may
						// learn a doom, or fail within steps that later
						// ones share, that frees a place); otherwise wait.
						if maxed && unsettled == 0 || cut >= cutLate {
							it.state, changed = pDropped, true
							it.lateDrop = cut == cutLate
							if cut == cutShare {
								// The next round may give it back (again).
								it.shareDrop, g.cutAt = true, share
							}
							// A later round's cut is the round limit's (its
							// replays end under it): the reserve's, not the
							// budget's. Not told by the work before it,
							// whose bounds depend on what is final yet.
							reserved := cut == cutLate && it.round > 0
							g.shareCut = g.shareCut || cut == cutShare
							g.lateCut = g.lateCut || cut == cutLate && !reserved
							g.reserveCut = g.reserveCut || reserved
							g.netCut = g.netCut || cut == cutNet
						}
						needed++
						if it.state == pNeeded {
							unsettled++
							allDecided = false
						}
						continue
					}
					needed++
					if q.running < q.workers && !q.permitPending(it) && !probing {
						ready = append(ready, i)
					}
				case pRunning, pDone:
					// One that an earlier replay's doom or failure covers
					// (learned after it started) takes no place, as if it
					// had waited for that replay.
					if !q.doomed(i) && it.inferred == 0 {
						needed++
					}
					if it.state == pRunning {
						running++
					}
				case pDropped:
					needed++
				}
				if it.state == pOpen || it.state == pNeeded || it.state == pRunning {
					allDecided = false
					unsettled++
					continue
				}
				if allDecided {
					q.from = i + 1
				}
				if unsettled == 0 && !it.final {
					// Items become final in order, so g.fails is in order,
					// and holds only what the sequential order replays.
					it.final, changed = true, true
					if it.state == pDone && it.inferred == 0 && !q.doomed(i) && failedWithin(it.v, it.p.len()) {
						g.fails = append(g.fails, newFailure(i, it.p, it.v))
					}
					if it.state == pDone && it.inferred == 0 && !q.doomed(i) {
						if r, depth := unstartedRoot(it.p, it.v); r != "" {
							it.probe = q.newProbe(i, r, depth)
						}
					}
				}
				if pr := it.probe; pr != nil && pr.state != probeDone {
					// The items after it wait for its probe, and are
					// not final before it is done.
					if pr.state == probeWaiting && q.running < q.workers {
						q.startProbe(i)
						changed = true
					}
					probing = true
					allDecided = false
					unsettled++
				}
			}
			if g.n > 0 {
				lo, hi := q.itemCharge(g.first + g.n - 1)
				cumLo, cumHi = cumLo+gLo+lo, cumHi+q.capHi(g, gHi+hi)
			}
			addRound()
		}
		if len(ready) > 0 {
			q.startReady(ready)
			changed = true
		}
	}
}

// maxBatch bounds the replays run in one process (replay.RunBatch); 1
// runs each alone (tests that stand in for runReplay set it).
var maxBatch = 16

// startReady starts the ready items (in order) on the free workers: those
// whose tests may share a process in batches, split evenly, the others
// alone.
func (q *replayQueue) startReady(ready []int) {
	var batchable, alone []int
	for _, i := range ready {
		if it := q.items[i]; maxBatch > 1 && it.g.batch && it.p.s == nil && it.p.file != "" {
			batchable = append(batchable, i)
		} else {
			alone = append(alone, i)
		}
	}
	for _, i := range alone {
		if q.running >= q.workers {
			return
		}
		if q.permitPending(q.items[i]) {
			continue // an earlier start took the last permit; pump retries
		}
		q.start(i)
	}
	for len(batchable) > 0 && q.running < q.workers {
		free := q.workers - q.running
		n := min(maxBatch, (len(batchable)+free-1)/free)
		batch := q.permitted(batchable[:n])
		if len(batch) == 0 {
			return
		}
		if len(batch) == 1 {
			q.start(batch[0])
		} else {
			q.startBatch(batch)
		}
		if len(batch) < n {
			return // the rest waits for a permit (permitPending)
		}
		batchable = batchable[n:]
	}
}

// permitted is the longest prefix of is that can start together (q.mu
// held): it ends before the first item that would wait for a permit
// (permitPending) once the items before it in is took theirs.
func (q *replayQueue) permitted(is []int) []int {
	taken := map[string]int{}
	for k, i := range is {
		it := q.items[i]
		if it.permit {
			continue
		}
		b := q.explore[it.g.test]
		held, used := taken[it.g.test], 0
		if b != nil {
			held, used = held+b.held, b.used
		}
		switch {
		case used >= maxExplorations:
		case held+used < maxExplorations:
			taken[it.g.test]++
		case held > 0:
			return is[:k]
		}
	}
	return is
}

// sameReplayed reports, for item i, whether an earlier item of its trace
// with the same steps was replayed, as the sequential order has it (1),
// or was not (0); -1 while one of them is not final: one replayed may
// yet turn out inferred (its replay only started before the failure it
// shares was final), and then i is not skipped but inferred too.
func (q *replayQueue) sameReplayed(i int) int {
	it := q.items[i]
	out := 0
	for _, j := range it.g.same[it.p.sum] {
		if j >= i {
			break
		}
		e := q.items[j]
		if !e.final {
			return -1
		}
		if e.state == pDone && e.inferred == 0 && !q.doomed(j) {
			out = 1
		}
	}
	return out
}

// earlierOpen reports whether an instance of item i's site combination
// before it is still to be decided or replayed.
func (q *replayQueue) earlierOpen(i int) bool {
	for _, j := range q.byKey[q.items[i].p.a.Key] {
		if j >= i {
			return false
		}
		switch q.items[j].state {
		case pOpen, pNeeded, pRunning:
			return true
		}
	}
	return false
}

// earlierWrongShape is the shape of the wrong-object verdict of an
// instance of item i's combination that the sequential order replays
// before it (wrongBefore), replayed to its end (q.mu held), or "": in
// its own trace, or in another trace of the queue, final there. A
// replay alike runs once, not wrongObjectRuns times (replayRetrying).
//
// Another trace's instance counts as its own trace's does: the runs
// again are for chance (a map's range order), and the shape names the
// two anomaly steps' operations and sites and the objects' types, so a
// mismatch that stood all its runs at the same two sites is the
// combination's object flow, whichever test drove it. Only the number
// of runs changes: each instance is still replayed once, and judged by
// its own verdict (a run that reproduces is reported as before); the
// bound on instances (alikeOf) stays per trace. On ants the flood tests
// (TestAntsPool*WaitToGetWorker*, a million events each) share their
// combinations (the purge goroutine's read of goWorker.lastUsed at
// worker.go:85 against a worker's write at :89): each one's first
// wrong object ran four times, 15 to 25 s a run, where another flood
// test's instance had stood all four already.
func (q *replayQueue) earlierWrongShape(i int) string {
	it := q.items[i]
	for _, j := range q.byKey[it.p.a.Key] {
		e := q.items[j]
		if !q.wrongBefore(i, j) || e.state != pDone || e.inferred != 0 || e.v.Verdict != replay.WrongObject {
			continue
		}
		if e.g != it.g && (!e.final || q.doomed(j)) {
			continue // (wrongPending made it wait for that)
		}
		if shape, ok := wrongObjectShape(e.v.Message); ok {
			return shape
		}
	}
	return ""
}

// wrongBefore reports whether item j, of item i's combination, comes
// before i in the sequential order: an earlier round's, or i's round's
// and earlier in the queue.
func (q *replayQueue) wrongBefore(i, j int) bool {
	a, b := q.items[i], q.items[j]
	return j != i && (b.round < a.round || b.round == a.round && j < i)
}

// wrongPending reports whether item i is to wait before it starts
// (q.mu held): an instance of its combination in another trace that
// comes before it (wrongBefore) touched other objects but is not final
// yet (an earlier replay of its trace may still make it inferred or
// doomed), so whether i's replay is run again (earlierWrongShape) would
// depend on which replay ended first.
func (q *replayQueue) wrongPending(i int) bool {
	it := q.items[i]
	for _, j := range q.byKey[it.p.a.Key] {
		e := q.items[j]
		if e.g != it.g && q.wrongBefore(i, j) && e.state == pDone && e.inferred == 0 && !e.final && e.v.Verdict == replay.WrongObject {
			return true
		}
	}
	return false
}

// start runs item i's replay (q.mu held).
func (q *replayQueue) start(i int) {
	it := q.items[i]
	g := it.g
	it.state = pRunning
	q.running++
	q.crowded = q.crowded || q.running > 1
	n := i - g.first + 1
	q.opt.progress("check: %s %s: replay %d (%s %s)", q.pkg, g.test, n, it.p.a.Pattern.ID(), it.p.a.Sites[0])
	opt := q.bounded(g.ropt)
	opt.Explore = q.explorePermit(it)
	opt.FreeBound = g.freeBound
	it.p.wrongShape = q.earlierWrongShape(i)
	it.p.wrongShapes = q.relatedWrongShapes(i)
	dir := q.replayDir(i) // q.items only under q.mu: addBatch appends to it
	go func() {
		start := time.Now()
		v := runReplay(q.ctx, q.b, q.pkg, g.test, it.p, dir, opt)
		v = q.confirmExplored(it, v, dir, opt)
		d := time.Since(start)
		q.mu.Lock()
		defer q.mu.Unlock()
		q.running--
		q.done(i, v, d)
	}()
}

// bounded is o with its wall-clock bound cut to what is left before the
// safety net (at least minReplayTimeout): a replay started just before a
// deadline ran its whole 30 s past it.
func (q *replayQueue) bounded(o replay.Options) replay.Options {
	if q.deadline.IsZero() {
		return o
	}
	left := max(q.deadline.Sub(now()), minReplayTimeout)
	t := o.Timeout
	if t <= 0 {
		t = 30 * time.Second // replay's default
	}
	if t > left {
		o.Timeout = left
	}
	return o
}

const minReplayTimeout = 2 * time.Second

// replayDir is item i's replay's scratch directory.
func (q *replayQueue) replayDir(i int) string {
	it := q.items[i]
	return filepath.Join(it.g.dir, fmt.Sprintf("r%d", i-it.g.first+1))
}

// startBatch runs items is's replays (q.mu held) in processes of several
// (replay.RunBatch), taking one worker: what a process did not get to
// runs in the next, and one that ran nothing is replayed alone.
func (q *replayQueue) startBatch(is []int) {
	for _, i := range is {
		it := q.items[i]
		it.state = pRunning
		q.opt.progress("check: %s %s: replay %d (%s %s)", q.pkg, it.g.test, i-it.g.first+1, it.p.a.Pattern.ID(), it.p.a.Sites[0])
	}
	q.running++
	q.crowded = q.crowded || q.running > 1
	go func() {
		todo := is
		for len(todo) > 0 {
			q.mu.Lock()
			todo = q.dropInferred(todo)
			q.mu.Unlock()
			if len(todo) == 0 {
				break
			}
			entries := make([]replay.Entry, len(todo))
			ps := make([]prediction, len(todo))
			its := make([]*qItem, len(todo)) // q.items only under q.mu: addBatch appends to it
			q.mu.Lock()
			for k, i := range todo {
				it := q.items[i]
				it.p.wrongShape = q.earlierWrongShape(i)
				it.p.wrongShapes = q.relatedWrongShapes(i)
				ps[k], its[k] = it.p, it
				entries[k] = replay.Entry{Test: it.g.test, Sched: it.p.file, Steps: it.p.steps, Dir: q.replayDir(i), Opt: q.bounded(it.g.ropt)}
				entries[k].Opt.Explore = q.explorePermit(it)
			}
			q.mu.Unlock()
			// A schedule's file is written only now that it is replayed
			// (prediction.text). A process cannot run one that could not
			// be written, nor what follows it: those are replayed alone,
			// which says why.
			for _, p := range ps {
				p.writeFile()
			}
			var vs []replay.Verdict
			var ran []bool
			if len(todo) > 1 {
				// The process takes its entries one after the other: past
				// the safety net (and the least bound a replay gets) it
				// is stopped, not left to run them all.
				bctx, cancel := q.ctx, context.CancelFunc(func() {})
				if !q.deadline.IsZero() {
					bctx, cancel = context.WithDeadline(q.ctx, q.deadline.Add(minReplayTimeout))
				}
				vs, ran = runBatch(bctx, q.b, q.pkg, entries)
				cancel()
			} else {
				ran = []bool{false}
			}
			var left []int
			for k, i := range todo {
				if !ran[k] {
					left = append(left, i)
					continue
				}
				v, d := vs[k], vs[k].Wall
				q.mu.Lock()
				// An earlier entry's failure, final by now, may cover
				// this one: its verdict is then that failure's (finish),
				// and another run of it would prove nothing.
				covered := its[k].inferred > 0
				q.mu.Unlock()
				if it := its[k]; !covered && (stalledOnLate(v, it.p) || v.Verdict == replay.WrongObject && !it.p.wrongAlike(v)) && q.ctx.Err() == nil {
					// (Alone, runReplay runs it again: a wrong object
					// may be a map's iteration order, wrongObjectRuns,
					// the batch's run among them: logrus's first
					// instance of a wrong object ran 5 times.)
					start := time.Now()
					p := it.p
					if v.Verdict == replay.WrongObject {
						p.wrongRuns = 1
					}
					v = runReplay(q.ctx, q.b, q.pkg, it.g.test, p, entries[k].Dir+"-alone", entries[k].Opt)
					d += time.Since(start)
				}
				start := time.Now()
				if !covered {
					v = q.confirmExplored(its[k], v, entries[k].Dir, entries[k].Opt)
				}
				d += time.Since(start)
				q.mu.Lock()
				q.done(i, v, d)
				q.mu.Unlock()
			}
			q.mu.Lock()
			left = q.dropInferred(left)
			q.mu.Unlock()
			if len(left) > 0 && len(left) == len(todo) && !q.netPast() {
				// Nothing ran (the process could not start, or the
				// first replay's test is not what it seemed): the first
				// alone.
				i := left[0]
				it := its[0]
				start := time.Now()
				opt := entries[0].Opt
				v := runReplay(q.ctx, q.b, q.pkg, it.g.test, it.p, entries[0].Dir, opt)
				v = q.confirmExplored(it, v, entries[0].Dir, opt)
				d := time.Since(start)
				q.mu.Lock()
				q.done(i, v, d)
				q.mu.Unlock()
				left = left[1:]
			}
			todo = left
			if len(todo) > 0 && q.netPast() {
				// The safety net is reached: what the process did not
				// get to is not replayed, as it would not have started.
				q.mu.Lock()
				for _, i := range todo {
					q.items[i].state = pDropped
					q.items[i].g.netCut = true
					q.exploreDone(q.items[i], nil)
				}
				q.mu.Unlock()
				todo = nil
			}
		}
		q.mu.Lock()
		defer q.mu.Unlock()
		q.running--
		q.pump()
		q.cond.Broadcast()
	}()
}

// dropInferred returns the items of is (running in startBatch, not yet
// run) that no earlier failure covers, and settles the others as the
// sequential order would have them, inferred without a replay (q.mu
// held). A batch process stops after a replay that left goroutines
// running or failed, and its other entries run in the next; by then the
// first one's failure may be final and cover them (infer: they begin
// with the steps it failed within). Run anyway, their verdicts were
// dropped for that failure's (finish): on miekg/dns, the first replay of
// a test that registers its handler on DefaultServeMux diverges at the
// map's nil check (the recording ran after a test that made the map),
// and each of up to 19 more predictions of that test was replayed, one
// process each, into the same divergence.
func (q *replayQueue) dropInferred(is []int) []int {
	var out []int
	for _, i := range is {
		it := q.items[i]
		if it.state == pRunning && it.inferred > 0 {
			it.state = pInferred
			q.exploreDone(it, nil)
			continue
		}
		out = append(out, i)
	}
	if len(out) < len(is) {
		q.pump()
		q.cond.Broadcast()
	}
	return out
}

// confirmExplored runs again, exploreRuns-1 times, the replay of item it
// whose verdict v is a failing exploration (replay.Verdict.Explored,
// Reproduced), with the same options; v stands only if every run
// explored from the same step and failed the same way (effectKey), else
// it is Diverged. A free run is not controlled: its outcome may depend
// on the order the goroutines happened to take, and a report must say
// the same for the same input. On divergecta's av/RWR the free run
// failed in 30 of 30 runs (10 runs of pecanvet check ./divergecta, each
// confirming with 3), always "created 2 entries, want 1".
func (q *replayQueue) confirmExplored(it *qItem, v replay.Verdict, dir string, opt replay.Options) replay.Verdict {
	if !v.Explored || v.Verdict != replay.Reproduced {
		return v
	}
	for k := 2; k <= exploreRuns; k++ {
		if q.ctx.Err() != nil {
			v.Verdict = replay.Diverged
			v.Message += "; the exploration's failure was not confirmed (cancelled)"
			return v
		}
		w := runReplay(q.ctx, q.b, q.pkg, it.g.test, it.p, fmt.Sprintf("%s-explore%d", dir, k), opt)
		it.confirms++ // read once the item is done (q.mu orders it)
		if !w.Explored || w.Verdict != replay.Reproduced || w.Step != v.Step || w.Panicked != v.Panicked ||
			effectKey(w.Consequence) != effectKey(v.Consequence) {
			v.Verdict = replay.Diverged
			v.Message += fmt.Sprintf("; the free run failed (%s) in run 1, not the same way in run %d (%s %s)", v.Consequence, k, w.Verdict, w.Consequence)
			return v
		}
	}
	return v
}

// runBatch is replay.RunBatch (a variable for tests).
var runBatch = replay.RunBatch

// done takes item i's replay verdict v, of wall time d (q.mu held).
func (q *replayQueue) done(i int, v replay.Verdict, d time.Duration) {
	it := q.items[i]
	g := it.g
	n := i - g.first + 1
	v = q.timedOutLeak(it.p, v)
	v = heldLeak(it.p, v)
	v = restingWaiter(it.p, v)
	{
		// A finding keeps its whole schedule only if reproduced (its clip
		// is shown); else its anomaly's steps.
		s, err := it.p.schedule(v.Verdict == replay.Reproduced)
		if err != nil {
			v = replay.Verdict{Verdict: replay.Ended, Message: "reading the schedule back: " + err.Error(), Steps: it.p.steps}
			s, _ = it.p.schedule(false)
		}
		q.replays++
		q.replayed += d
		verdict := v.Verdict
		if v.Explored {
			verdict += " (explored past a changed read)"
		}
		why := ""
		if (v.Verdict == replay.Diverged || v.Verdict == replay.Deadlock) && v.Message != "" {
			why = ": " + clipLine(v.Message, 240)
		}
		if len(v.Fired) > 0 {
			// Where the clock fired: timerPastSleep's evidence, which
			// the load moves (the controls' lines say theirs).
			why += fmt.Sprintf(", clock fired at steps %v", v.Fired)
		}
		q.opt.progress("check: %s %s: replay %d: %s in %v%s", q.pkg, g.test, n, verdict, d.Round(time.Millisecond), why)
		it.state, it.v, it.s = pDone, v, s
		q.exploreDone(it, &v)
		if v.Explored && v.Verdict == replay.Reproduced && s != nil {
			s.Ran = v.Step - 1 // the clip: the steps that ran as scheduled
		}
		q.settle(it)
		if v.Verdict == replay.Timeout && blocking(it.p.a.Pattern) {
			q.hung[it.p.a.Key] = true
		}
		if d, ok := newDoom(i, it.p, v); ok {
			g.dooms = append(g.dooms, d)
		}
		if v.Verdict == replay.Diverged && it.p.unordered {
			// confirmUnordered will want the race detector: build its
			// binary while the other replays run.
			q.b.PrebuildRace(q.ctx, q.pkg)
		}
	}
	q.pump()
	q.cond.Broadcast()
}

// wait returns once every prediction is replayed, skipped or dropped.
func (q *replayQueue) wait() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drainRunning()
}

// drainRunning pumps the queue until no replay runs (q.mu held).
func (q *replayQueue) drainRunning() {
	for {
		q.pump()
		if q.running == 0 {
			return
		}
		q.cond.Wait()
	}
}

// again ends a round of the replays (q.round): it waits for them all,
// and when the shares cut predictions of some traces (shareDrop) while
// the limit is not reached, it gives those traces what is left, split
// evenly (at least q.shareMin each), in a next round, and reports true;
// the caller calls it until it reports false, then wait. A round's
// replays come after the earlier rounds' in the order the cut is
// decided in (q.base, then trace by trace): which predictions a round
// replays depends only on the work the earlier ones charged, not on
// time. So the fair shares of round 0 (fairShare: the first tests of a
// package get a part of the budget over all tests left) cut no
// prediction while budget remains (issue 30): on ants the flood tests'
// shares had left 170,000 to 250,000 units of 459,000 unspent.
//
// The rounds stop at the limit less q.reserve (roundLimit), which the
// phases after the queue need: in one of two ants runs of session 36
// they spent the tests' phase to its limit, and the race detector's
// confirmation of a pair did not run.
func (q *replayQueue) again() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drainRunning()
	if q.limit <= 0 || q.shareMin <= 0 || q.ctx.Err() != nil {
		return false
	}
	lo, _ := q.charges()
	base := q.spent + lo
	// A replay whose charge would not end under the round limit now
	// will not later either: with none that would, no round.
	fits := false
	for _, it := range q.items {
		if it.state == pDropped && it.shareDrop && it.round == q.round && base+it.cost < q.roundLimit() {
			fits = true
			break
		}
	}
	if net := q.netPast(); net || !fits {
		// A next round would drop them for the budget, the reserve or
		// the net: so the note says.
		late := !net && base >= q.limit
		for _, it := range q.items {
			if it.state == pDropped && it.shareDrop && it.round == q.round {
				g := it.g
				g.shareCut, g.lateCut, g.netCut = false, g.lateCut || late, g.netCut || net
				g.reserveCut = g.reserveCut || !net && !late
			}
		}
		return false
	}
	var cut []*qGroup
	var items []*qItem
	for _, g := range q.groups {
		n := len(items)
		for i := g.first; i < g.first+g.n; i++ {
			if it := q.items[i]; it.state == pDropped && it.shareDrop && it.round == q.round {
				items = append(items, it)
			}
		}
		if len(items) > n {
			cut = append(cut, g)
		}
	}
	if len(cut) == 0 {
		return false
	}
	q.round++
	q.base = base
	share := max(q.shareMin, (q.roundLimit()-base)/int64(len(cut)))
	for _, g := range cut {
		g.rshare, g.shareCut = share, false
	}
	for _, it := range items {
		it.state, it.shareDrop, it.round, it.final = pOpen, false, q.round, false
	}
	q.from = min(q.from, items[0].idx)
	q.opt.progress("check: %s: replay round %d: %d work units left (%d of them held in reserve), %d predictions of %d traces their shares cut, %d units each", q.pkg, q.round, q.limit-base, q.reserve, len(items), len(cut), share)
	q.pump()
	return true
}

// handable reports whether item it was dropped for the budget: the
// queue's limit, a later round's, or its trace's share (q.mu held).
func handable(it *qItem) bool { return it.state == pDropped && (it.shareDrop || it.lateDrop) }

// handOver reopens, in a next round under limit, the predictions the
// queue dropped for the budget (handable), after the work since charged
// outside it (since: the later phases', the drivers' included), and
// reports how many it reopened of each trace (by group), or false if
// none would start. The queue is done (finish ran): its state carries
// over (the traces' failures and dooms, the instances proved, the
// explorations), so a reopened prediction is decided as it would have
// been in a later round of the queue's own, after everything charged
// before it; finish then gives only the outcome of the rounds from this
// one on (q.handRound). Its later rounds leave reserve under limit, as
// again's do (roundLimit): the drivers' hand-over, after which nothing
// comes in the package, reserves nothing; the first runs' queue resumed
// after the early perturbed recordings (checkQueued's between) leaves
// the later phases theirs. The round's share and its cut depend only on
// work charged in order, as again's: 1, 2 or 4 workers give the
// sequential outcome (TestHandOver).
func (q *replayQueue) handOver(limit, since, reserve int64) ([]int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drainRunning()
	if limit <= 0 || q.shareMin <= 0 || q.ctx.Err() != nil || q.netPast() {
		return nil, false
	}
	q.spent += since
	q.limit, q.reserve, q.held = limit, min(reserve, limit), 0
	lo, _ := q.charges()
	base := q.spent + lo
	reopened := make([]int, len(q.groups))
	var items []*qItem
	cut := 0
	fits := false
	for gi, g := range q.groups {
		for i := g.first; i < g.first+g.n; i++ {
			if it := q.items[i]; handable(it) {
				items = append(items, it)
				reopened[gi]++
				fits = fits || base+it.cost < q.roundLimit()
			}
		}
		if reopened[gi] > 0 {
			cut++
		}
	}
	if !fits {
		return nil, false
	}
	q.round++
	q.handRound, q.base = q.round, base
	q.replays, q.replayed = 0, 0 // the queue's earlier ones are in the report
	share := max(q.shareMin, (q.roundLimit()-base)/int64(cut))
	for gi, g := range q.groups {
		if reopened[gi] > 0 {
			g.rshare = share
		}
		// What the earlier rounds cut is settled; these say what the
		// hand-over's rounds cut.
		g.shareCut, g.lateCut, g.netCut, g.reserveCut = false, false, false, false
	}
	for _, it := range items {
		it.state, it.shareDrop, it.lateDrop, it.round, it.final = pOpen, false, false, q.round, false
	}
	q.from = min(q.from, items[0].idx)
	q.opt.progress("check: %s: replay round %d: %d work units left (%d of them held in reserve) after %d charged outside the queue, handed to %d predictions of %d traces the budget cut, %d units each", q.pkg, q.round, limit-base, q.reserve, since, len(items), cut, share)
	q.pump()
	return reopened, true
}

// roundLimit is the limit of the later rounds' replays (again): the
// queue's, less the reserve.
func (q *replayQueue) roundLimit() int64 { return q.limit - q.reserve }

// qResult is the outcome of one trace's predictions.
type qResult struct {
	findings []Finding // replayed, in order
	found    int       // reproduced, or skipped because an earlier instance was
	skipped  int       // needed but not replayed (MaxReplays, budget)
	// skippedKeys, triedKeys: the site combinations of those skipped,
	// and of those replayed (not inferred), for the note (testCheck.notes).
	skippedKeys, triedKeys map[string]bool
	doomed                 int   // not replayed: an earlier replay's doom covers them
	alike                  int   // not replayed: earlier instances of their combination deadlocked or touched other objects alike (alikeOf)
	inferred               int   // of findings: not replayed (or not counted), sharing an earlier replay's failure (Finding.Inferred)
	reordered              int   // of those, through an equivalent prefix (qItem.reordered)
	shareCut               bool  // some were not replayed for the trace's share of the budget
	share                  int64 // that share (qGroup.share)
	reserveCut             bool  // some were not replayed for the reserve (replayQueue.reserve)
	reserve                int64 // that reserve, and what the queue's limit held for the later phases (replayQueue.held)
	lateCut                bool  // some were not replayed for the package's budget
	limit                  int64 // the queue's limit (the phase's, less what it held: replayQueue.held)
	netCut                 bool  // some were not replayed for the safety net
}

// finish (after wait) gives each group's outcome, in order, appending its
// findings to rep and its reproduced combinations to seen.
func (q *replayQueue) finish(seen map[string]bool, rep *Report) []qResult {
	rep.Time.Replay += q.replayed
	rep.Time.Replays += q.replays
	q.controlItems(rep)
	// Settled here, or closed by the bound: not replayed again in the
	// package (keyVerdicts).
	for k := range q.proved {
		seen[k] = true
	}
	q.cutNotes(rep)
	out := make([]qResult, len(q.groups))
	for gi, g := range q.groups {
		r := &out[gi]
		r.shareCut, r.lateCut, r.netCut, r.share = g.shareCut, g.lateCut, g.netCut, g.cutAt
		r.reserveCut, r.reserve, r.limit = g.reserveCut, q.reserve+q.held, q.limit
		if g.n > 0 && (q.handRound == 0 || slices.ContainsFunc(q.items[g.first:g.first+g.n], func(it *qItem) bool { return it.round >= q.handRound })) {
			// Where the budget went, test by test (issue 30).
			lo, _ := q.groupCharges(g)
			q.opt.progress("check: %s %s: %d predictions' replays charged %d work units (share %d, later rounds' %d)", q.pkg, g.test, g.n, lo, g.share, g.rshare)
		}
		r.skippedKeys, r.triedKeys = map[string]bool{}, map[string]bool{}
		for i := g.first; i < g.first+g.n; i++ {
			it := q.items[i]
			if it.round < q.handRound {
				continue // settled by the queue's first finish
			}
			switch it.state {
			case pDone:
				if it.inferred == 0 {
					r.triedKeys[it.p.a.Key] = true
				}
				f := q.findingOf(it)
				f.Control = it.control
				if it.inferred > 0 {
					// Replayed only because it started before the replay
					// it shares a failure with was final: shown as the
					// sequential order would have it.
					f.Verdict, f.Inferred = q.inferredVerdict(q.items[it.inferred-1], it), true
					if c := q.items[it.inferred-1].control; c == driverRepeat || c == aloneRepeat {
						// That failure, replayed again, did not come
						// back: it is this one's no more than its own.
						f.Control = c
					}
					f.Schedule, _ = it.p.schedule(false)
					r.inferred++
					if it.reordered {
						r.reordered++
					}
				}
				f.Verdict = failureWithdrawn(f.Verdict, f.Control)
				rep.Findings = append(rep.Findings, f)
				r.findings = append(r.findings, f)
				if f.Reproduced() {
					r.found++
				}
			case pSkipped:
				if it.provedSkip {
					r.found++
				}
			case pDropped, pNeeded, pOpen:
				r.skipped++
				r.skippedKeys[it.p.a.Key] = true
			case pDoomed:
				if it.alike {
					r.alike++
				} else {
					r.doomed++
				}
			case pInferred:
				s, _ := it.p.schedule(false)
				f := Finding{Package: q.pkg, Test: g.test, Anomaly: it.p.a, Schedule: s, Verdict: q.inferredVerdict(q.items[it.inferred-1], it), Goroutines: it.gs, Objects: it.objs, pred: predID(it.p), unordered: it.p.unordered, Inferred: true}
				rep.Findings = append(rep.Findings, f)
				r.findings = append(r.findings, f)
				r.inferred++
				if it.reordered {
					r.reordered++
				}
			}
		}
	}
	return out
}

// failureWithdrawn returns v, the verdict of a finding whose controls
// said why its failure is not the interleaving's (control, Finding.Control),
// turned into Diverged when v rests on that failure alone: an interrupted
// replay (its local goroutine took another path after the other
// goroutines' part of the anomaly ran, before its own last step) or an
// explored one (it left the schedule after a changed read) is Reproduced
// only because the program then failed (replay.judge's failProves). Its
// anomaly's events never all ran, so without the failure nothing was
// reproduced, and the dependence criterion, which judges how the unit
// goes on to use what it read, has no unit to judge: the access the
// unit would use the read for did not happen.
//
// hashicorp/raft v1.8.0 (issue 26, session 50): TestRaft_ProtocolVersion_
// Upgrade_1_2's asv-14 (raft.go:1261 W, state.go:99 R, state.go:107 W,
// inmem_store.go:59 R) and asv-12 (state.go:100, raft.go:1259, state.go:108,
// inmem_store.go:59). The new leader starts its replicators, then
// dispatches its no-op entry: dispatchLogs writes the entry (raft.go:1259,
// :1261), stores it, then publishes lastLogIndex (setLastLog, state.go:107).
// The schedule had the replicator read lastLogIndex (state.go:99) before
// that publication and copy the entry (inmem_store.go:59) after its
// writes; reading the old index, the replicator's setNewLogs asked for no
// entry (replication.go:623 not reached: "after the interleaving, goroutine
// g1.1.4.4 took another path"), a serial order's outcome. The program
// then failed ("node is not the leader", "at least one peer has the wrong
// notion of leader"), the unheld control passed at the same step (the
// failure followed the hold), and the finding was reported by dependence,
// "check-then-act", for a read the replay never made. Sound: what is
// dropped is a finding whose only proof was withdrawn; the design reports
// only anomalies whose events all occurred in the pattern's order.
func failureWithdrawn(v replay.Verdict, control string) replay.Verdict {
	if control == "" || v.Verdict != replay.Reproduced || !v.Interrupted && !v.Explored {
		return v
	}
	v.Verdict = replay.Diverged
	v.Message += fmt.Sprintf("; reproduced only by the failure that followed (%s), which is not the interleaving's: %s", v.Consequence, control)
	return v
}

// findingOf is the finding of replayed item it, as its replay showed it.
func (q *replayQueue) findingOf(it *qItem) Finding {
	return Finding{Package: q.pkg, Test: it.g.test, Anomaly: it.p.a, Schedule: it.s, Verdict: it.v, Goroutines: it.gs, Objects: it.objs, pred: predID(it.p), unordered: it.p.unordered}
}

// n is the item's number in its trace's replay progress lines.
func (it *qItem) n() int { return it.idx - it.g.first + 1 }

// oneRoot reports whether tr has at most one root goroutine (one without
// a recorded fork: the test's own).
func oneRoot(tr *trace.Trace) bool {
	roots := 0
	for _, g := range tr.Goroutines {
		if isRoot(g) {
			roots++
		}
	}
	return roots <= 1
}

// clipLine is s on one line, cut to n bytes, for a progress line.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// freeBoundOf is the bound on the free run of the replays of a test whose
// recording, of n events, its cap ended (replay.Options.FreeBound):
// freeBoundMul times the recorded run, and at least freeBoundMin. Past
// the cap the recording did not see how the test goes on; the bound gives
// a test that ends a little past it room to reach its checks (ulule/
// limiter's TestCacheIncrementConcurrent fails its sum after a million
// events' cap), while one that runs on for a hundred times its recording
// (marusama/semaphore's TestSemaphore_weighted_acquire_gt_release,
// 100,000 rounds, recorded up to 1024 goroutines) no longer runs every
// replay to the 30 s time bound, where a test killed has no effect anyway.
func freeBoundOf(n int) int64 {
	return max(freeBoundMul*int64(n), freeBoundMin)
}

const (
	freeBoundMul = 4
	freeBoundMin = 1 << 16
)
