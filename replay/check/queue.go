package check

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/ssatrace/record"
	"github.com/pecanvet/pecanvet/ssatrace/trace"
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
// not replayed again. Findings are taken trace by trace, in order, by
// finish.
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
	test  string
	dir   string
	max   int // replays at most
	ropt  replay.Options
	first int // index of its first item
	n     int
	ran   map[[sha256.Size]byte]int // schedule text's sum → the item that replayed it
	// spent is the wall time of its replays so far; past replayShare of
	// the budget, its other predictions are dropped (shareCut).
	spent    time.Duration
	shareCut bool
	dooms    []doom // learned from its replays that deadlocked outside recorded operations
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
type doom struct {
	from int // the item whose replay showed it
	g    string
	n    int
	done map[string]int
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
	return d, true
}

// dooms reports whether p's schedule reaches step n+1 of d.g with at most
// d.done steps of every goroutine run.
func (d doom) dooms(p prediction) bool {
	run := map[string]int{}
	doomed := false
	p.eachStepG(func(g string) bool {
		if g == d.g && run[d.g] == d.n {
			doomed = true
			for h, k := range run {
				if k > d.done[h] {
					doomed = false
				}
			}
			return false
		}
		run[g]++
		return true
	})
	return doomed
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
	g := &qGroup{test: test, dir: dir, max: max, ropt: ropt, n: len(preds), ran: map[[sha256.Size]byte]int{}}
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
		allDecided := true
		for _, g := range q.groups {
			if g.first+g.n <= q.from {
				continue
			}
			open, needed, running := 0, 0, 0 // of g before i: undecided, needed so far, replaying
			for i := g.first; i < g.first+g.n; i++ {
				it := q.items[i]
				k := it.p.a.Key
				if it.state == pOpen {
					switch {
					case q.seen[k] || q.proved[k]:
						it.state, it.provedSkip, changed = pSkipped, true, true
					case q.earlierOpen(i):
						// wait for the earlier instances of k
					case q.doomed(i):
						it.state, changed = pDoomed, true
					default:
						if j, ok := g.ran[it.p.sum]; ok && j < i {
							it.state = pSkipped // same steps, same outcome
						} else {
							it.state = pNeeded
						}
						changed = true
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
						// it is undecided, nor running (a replay still
						// running may learn a doom that frees a place);
						// otherwise wait.
						if open == 0 && running == 0 || late || over {
							it.state, changed = pDropped, true
							g.shareCut = g.shareCut || over && !late
						}
						needed++
						continue
					}
					needed++
					if q.running < q.workers {
						q.start(i)
						changed = true
					}
				case pRunning, pDone:
					// One that an earlier replay's doom covers (learned
					// after it started) takes no place, as if it had
					// waited for that replay.
					if !q.doomed(i) {
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
				} else if allDecided {
					q.from = i + 1
				}
			}
		}
	}
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
	g.ran[it.p.sum] = i
	n := i - g.first + 1
	q.opt.progress("check: %s %s: replay %d (%s %s)", q.pkg, g.test, n, it.p.a.Pattern.ID(), it.p.a.Sites[0])
	go func() {
		start := time.Now()
		v := runReplay(q.ctx, q.b, q.pkg, g.test, it.p, filepath.Join(g.dir, fmt.Sprintf("r%d", n)), g.ropt)
		d := time.Since(start)
		// A finding keeps its whole schedule only if reproduced (its clip
		// is shown); else its anomaly's steps.
		s, err := it.p.schedule(v.Verdict == replay.Reproduced)
		if err != nil {
			v = replay.Verdict{Verdict: replay.Ended, Message: "reading the schedule back: " + err.Error(), Steps: it.p.steps}
			s, _ = it.p.schedule(false)
		}
		q.mu.Lock()
		defer q.mu.Unlock()
		q.running--
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
		q.pump()
		q.cond.Broadcast()
	}()
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
			}
		}
	}
	return out
}
