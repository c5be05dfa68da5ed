// Package predict finds the anomalies another schedule of a recorded trace
// would show, each with a schedule that shows it.
//
// It runs the PTG engine end to end on one trace: it builds the graph
// (predict/ptg), searches it for pattern instances (predict/search) and
// keeps those for which a feasible schedule exists (predict/schedule). It
// is what `pecanvet predict` prints and what replay is fed.
package predict

import (
	"context"
	"fmt"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
	"github.com/pecanvet/pecanvet/predict/search"
)

// Options configure a prediction.
type Options struct {
	Search search.Options
	// Confirm, if set, is asked about each anomaly that has a feasible
	// schedule (the replayer runs it); an anomaly it rejects is dropped and
	// the search tries other instances of the same site combination, up to
	// Search.MaxTries.
	Confirm func(Anomaly) bool
	// Feasible, if set, is asked about each candidate instance before its
	// schedule is generated; one it rejects (predict/filter's lock check:
	// no lock-valid execution realizes it) is counted infeasible without
	// the cost of generating a schedule.
	Feasible func(search.Candidate) bool
	// Deadline, if not zero, and Context, if set, bound the prediction:
	// once either runs out the search stops, Run returns the anomalies
	// found so far and Result.Cut says what was left out.
	Deadline time.Time
	Context  context.Context
	// MaxWork, if positive, bounds the prediction by the work it does
	// rather than by the clock: once it has done that many units (Work)
	// the search stops as at a deadline. The same trace and options then
	// give the same anomalies on any machine under any load.
	MaxWork int64
	// Prefer, if set, names the site combinations to search first (their
	// sites, "path:line:col", in pattern order): pecanvet passes those on
	// a static candidate's two sides, so that a search the deadline cuts
	// has looked at them (search.Options.Prefer).
	Prefer func(sites []string) bool
	// SelectAlt, if set, reports whether the channel operation at site
	// ("path:line:col") is a case of a select that has another branch (a
	// default, or a case a timer, a context or another goroutine can
	// end): the leak finder's select cases. Without it no leak is
	// predicted: the trace records which case a select took, not what
	// else it could have done.
	SelectAlt func(site string) bool
	// SelectLoopAlt, if set, reports whether the channel operation at
	// site is a case of a select whose other branch comes back to the
	// select (a timer case in a loop): a leak candidate only when the
	// partner holds a lock the select's goroutine takes (Leaks).
	SelectLoopAlt func(site string) bool
	// StopCase, if set, reports whether the channel operation at site sel
	// is a case of a select that has a stop case (a receive from a
	// channel of the program, which another goroutine may close) at the
	// line of site stop; stop "" asks for any such case. The leak finder
	// then takes a recorded close of that channel as the select's other
	// branch (StopLeaks). Nil: no such leaks.
	StopCase func(sel, stop string) bool
	// Relock, if set, reports whether a read at site decides a branch
	// that locks again a mutex its goroutine holds there (from the
	// source): the double-lock finder's reads. Nil: no double locks.
	Relock func(site string) bool
	// Inversion, if set, reports whether a read at site decides a path
	// that takes another mutex while its goroutine holds one there (from
	// the source): the stale-read inversion finder's reads
	// (StaleInversions). Nil: none.
	Inversion func(site string) bool
}

// Work units: a search poll stands for the search's steps between polls
// (search.Options.Stop: 4096 steps, or a few hundred of its costlier
// ones); a schedule generated for workSchedule units plus one per
// workEvents events of the trace, as it may pass over the whole trace.
const (
	workSchedule = 1
	workEvents   = 4096
)

// stop reports whether the deadline or the context ran out.
func (o *Options) stop() bool {
	if o.Context != nil && o.Context.Err() != nil {
		return true
	}
	return !o.Deadline.IsZero() && time.Now().After(o.Deadline)
}

// Anomaly is one predicted access anomaly with the schedule that exposes it.
type Anomaly struct {
	Pattern  *pattern.Pattern
	Events   []int32           // event indices (0-based), in pattern order
	Sites    []string          // site of each event ("" if unknown)
	Key      string            // pattern.Key: one report per combination of sites
	Schedule schedule.Schedule // ends with the anomaly's last event
	// Unsound names a lock used in a non-nested way by the schedule, when
	// Theorem 1 does not cover it; empty otherwise.
	Unsound string
	// Split is the site of a release by which the anomaly's unit of work
	// deliberately splits itself between two of its events
	// (ptg.Graph.SplitBetween); empty otherwise. With Recheck, it is
	// instead the site of the acquire under which the unit re-checks what
	// it read before (ptg.Graph.RecheckBetween): such a violation is worth
	// reporting only when its replay shows an effect, since the re-read
	// decides. With Atomics, it is the site of the later of two of the
	// unit's events when every event of the instance is a sync/atomic
	// operation (allAtomic): code that makes each access atomic on its own
	// means them to be separate (a counter's Add(1) and Add(-1)). A split
	// or an all-atomic violation is reported as any other is, with an
	// effect or a dependence (check.Finding.WithoutEffect).
	Split   string
	Recheck bool
	Atomics bool
	// Reread: the unit reads again, under a lock it takes after one of
	// its unlocked reads (in whatever method), that read's object
	// (ptg.Graph.RereadUnderLock): the re-read sees a remote write in
	// between as the "before" serial order would (check's controls).
	Reread bool
	// Unpaced (a leak whose select escapes through its own branch, a
	// timeout, not a stop case or a loop's next round): nothing in the
	// recorded run can make the partner late for the select but the
	// schedule holding it (leakPaced says what can). If the replay then
	// proves the leak only by holding the partner while the program's
	// clock fired the select's timer, check takes the leak for the
	// hold's doing (check.heldLeak).
	Unpaced bool
	// Returned (an observed leak, pattern leak/observed, which check
	// finds): the site ("path:line") of the escape branch through which
	// the blocked operation's partner function returned.
	Returned string
	// Waits and Stuck (an observed leak not in a plain channel send or
	// receive, check/observedsync.go): how the report names the blocked
	// operation ("select", "WaitGroup.Wait", …) and why nothing live can
	// release it.
	Waits, Stuck string
	// Frames are, per event, the method activations it ran in, outermost
	// first (ptg.Graph.Activations): whether a value read by one event
	// can reach another depends on whether they ran in one call
	// (static/depend).
	Frames [][]Frame
	// Keys are, per event, the hash of the map key it accessed (an
	// element's read or write: trace.Op.HasKey), 0 for any other event
	// or an access of the whole map. Two events of one variable with
	// non-zero keys have equal ones (search's keysApart): static/depend
	// then knows they touched one entry (heldEntry).
	Keys []int64
}

// Frame is one method activation: its region-begin event, which tells
// activations apart, and the method's site (its name in its declaration).
type Frame struct {
	Begin int32
	Site  string
}

// SplitWhy says, for a violation across a deliberate split (Split), why
// the unit is split there ("the unit releases its lock at x.go:12 in
// between on purpose"); site shortens a site for the message.
func (a *Anomaly) SplitWhy(site func(string) string) string {
	switch {
	case a.Split == "":
		return ""
	case a.Recheck:
		return "the unit takes a lock at " + site(a.Split) + " and re-checks under it what it read before"
	case a.Atomics:
		return "every access is a sync/atomic operation of its own (the unit's later one at " + site(a.Split) + ")"
	}
	return "the unit releases its lock at " + site(a.Split) + " in between on purpose"
}

// Stats describe a prediction run.
type Stats struct {
	Events, Goroutines int
	Build              time.Duration // PTG construction
	Search             time.Duration // pattern search, schedule generation excluded
	Schedule           time.Duration // schedule generation and checking
	Schedules          int           // schedules attempted
	Candidates         int           // candidate instances the search proposed
	Infeasible         int           // candidates without a feasible schedule
	Unobserved         int           // instances without effect, not proposed (search.Stats.Unobserved)
	KeysApart          int           // instances on different keys of a map, not proposed (search.Stats.KeysApart)
	Work               int64         // work units done (Options.MaxWork)
	Folded             int           // goroutine assignments folded by symmetry (search.Stats.Folded)
	// GivenUp: the blocking finders' site combinations (pattern keys)
	// given up after maxInfeasible instances in a row without a feasible
	// schedule (maxInfeasibleAfter once one had one).
	GivenUp []string
	// CutAt is the pattern of the finder past the access search
	// (deadlocks, leaks, early Waits...) at which the deadline or the
	// work bound stopped it; empty: none was stopped.
	CutAt string
}

// Result is the outcome of Run.
type Result struct {
	Graph     *ptg.Graph
	Anomalies []Anomaly
	Warnings  []string
	Stats     Stats
	// Cut is empty when the search ran to the end; otherwise it says
	// where the deadline stopped it (the anomalies are those found before).
	Cut string
	// WorkCut: the cut was Options.MaxWork's, not the clock's.
	WorkCut bool
}

// Run predicts the anomalies of tr matching pats.
func Run(tr *trace.Trace, pats []*pattern.Pattern, opt Options) (*Result, error) {
	if len(tr.Events) == 0 {
		return nil, fmt.Errorf("empty trace: no events to analyze")
	}
	if err := tr.Check(); err != nil {
		return nil, err
	}
	res := &Result{}
	t0 := time.Now()
	gr := ptg.Build(tr)
	res.Graph = gr
	res.Stats.Build = time.Since(t0)
	res.Stats.Events = len(tr.Events)
	res.Stats.Goroutines = len(tr.Goroutines)
	res.Warnings = append(res.Warnings, gr.Warn...)

	var schedTime time.Duration
	gen := schedule.NewGenerator(gr)
	t1 := time.Now()
	sopt := opt.Search
	schedWork := int64(workSchedule + len(tr.Events)/workEvents)
	overWork := func() bool {
		if opt.MaxWork > 0 && res.Stats.Work >= opt.MaxWork {
			res.WorkCut = true
			return true
		}
		return false
	}
	if opt.Context != nil || !opt.Deadline.IsZero() || opt.MaxWork > 0 {
		sopt.Stop = func() bool {
			res.Stats.Work++
			return opt.stop() || overWork() || opt.Search.Stop != nil && opt.Search.Stop()
		}
	}
	if opt.stop() || opt.Search.Stop != nil && opt.Search.Stop() {
		res.Cut = "time ran out before the search: nothing searched"
		return res, nil
	}
	// cutBy says what stopped the search.
	cutBy := func() string {
		if res.WorkCut {
			return fmt.Sprintf("the work bound (%d units) was reached", opt.MaxWork)
		}
		return "time ran out"
	}
	if opt.Prefer != nil {
		// Asked once per combination of code (skeleton) and pattern:
		// remember the answer per site tuple.
		memo := map[string]bool{}
		var kb []byte
		var names []string
		sopt.Prefer = func(sites []int32) bool {
			kb = kb[:0]
			for _, x := range sites {
				kb = append(kb, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
			}
			if v, ok := memo[string(kb)]; ok {
				return v
			}
			names = names[:0]
			for _, x := range sites {
				names = append(names, tr.Site(trace.Event{Site: x}))
			}
			v := opt.Prefer(names)
			memo[string(kb)] = v
			return v
		}
	}
	// add keeps an anomaly that Confirm accepts.
	add := func(a Anomaly) bool {
		if opt.Confirm != nil && !opt.Confirm(a) {
			return false
		}
		res.Anomalies = append(res.Anomalies, a)
		return true
	}
	wgOn := wgPattern(pats) != nil
	try := func(c search.Candidate) bool {
		// A schedule costs up to a pass over the trace: check the deadline
		// before each one, not only at the search's polls.
		if sopt.Stop != nil && sopt.Stop() {
			return false
		}
		res.Stats.Work += schedWork - 1 // Stop counted one
		ts := time.Now()
		defer func() { schedTime += time.Since(ts) }()
		if wgOn && wgModelOnly(gr, c.Events) {
			// The race of the WaitGroup model's events is the early
			// Wait that earlyWaits predicts and words as such.
			return false
		}
		if opt.Feasible != nil && !opt.Feasible(c) {
			res.Stats.Infeasible++
			return false
		}
		res.Stats.Schedules++
		sched, err := gen.Generate(c.Events, c.Pattern.Adjacent)
		if err != nil {
			res.Stats.Infeasible++
			return false
		}
		if err := gen.Check(sched, c.Events, c.Pattern.Adjacent); err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("internal: generated schedule for %s rejected: %v", c.Key, err))
			res.Stats.Infeasible++
			return false
		}
		a := Anomaly{Pattern: c.Pattern, Events: c.Events, Key: c.Key, Schedule: sched}
		for _, e := range c.Events {
			a.Sites = append(a.Sites, tr.Site(tr.Events[e]))
		}
		a.Unsound = unsound(gr, sched)
		a.Split, a.Recheck, a.Atomics = split(gr, c.Pattern, c.Events)
		a.Reread = reread(gr, c.Pattern, c.Events)
		for _, e := range c.Events {
			var k int64
			if ev := tr.Events[e]; ev.Op.HasKey() {
				k = ev.Arg
			}
			a.Keys = append(a.Keys, k)
		}
		if !c.Pattern.Adjacent {
			a.Frames = frames(gr, c.Events)
		}
		return add(a)
	}
	// The work bound is spent in order of what matters most: races (what
	// -race would find) from the one-event classes alone, then the
	// blocking finders, and only then the atomicity and atomic-set
	// patterns, whose index of the atomic regions' access sequences can
	// take the whole bound on a trace of huge regions (google/btree's
	// clone tests, redcon's TestPubSub): indexed first, as it was, it left
	// no race searched there, and no finder tried.
	var races, others []*pattern.Pattern
	for _, p := range pats {
		if p.Adjacent {
			races = append(races, p)
		} else {
			others = append(others, p)
		}
	}
	st := search.Run(gr, races, sopt, try)
	// Lock-order inversions: found from the trace's lock nesting, not by
	// the access search (pattern option lock).
	td := time.Now()
	deadlocks(gr, gen, pats, sopt.Stop, &res.Stats, add)
	// Goroutine leaks: a select's case whose other branch strands its
	// partner (pattern option leak).
	leaks(gr, gen, pats, opt.SelectAlt, opt.SelectLoopAlt, opt.StopCase, sopt.Stop, &res.Stats, add)
	// Double locks down a path another schedule takes (option relock).
	doubleLocks(gr, gen, pats, opt.Relock, opt.Inversion, sopt.Stop, &res.Stats, add)
	// Stolen partners: a competing receiver (or sender) takes a matched
	// operation's partner first (pattern option stolen).
	stolens(gr, gen, pats, sopt.Stop, &res.Stats, add)
	// WaitGroup Waits that can run before their Add (pattern option wg).
	earlyWaits(gr, gen, pats, sopt.Stop, &res.Stats, add)
	// Sends on a closed channel that the recorded run ordered before the
	// close only through the channel's own matches.
	closeFirsts(gr, gen, pats, opt.StopCase, sopt.Stop, &res.Stats, add)
	schedTime += time.Since(td)
	racesCut := st.Cut
	if !st.Cut && res.Stats.CutAt == "" {
		st.Add(search.Run(gr, others, sopt, try))
	}
	if !st.Cut && res.Stats.CutAt == "" {
		// Order violations (pattern option order) last: two critical
		// sections of one lock in the other serial order, which most
		// often proves nothing, take what the bound leaves.
		to := time.Now()
		orderSwaps(gr, gen, pats, sopt.Stop, &res.Stats, add)
		schedTime += time.Since(to)
	}
	if res.Cut == "" && !racesCut && res.Stats.CutAt != "" {
		// The race search ran through, but its work left the finders past
		// it too little: they stop at the same bound, and say so.
		res.Cut = fmt.Sprintf("%s past the race search, at pattern %s: %d anomalies found, the rest of that pattern's candidates, the finders after it and the atomicity patterns not tried", cutBy(), res.Stats.CutAt, len(res.Anomalies))
	}
	res.Stats.Search = time.Since(t1) - schedTime
	res.Stats.Schedule = schedTime
	res.Stats.Candidates = st.Candidates
	res.Stats.Unobserved = st.Unobserved
	res.Stats.KeysApart = st.KeysApart
	res.Stats.Folded = st.Folded
	if st.Cut {
		if st.CutAt == "" {
			res.Cut = cutBy() + " while indexing the atomic regions' accesses (a region of very many distinct accesses): races and blocking patterns searched, no atomicity pattern"
		} else {
			where, rest := "in the search, at pattern "+st.CutAt, "the rest of the patterns not searched"
			kind := "pattern"
			if racesCut {
				kind = "race pattern"
			}
			switch {
			case opt.Prefer != nil && st.CutInPreferred:
				where, rest = "in the search for the static candidates' site combinations (searched first), at pattern "+st.CutAt, "the rest not searched"
			case opt.Prefer != nil:
				where, rest = "in the search, at pattern "+st.CutAt+", after every "+kind+" was searched for the static candidates' site combinations", "the rest of the patterns not searched for other combinations"
			}
			if racesCut {
				rest += "; the blocking finders and the atomicity patterns not tried"
			}
			res.Cut = fmt.Sprintf("%s %s: %d anomalies found, %s", cutBy(), where, len(res.Anomalies), rest)
		}
	}
	if st.RegionsCapped {
		res.Warnings = append(res.Warnings, "search: an atomic region holds so many distinct accesses (a call looping over a huge slice) that its access sequences were not all indexed: atomicity violations inside it may be missed")
	}
	if n := len(res.Stats.GivenUp); n > 0 {
		what := "the site combination " + res.Stats.GivenUp[0]
		if n > 1 {
			what = fmt.Sprintf("%d site combinations (first %s)", n, res.Stats.GivenUp[0])
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("search: gave up %s of the blocking patterns after %d instances in a row without a feasible schedule (%d once one had one)", what, maxInfeasible, maxInfeasibleAfter))
	}
	if st.Capped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("search: %d site combinations given up after the cap on goroutine assignments (search.Options.MaxAssign)", st.Capped))
	}
	return res, nil
}

// split returns the site of a deliberate split of a unit of the instance
// between two of its events (same thread and unit in the pattern), or "";
// recheck says it is the acquire of a re-check (RecheckBetween) rather
// than a release (SplitBetween), atomics that every event is an atomic
// operation (allAtomic).
func split(gr *ptg.Graph, p *pattern.Pattern, events []int32) (site string, recheck, atomics bool) {
	if p.Adjacent || p.Chan {
		return "", false, false
	}
	at := func(r int32) string {
		if s := gr.Tr.Site(gr.Tr.Events[r]); s != "" {
			return s
		}
		return "?"
	}
	pairs := func(f func(a, b int32) int32) int32 {
		for i := range events {
			for j := i + 1; j < len(events); j++ {
				if p.T[i] != p.T[j] || p.AR[i] != p.AR[j] {
					continue
				}
				if r := f(events[i], events[j]); r >= 0 {
					return r
				}
			}
		}
		return -1
	}
	if r := pairs(gr.SplitBetween); r >= 0 {
		return at(r), false, false
	}
	if r := pairs(gr.RecheckBetween); r >= 0 {
		return at(r), true, false
	}
	if allAtomic(gr, events) {
		later := func(a, b int32) int32 {
			if gr.Local[a] > gr.Local[b] {
				return a
			}
			return b
		}
		if r := pairs(later); r >= 0 {
			return at(r), false, true
		}
	}
	return "", false, false
}

// reread reports whether two events of one unit of the instance are an
// unlocked read and a later re-read under a lock (RereadUnderLock).
func reread(gr *ptg.Graph, p *pattern.Pattern, events []int32) bool {
	if p.Adjacent || p.Chan {
		return false
	}
	for i := range events {
		for j := range events {
			if i != j && p.T[i] == p.T[j] && p.AR[i] == p.AR[j] && gr.RereadUnderLock(events[i], events[j]) {
				return true
			}
		}
	}
	return false
}

// frames returns the method activations of each event.
func frames(gr *ptg.Graph, events []int32) [][]Frame {
	out := make([][]Frame, len(events))
	for k, e := range events {
		for _, b := range gr.Activations(e) {
			out[k] = append(out[k], Frame{Begin: b, Site: gr.Tr.Site(gr.Tr.Events[b])})
		}
	}
	return out
}

// allAtomic reports whether every event of an instance is a sync/atomic
// operation. A counter incremented when work starts and decremented when
// it ends (conc's running-goroutines count, pond's idle workers) is read
// and updated between by others on purpose: each operation is atomic,
// and the pair was never meant to be, even when the unit holds a lock
// across both (pond's purger checks and decrements the idle count under
// its mutex; workers add to it without). A check-then-act built of
// atomics (a load, then a store that assumes the loaded value) is a bug
// only when it shows: its replay must fail or panic.
func allAtomic(gr *ptg.Graph, events []int32) bool {
	for _, e := range events {
		if !gr.Tr.Events[e].Op.IsAtomic() {
			return false
		}
	}
	return len(events) > 0
}

func unsound(gr *ptg.Graph, sched schedule.Schedule) string {
	if len(gr.Unsafe) == 0 {
		return ""
	}
	for _, e := range sched.Events() {
		ev := gr.Tr.Events[e]
		if (ev.Op.IsAcquire() || ev.Op.IsRelease()) && gr.Unsafe[ev.Obj] {
			return gr.Tr.Objects[ev.Obj]
		}
	}
	return ""
}
