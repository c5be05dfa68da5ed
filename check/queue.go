package check

import (
	"context"
	"crypto/sha256"
	"fmt"
	"hash"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/trace"
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
// combination proved by an earlier test is not replayed again, as it
// would not have been proposed; and an instance starts only when it is
// surely among the first MaxReplays needed of its trace. A schedule the
// same trace already replayed (another instance with the same steps) is
// not replayed again. Nor is one whose schedule begins with the steps an
// earlier replay of the same trace failed within (failure): it is
// inferred, takes no place among MaxReplays, and is decided only from
// final replays, so that too is the sequential outcome. Findings are
// taken trace by trace, in order, by finish.
type replayQueue struct {
	ctx      context.Context
	b        *record.Build
	pkg      string
	deadline time.Time
	opt      Options
	seen     map[string]bool // proved before this queue; read-only here
	workers  int

	mu       sync.Mutex
	cond     *sync.Cond
	items    []*qItem
	byKey    map[string][]int // item indices of each site combination
	groups   []*qGroup
	running  int
	from     int             // items before it are all decided
	proved   map[string]bool // site combinations reproduced here
	replays  int
	replayed time.Duration
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
	first int // index of its first item
	n     int
	same  map[[sha256.Size]byte][]int // schedule text's sum → its items, in order
	// spent is the wall time of its replays so far; past replayShare of
	// the budget, its other predictions are dropped (shareCut).
	spent    time.Duration
	shareCut bool
	dooms    []doom    // learned from its replays that deadlocked outside recorded operations
	fails    []failure // of its final items, in order
}

// A trace's replays may take Budget/replayShare of wall time in all, and
// at least replayShareMin: on ants, the replays of each of a dozen long
// tests (a million steps through a thousand goroutines, every one
// failing after 5 to 30 s) took the package's whole budget in turn, and
// the tests after them were never checked. As for prediction (predictShare),
// one trace must not take what the package's other tests need.
const replayShare = 10

var replayShareMin = 10 * time.Second // a variable for tests

// overShare reports whether g's replays took their share of the budget.
func (q *replayQueue) overShare(g *qGroup) bool {
	return q.opt.Budget > 0 && g.spent >= max(replayShareMin, q.opt.Budget/replayShare)
}

// doom is what a replay that deadlocked outside recorded operations
// showed: with the steps before the stuck one run (done: how many steps of
// each goroutine), goroutine g, waiting outside recorded operations (not
// started yet, by uninstrumented code; or blocked in uninstrumented code),
// did not reach its step n+1 (n of its steps before). What it waits for
// can come only from uninstrumented code set off by what ran (a server
// starts a handler for a request, a client gets the response a handler
// writes), and running fewer of those steps sets off no more. So another
// schedule of the same trace that reaches g's step n+1 with at most as
// many steps of every goroutine run would deadlock the same way. On
// TestNoRaceIOHttp every prediction runs the handler before its request,
// or the client on before the handler answered: 46 replays of about
// 190 ms, all deadlocks. Dooms apply only to later items of the queue, so
// what is replayed does not depend on timing.
//
// When g had not started at all (Verdict.Unstarted), no root (a goroutine
// without a recorded fork) that had not started then (started: the ones
// that had, Verdict.Roots) could start either, every goroutine waiting:
// a root is started by uninstrumented code, which only what ran sets off.
// So a schedule that needs the first step of any such root with at most
// done run deadlocks too. That is the prediction moving a library's
// worker (conc's pool workers, started by the pool's goroutine outside
// instrumented code) before its creator's events: tried once per creator
// position rather than once per worker and anomaly. With the anomaly's
// steps all after it (anomalyFrom), in the failed schedule and the other:
// a goroutine past its part of the anomaly that takes another path runs
// free, and may then do more than its steps.
type doom struct {
	from    int // the item whose replay showed it
	g       string
	n       int
	done    map[string]int
	started map[string]bool // with Unstarted: the roots that had started
}

// newDoom reads a doom from a deadlock verdict of prediction p, if it is
// one.
func newDoom(from int, p prediction, v replay.Verdict) (doom, bool) {
	if v.Verdict != replay.Deadlock || !v.Outside || v.Step < 1 || v.Step > p.len() {
		return doom{}, false
	}
	d := doom{from: from, done: map[string]int{}}
	k := 0
	p.eachStepG(func(g string) bool {
		if k++; k == v.Step {
			d.g = g
			return false
		}
		d.done[g]++
		return true
	})
	if d.g == "" {
		return doom{}, false
	}
	d.n = d.done[d.g]
	if v.Unstarted && len(v.Roots) > 0 && p.anomalyFrom() >= v.Step-1 {
		d.started = map[string]bool{}
		for _, r := range v.Roots {
			d.started[r] = true
		}
	}
	return d, true
}

// isRoot reports whether goroutine name g is a root's (no recorded fork:
// "g3", not "g1.2").
func isRoot(g string) bool { return !strings.Contains(g, ".") }

// dooms reports whether p's schedule reaches step n+1 of d.g, or (with
// d.started) the first step of a root that had not started, with at most
// d.done steps of every goroutine run.
func (d doom) dooms(p prediction) bool {
	run := map[string]int{}
	doomed, at := false, 0
	p.eachStepG(func(g string) bool {
		other := d.started != nil && g != d.g && run[g] == 0 && isRoot(g) && !d.started[g]
		if g == d.g && run[d.g] == d.n || other {
			doomed = true
			for h, k := range run {
				if k > d.done[h] {
					doomed = false
				}
			}
			if other && doomed && p.anomalyFrom() < at {
				doomed = false
			}
			return false
		}
		run[g]++
		at++
		return true
	})
	return doomed
}

// anomalyFrom returns the index of the anomaly's first step (from 0), -1
// if it cannot be read.
func (p prediction) anomalyFrom() int {
	first := -1
	p.eachStep(func(at []int) {
		for k, i := range at {
			if k == 0 || i < first {
				first = i
			}
		}
	}, func(_, _ []byte) bool { return false })
	return first
}

// doomed reports whether an earlier item's doom covers item i. Each doom
// is tried on an item once (a prediction's steps may have to be read from
// its file).
func (q *replayQueue) doomed(i int) bool {
	it := q.items[i]
	for ; !it.isDoomed && it.doomsTried < len(it.g.dooms); it.doomsTried++ {
		if d := it.g.dooms[it.doomsTried]; d.from < i && d.dooms(it.p) {
			it.isDoomed = true
		}
	}
	return it.isDoomed
}

type qItem struct {
	g          *qGroup
	p          prediction
	s          *trace.Schedule // what the finding shows (prediction.schedule), once replayed
	gs, objs   []string
	state      int
	v          replay.Verdict
	provedSkip bool // skipped because an earlier instance proved its combination
	doomsTried int  // of its group's dooms
	isDoomed   bool
	idx        int // in q.items
	// inferred: 1 + the item whose failure it shares (failure), if any.
	// It takes no place among the trace's replays, whether or not it was
	// replayed meanwhile (it started before that replay was final), and
	// shows that replay's verdict: the outcome is the sequential one.
	inferred   int
	failsTried int               // of its group's fails
	sigs       map[int]prefixSig // by failure step, once read
	final      bool              // it and every earlier item of its trace are decided
}

func newReplayQueue(ctx context.Context, b *record.Build, pkg string, deadline time.Time, opt Options, seen map[string]bool) *replayQueue {
	q := &replayQueue{ctx: ctx, b: b, pkg: pkg, deadline: deadline, opt: opt, seen: seen, workers: runtime.GOMAXPROCS(0),
		byKey: map[string][]int{}, proved: map[string]bool{}}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// add queues the predictions of a trace of test, replay order, at most max
// replays, and starts what can start. tr names the findings' goroutines
// and objects; it is not kept.
func (q *replayQueue) add(test string, tr *trace.Trace, preds []prediction, dir string, max int, ropt replay.Options) *qGroup {
	return q.addBatch(test, tr, preds, dir, max, ropt, false)
}

// addBatch is add, with batch saying whether the test's replays may share
// a process (qGroup.batch).
func (q *replayQueue) addBatch(test string, tr *trace.Trace, preds []prediction, dir string, max int, ropt replay.Options, batch bool) *qGroup {
	g := &qGroup{test: test, dir: dir, max: max, ropt: ropt, n: len(preds), same: map[[sha256.Size]byte][]int{}, batch: batch && oneRoot(tr)}
	items := make([]*qItem, len(preds))
	for i, p := range preds {
		if p.s != nil {
			h := sha256.New()
			p.s.WriteTo(h)
			h.Sum(p.sum[:0])
		}
		it := &qItem{g: g, p: p}
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
	g.first = len(q.items)
	for i, it := range items {
		it.idx = g.first + i
		g.same[it.p.sum] = append(g.same[it.p.sum], g.first+i)
		q.byKey[it.p.a.Key] = append(q.byKey[it.p.a.Key], g.first+i)
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
		for _, g := range q.groups {
			if g.first+g.n <= q.from {
				continue
			}
			// Of g before i: undecided, needed so far, replaying; and
			// unsettled: undecided, to replay or replaying (an earlier
			// item's replay may yet fail and make it inferred).
			open, needed, running, unsettled := 0, 0, 0, 0
			for i := g.first; i < g.first+g.n; i++ {
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
					case q.earlierOpen(i):
						// wait for the earlier instances of k
					case q.doomed(i):
						it.state, changed = pDoomed, true
					default:
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
					late := time.Now().After(q.deadline)
					over := q.overShare(g)
					if needed+open >= g.max || late || over {
						// Surely over the limit only when nothing before
						// it is unsettled (a replay still running may
						// learn a doom, or fail within steps that later
						// ones share, that frees a place); otherwise wait.
						if unsettled == 0 || late || over {
							it.state, changed = pDropped, true
							g.shareCut = g.shareCut || over && !late
						}
						needed++
						if it.state == pNeeded {
							unsettled++
							allDecided = false
						}
						continue
					}
					needed++
					if q.running < q.workers {
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
				}
			}
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
		q.start(i)
	}
	for len(batchable) > 0 && q.running < q.workers {
		free := q.workers - q.running
		n := min(maxBatch, (len(batchable)+free-1)/free)
		if n == 1 {
			q.start(batchable[0])
		} else {
			q.startBatch(batchable[:n])
		}
		batchable = batchable[n:]
	}
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

// start runs item i's replay (q.mu held).
func (q *replayQueue) start(i int) {
	it := q.items[i]
	g := it.g
	it.state = pRunning
	q.running++
	n := i - g.first + 1
	q.opt.progress("check: %s %s: replay %d (%s %s)", q.pkg, g.test, n, it.p.a.Pattern.ID(), it.p.a.Sites[0])
	go func() {
		start := time.Now()
		v := runReplay(q.ctx, q.b, q.pkg, g.test, it.p, q.replayDir(i), q.bounded(g.ropt))
		d := time.Since(start)
		q.mu.Lock()
		defer q.mu.Unlock()
		q.running--
		q.done(i, v, d)
	}()
}

// bounded is o with its wall-clock bound cut to what is left of the
// budget (at least minReplayTimeout): a replay started just before the
// deadline ran its whole 30 s past it, and on ants the package's tests
// overran into the time kept for its generated drivers.
func (q *replayQueue) bounded(o replay.Options) replay.Options {
	if q.deadline.IsZero() {
		return o
	}
	left := max(time.Until(q.deadline), minReplayTimeout)
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

// late reports whether the queue's deadline has passed.
func (q *replayQueue) late() bool { return !q.deadline.IsZero() && time.Now().After(q.deadline) }

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
	go func() {
		todo := is
		for len(todo) > 0 {
			entries := make([]replay.Entry, len(todo))
			for k, i := range todo {
				it := q.items[i]
				entries[k] = replay.Entry{Test: it.g.test, Sched: it.p.file, Steps: it.p.steps, Dir: q.replayDir(i), Opt: q.bounded(it.g.ropt)}
			}
			var vs []replay.Verdict
			var ran []bool
			if len(todo) > 1 {
				// The process takes its entries one after the other: past
				// the deadline (and the least bound a replay gets) it is
				// stopped, not left to run them all (on ants, a batch of
				// 6 s replays started before the deadline of the
				// package's own tests ran into the drivers' time).
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
				if it := q.items[i]; stalledOnLate(v, it.p) && q.ctx.Err() == nil {
					start := time.Now()
					v = runReplay(q.ctx, q.b, q.pkg, it.g.test, it.p, entries[k].Dir+"-alone", q.bounded(it.g.ropt))
					d += time.Since(start)
				}
				q.mu.Lock()
				q.done(i, v, d)
				q.mu.Unlock()
			}
			if len(left) == len(todo) && !q.late() {
				// Nothing ran (the process could not start, or the
				// first replay's test is not what it seemed): the first
				// alone.
				i := left[0]
				it := q.items[i]
				start := time.Now()
				v := runReplay(q.ctx, q.b, q.pkg, it.g.test, it.p, q.replayDir(i), q.bounded(it.g.ropt))
				d := time.Since(start)
				q.mu.Lock()
				q.done(i, v, d)
				q.mu.Unlock()
				left = left[1:]
			}
			todo = left
			if len(todo) > 0 && q.late() {
				// The budget is spent: what the process did not get to
				// is not replayed, as it would not have started.
				q.mu.Lock()
				for _, i := range todo {
					q.items[i].state = pDropped
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

// runBatch is replay.RunBatch (a variable for tests).
var runBatch = replay.RunBatch

// done takes item i's replay verdict v, of wall time d (q.mu held).
func (q *replayQueue) done(i int, v replay.Verdict, d time.Duration) {
	it := q.items[i]
	g := it.g
	n := i - g.first + 1
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
		g.spent += d
		q.opt.progress("check: %s %s: replay %d: %s in %v", q.pkg, g.test, n, v.Verdict, d.Round(time.Millisecond))
		it.state, it.v, it.s = pDone, v, s
		if v.Verdict == replay.Reproduced {
			q.proved[it.p.a.Key] = true
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
	for {
		q.pump()
		if q.running == 0 {
			return
		}
		q.cond.Wait()
	}
}

// qResult is the outcome of one trace's predictions.
type qResult struct {
	findings []Finding // replayed, in order
	found    int       // reproduced, or skipped because an earlier instance was
	skipped  int       // needed but not replayed (MaxReplays, budget)
	doomed   int       // not replayed: an earlier replay's doom covers them
	inferred int       // of findings: not replayed (or not counted), sharing an earlier replay's failure (Finding.Inferred)
	shareCut bool      // some were not replayed for the trace's share of the budget
}

// finish (after wait) gives each group's outcome, in order, appending its
// findings to rep and its reproduced combinations to seen.
func (q *replayQueue) finish(seen map[string]bool, rep *Report) []qResult {
	rep.Time.Replay += q.replayed
	rep.Time.Replays += q.replays
	out := make([]qResult, len(q.groups))
	for gi, g := range q.groups {
		r := &out[gi]
		r.shareCut = g.shareCut
		for i := g.first; i < g.first+g.n; i++ {
			it := q.items[i]
			switch it.state {
			case pDone:
				f := Finding{Package: q.pkg, Test: g.test, Anomaly: it.p.a, Schedule: it.s, Verdict: it.v, Goroutines: it.gs, Objects: it.objs, pred: predID(it.p), unordered: it.p.unordered}
				if it.inferred > 0 {
					// Replayed only because it started before the replay
					// it shares a failure with was final: shown as the
					// sequential order would have it.
					f.Verdict, f.Inferred = q.inferredVerdict(q.items[it.inferred-1], it), true
					f.Schedule, _ = it.p.schedule(false)
					r.inferred++
				}
				rep.Findings = append(rep.Findings, f)
				r.findings = append(r.findings, f)
				if f.Reproduced() {
					seen[it.p.a.Key] = true
					r.found++
				}
			case pSkipped:
				if it.provedSkip {
					r.found++
				}
			case pDropped, pNeeded, pOpen:
				r.skipped++
			case pDoomed:
				r.doomed++
			case pInferred:
				s, _ := it.p.schedule(false)
				f := Finding{Package: q.pkg, Test: g.test, Anomaly: it.p.a, Schedule: s, Verdict: q.inferredVerdict(q.items[it.inferred-1], it), Goroutines: it.gs, Objects: it.objs, pred: predID(it.p), unordered: it.p.unordered, Inferred: true}
				rep.Findings = append(rep.Findings, f)
				r.findings = append(r.findings, f)
				r.inferred++
			}
		}
	}
	return out
}

// failure is what a replay that failed within its schedule's first k
// steps showed (failedWithin): another schedule of the same trace whose
// replay runs the same way up to there (failure.shares) fails there too.
// Only final items (every earlier item of the trace decided) that were
// replayed, and not themselves inferred or doomed, give one, in order, so
// which items are inferred is what replaying them one after the other
// would give, whatever the replays' durations: an item is inferred exactly
// when an earlier item, replayed in the sequential order, failed within
// the steps they share.
type failure struct {
	from     int // the item whose replay failed
	k        int
	sig      prefixSig
	deadlock bool
	// waits: for a deadlock, the step each goroutine waiting at a gate
	// was at, without its object (Verdict.Waiting), by goroutine.
	waits map[string]string
}

// newFailure reads the failure of item i, replayed with verdict v
// (failedWithin).
func newFailure(i int, p prediction, v replay.Verdict) failure {
	f := failure{from: i, k: v.Step, sig: p.sig(v.Step), deadlock: v.Verdict == replay.Deadlock}
	if f.deadlock {
		f.waits = map[string]string{}
		for _, w := range v.Waiting {
			g, st, ok := strings.Cut(w, " waits at ")
			if ok && !strings.Contains(g, " ") && strings.HasPrefix(st, g+" ") {
				f.waits[g] = stepNoObj(st)
			}
		}
	}
	return f
}

// stepNoObj returns a step's text ("g1 read x#1 @a.go:3:4 n=1") without
// its object, as a goroutine waiting at a gate with no step left names
// what it is about to do ("g1 read @a.go:3:4 n=1").
func stepNoObj(text string) string {
	fs := strings.Fields(text)
	if len(fs) < 2 {
		return text
	}
	out := fs[:2:2]
	for _, x := range fs[2:] {
		if strings.HasPrefix(x, "@") || strings.HasPrefix(x, "n=") {
			out = append(out, x)
		}
	}
	return strings.Join(out, " ")
}

// failedWithin reports whether replay verdict v is a failure that the
// schedule's first v.Step steps decide, given what the replay does with
// the steps after them (prefixSig): a deadlock (nothing can move, step
// v.Step cannot come), or a divergence at step v.Step (its goroutine did
// something else there). Replay is deterministic: it grants the turn
// step by step, and up to the failure only those steps had their turn.
// Not counted: a deadlock found by the wall-clock stall bound ("nothing
// moved": code ran outside recorded operations, and a faster run may
// have gone on), a divergence found at the schedule's end about the
// anomaly's objects, and an interrupted anomaly (Verdict.Interrupted:
// the program ran free after it, and how it ended made it Diverged).
func failedWithin(v replay.Verdict, steps int) bool {
	switch v.Verdict {
	case replay.Deadlock:
		if strings.HasPrefix(v.Message, "nothing moved") {
			return false
		}
	case replay.Diverged:
		if v.Interrupted || v.Goroutine == "" || v.Expected == "" {
			return false
		}
	default:
		return false
	}
	return v.Step >= 1 && v.Step <= steps
}

// prefixSig is what decides a replay up to a failure at step k: the
// first k steps; each goroutine's next step after them (a goroutine that
// reaches its gate compares what it does with that step, then waits there
// for its turn; one with no step left waits until the schedule is done,
// but passes the gates of operations replay may omit, and of selects);
// and the anomaly's steps, which change how replay treats a goroutine
// that takes another path (released, diverged, interrupted: rt's turn).
// ok: the schedule has k steps and no anomaly step before step k, so no
// anomaly step ran before the failure (nor was omitted: an anomaly step
// never is); then a goroutine that takes another path is released
// exactly when it owns no anomaly step, and none is interrupted (that
// needs another goroutine's part of the anomaly to have run first), so
// the owners decide.
type prefixSig struct {
	ok     bool
	prefix [sha256.Size]byte
	next   map[string]string
	owners string // goroutines owning anomaly steps, sorted
}

// sig reads p's prefixSig for a failure at step k (from 1).
func (p prediction) sig(k int) prefixSig {
	var sg prefixSig
	var at []int
	h := sha256.New()
	n := 0
	owners := map[string]bool{}
	sg.next = map[string]string{}
	sg.ok = true
	p.eachStep(func(a []int) {
		at = a
		for _, i := range a {
			if i < k-1 {
				sg.ok = false
			}
		}
	}, func(g, text []byte) bool {
		if !sg.ok {
			return false
		}
		for _, i := range at {
			if i == n && !owners[string(g)] {
				owners[string(g)] = true
			}
		}
		if n < k {
			h.Write(text)
			h.Write([]byte{'\n'})
		} else if _, ok := sg.next[string(g)]; !ok {
			sg.next[string(g)] = string(text)
		}
		n++
		return true
	})
	sg.finish(h, owners, at, n, k)
	return sg
}

// finish completes a signature read over n steps, of which the first k
// went into h, with anomaly steps at and their owners.
func (sg *prefixSig) finish(h hash.Hash, owners map[string]bool, at []int, n, k int) {
	if n < k || !allOwned(at, n) {
		sg.ok = false
	}
	h.Sum(sg.prefix[:0])
	var names []string
	for g := range owners {
		names = append(names, g)
	}
	sort.Strings(names)
	sg.owners = strings.Join(names, " ")
}

// allOwned reports whether every anomaly index is a step of a schedule of
// n steps (one goroutine may own several).
func allOwned(at []int, n int) bool {
	for _, i := range at {
		if i < 0 || i >= n {
			return false
		}
	}
	return true
}

// shares reports whether a schedule with signature s replays as f's did
// up to its failure (prefixSig), and fails there too. The goroutines with
// a step after the first k are compared: a goroutine whose next step is
// the same in both reaches the same gates, does the same there, and
// waits for its turn, which does not come before the failure.
//
// For a deadlock, s may also give a step after the first k to a goroutine
// that f gives none. In f that goroutine, at quiescence, either waited at
// a gate with no step left (Verdict.Waiting names what it was about to
// do), or was not at any gate (not started, ended, or blocked elsewhere).
// In s it then waits at that same gate when its step is that operation
// (required), or, never reaching a gate after its first steps, never
// compares anything with its step; either way it does no more than in f
// (a gate that lets a goroutine with no step left through, an omittable
// operation's or a select's, holds it for its turn in s). The converse,
// a goroutine with a step in f and none in s, could get further in s, so
// it is not inferred. Nor is a divergence beyond equal next steps: other
// goroutines were still running when it was found.
//
// The anomaly's owners need to be the same only for a divergence: that
// goroutine is released instead when it owns no anomaly step (rt's turn).
// Under a deadlock, a goroutine that takes another path before it was
// released in f, which owns no anomaly step there; in s it is released
// too, or it diverges.
func (f failure) shares(s prefixSig) bool {
	if !f.sig.ok || !s.ok || f.sig.prefix != s.prefix {
		return false
	}
	if !f.deadlock && f.sig.owners != s.owners {
		return false
	}
	for g, t := range f.sig.next {
		if s.next[g] != t {
			return false
		}
	}
	if len(s.next) == len(f.sig.next) {
		return true
	}
	if !f.deadlock {
		return false
	}
	for g, t := range s.next {
		if _, ok := f.sig.next[g]; ok {
			continue
		}
		if w, ok := f.waits[g]; ok && w != stepNoObj(t) {
			return false // it would take another path at its gate in s
		}
	}
	return true
}

// infer reports whether an earlier final failure of item i's trace
// (failure) is shared by item i, and notes which (q.mu held). Each
// failure is tried on an item once.
func (q *replayQueue) infer(i int) bool {
	it := q.items[i]
	if it.inferred > 0 {
		return true
	}
	if it.state == pDone && it.v.Verdict == replay.Reproduced {
		return false // replay is the fact (not expected: see failure)
	}
	g := it.g
	for ; it.failsTried < len(g.fails); it.failsTried++ {
		f := g.fails[it.failsTried]
		if f.from >= i {
			continue
		}
		sg, ok := it.sigs[f.k]
		if !ok {
			sg = it.p.sig(f.k)
			if it.sigs == nil {
				it.sigs = map[int]prefixSig{}
			}
			it.sigs[f.k] = sg
		}
		if f.shares(sg) {
			it.inferred = f.from + 1
			return true
		}
	}
	return false
}

// inferredVerdict is the verdict of item j, whose failure item i shares,
// as i's.
func (q *replayQueue) inferredVerdict(j *qItem, i *qItem) replay.Verdict {
	v := j.v
	v.Steps = i.p.len()
	v.Message = fmt.Sprintf("same prefix as replay %d, which failed at step %d: %s", j.n(), v.Step, v.Message)
	v.Wall, v.Output, v.Trace = 0, "", ""
	return v
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
