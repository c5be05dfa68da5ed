package check

import (
	"fmt"
	"sort"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
)

// A probe orders, it prunes nothing. After a replay of item j stalled
// because root r (a goroutine uninstrumented code starts: net/http's
// connection goroutine of an httptest.Server) had not started, its doom
// covers only the schedules that reach r's first step after no more steps
// of any goroutine; the search order gives r's first step ever deeper
// prefixes, so the next replays of the trace stall one step further each
// and earn as little (chi's TestMuxBasic: 123 of 127 replays stalled on
// g2, 0 reproduced, ~3 s each). So before the items after j, the queue
// replays the trace's item after j whose schedule reaches r's first step
// after the most steps (probeDepthsOf); if it stalls there too, its doom
// covers every shallower schedule that runs no more steps of any
// goroutine, and those are not replayed. If it gets past r's first step
// (r started), the next probe of r (after a later stall) bisects: it
// takes the median of the depths between the stall's and that one.
//
// The probe's doom is the same sound fact any replay's doom is (a
// schedule of the trace reaching r's first step with at most those steps
// run deadlocks); it is dated j (applies to the items after j) so that
// what is replayed is what replaying j, its probe, then the rest one
// after the other gives: a probe starts only once j is final, chooses
// with the dooms dated up to j, and the items after j wait for it, so
// the outcome does not depend on the replays' durations. A probe's own
// verdict is no finding (its item, if not doomed, is replayed in its
// turn); it is charged to j's place in the work.
type probe struct {
	item  int // the item whose schedule is replayed
	root  string
	depth int // the steps before root's first step in its schedule
	state int // probeWaiting, probeRunning, probeDone
	v     replay.Verdict
}

const (
	probeWaiting = iota
	probeRunning
	probeDone
)

// maxProbes bounds a trace's probes: each follows a stall of its own
// replay, so probes at most double the replays; the bound keeps a trace
// whose probes all get past the root (every depth feasible) from spending
// more than a few replays on them.
const maxProbes = 16

// reach is where an item's schedule reaches a root's first step: depth
// steps before it, run[g] of them goroutine g's (depth -1: it never does).
type reach struct {
	depth int
	run   map[string]int
}

// reachOf returns (and keeps) where item it's schedule reaches root r's
// first step.
func (it *qItem) reachOf(r string) reach {
	if rc, ok := it.reaches[r]; ok {
		return rc
	}
	rc := reach{depth: -1, run: map[string]int{}}
	n := 0
	it.p.eachStepG(func(g string) bool {
		if g == r {
			rc.depth = n
			return false
		}
		rc.run[g]++
		n++
		return true
	})
	if rc.depth < 0 {
		rc.run = nil
	}
	if it.reaches == nil {
		it.reaches = map[string]reach{}
	}
	it.reaches[r] = rc
	return rc
}

// covers reports whether doom d, with its root's first step stuck,
// covers a schedule that reaches that root's first step as rc says.
func (d doom) covers(rc reach) bool {
	if d.strict || d.n != 0 || rc.depth < 0 {
		return false
	}
	for g, k := range rc.run {
		if k > d.done[g] {
			return false
		}
	}
	return true
}

// unstartedRoot returns the root whose first step replay verdict v of
// prediction p stalled on, and the steps before it, if it did ("" if
// not).
func unstartedRoot(p prediction, v replay.Verdict) (string, int) {
	d, ok := newDoom(0, p, v)
	if !ok || d.strict || d.n != 0 || !isRoot(d.g) || trace.IsPreRoot(d.g) {
		return "", 0
	}
	return d.g, v.Step - 1
}

// newProbe chooses the probe of final item j, whose replay stalled at
// depth on root r's first step (q.mu held), nil if there is none: among
// the later items of j's trace that reach r's first step after more steps
// than depth (and fewer than a probe that got past it), not covered by a
// doom dated up to j, the deepest, or (once a probe got past r) the
// median; the first in order among equals.
func (q *replayQueue) newProbe(j int, r string, depth int) *probe {
	it := q.items[j]
	g := it.g
	if g.probes >= maxProbes {
		return nil
	}
	hi, bisect := g.reached[r]
	type cand struct{ i, depth int }
	var cs []cand
	for i := j + 1; i < g.first+g.n; i++ {
		rc := q.items[i].reachOf(r)
		if rc.depth <= depth || bisect && rc.depth >= hi {
			continue
		}
		covered := false
		for _, d := range g.dooms {
			if d.from <= j && d.g == r && d.covers(rc) {
				covered = true
				break
			}
		}
		if !covered {
			cs = append(cs, cand{i, rc.depth})
		}
	}
	if len(cs) == 0 {
		return nil
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].depth > cs[b].depth })
	c := cs[0]
	if bisect {
		c = cs[len(cs)/2]
		for _, e := range cs {
			if e.depth == c.depth {
				c = e // the first in order at that depth
				break
			}
		}
	}
	g.probes++
	return &probe{item: c.i, root: r, depth: c.depth}
}

// startProbe runs the replay of item j's probe (q.mu held).
func (q *replayQueue) startProbe(j int) {
	it := q.items[j]
	pr := it.probe
	pit := q.items[pr.item]
	g := it.g
	pr.state = probeRunning
	q.running++
	q.crowded = q.crowded || q.running > 1
	q.opt.progress("check: %s %s: probe after replay %d: replay %d (%s %s), %s's first step after %d steps", q.pkg, g.test, it.n(), pit.n(), pit.p.a.Pattern.ID(), pit.p.a.Sites[0], pr.root, pr.depth)
	opt := q.bounded(g.ropt)
	dir := fmt.Sprintf("%s-probe%d", q.replayDir(pr.item), it.n())
	p := pit.p
	go func() {
		start := time.Now()
		v := runReplay(q.ctx, q.b, q.pkg, g.test, p, dir, opt)
		d := time.Since(start)
		q.mu.Lock()
		defer q.mu.Unlock()
		q.running--
		q.probeDone(j, v, d)
		q.pump()
		q.cond.Broadcast()
	}()
}

// probeDone takes the verdict v, of wall time d, of item j's probe (q.mu
// held): a doom dated j if it stalled, else, if it got past the root's
// first step, the depth that bounds the next probes of that root.
func (q *replayQueue) probeDone(j int, v replay.Verdict, d time.Duration) {
	it := q.items[j]
	g := it.g
	pr := it.probe
	pit := q.items[pr.item]
	pr.state, pr.v = probeDone, v
	q.replays++
	q.replayed += d
	why := ""
	if (v.Verdict == replay.Diverged || v.Verdict == replay.Deadlock) && v.Message != "" {
		why = ": " + clipLine(v.Message, 240)
	}
	q.opt.progress("check: %s %s: probe after replay %d (replay %d): %s in %v%s", q.pkg, g.test, it.n(), pit.n(), v.Verdict, d.Round(time.Millisecond), why)
	dm, ok := newDoom(j, pit.p, v)
	if ok {
		g.dooms = append(g.dooms, dm)
	}
	if stuck := ok && !dm.strict && dm.g == pr.root && dm.n == 0; !stuck && v.Step > pr.depth+1 {
		if h, seen := g.reached[pr.root]; !seen || pr.depth < h {
			if g.reached == nil {
				g.reached = map[string]int{}
			}
			g.reached[pr.root] = pr.depth
		}
	}
}

// probeCharge bounds the work item it's probe charges (q.mu held).
func (q *replayQueue) probeCharge(it *qItem) (lo, hi int64) {
	pr := it.probe
	if pr == nil {
		return 0, 0
	}
	c := q.items[pr.item].cost
	if pr.state == probeDone {
		c += quietCharge(pr.v)
		return c, c
	}
	return 0, c + quietUnits
}
