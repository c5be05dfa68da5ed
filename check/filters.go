package check

import (
	"fmt"
	"slices"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/predict/filter"
	"github.com/pecanvet/pecanvet/predict/search"
)

// Names of the filters in Report.Filtered.
const (
	FilterLocks     = "locks"      // Penelope's lockset and acquisition-history check: drops
	FilterReadsFrom = "reads-from" // AVFilter's read-after-write check: orders (Options.RankReadsFrom)
)

// FilterCount is what one filter between prediction and replay saved
// (predict/filter).
type FilterCount struct {
	// Candidates the filter rejected before the engine generated their
	// schedules (the lock check). Each would have been found infeasible by
	// the engine at the cost of a schedule generation: the engine's
	// schedules are lock-valid by its own check, so no prediction it
	// makes fails the lock check, and the check drops no prediction and
	// saves no replay there; it saves schedule generations.
	Candidates int
	// Moved: predictions replayed ahead of an instance of the same site
	// combination that the search proposed before them.
	Moved int
	// Replays not run thanks to the filter's order: the instances the
	// search proposed before a reproduced one that were not replayed (had
	// they been replayed in search order, they would have come first;
	// counted as if pruned, so an upper bound: compare runs with and
	// without, as the corpus measurement did).
	Replays int
	// Seconds: Replays times the mean wall time of the test's replays.
	Seconds float64
}

// filters applies predict/filter to the predictions of one trace.
type filters struct {
	off  bool // no lock check
	rank bool // order by broken reads (Options.RankReadsFrom)
	tr   *trace.Trace
	f    *filter.Filter // built on first use
	idx  map[string]int // search order of each prediction, by predID
	// rejected counts the candidates the lock check rejected before their
	// schedules were generated.
	rejected int
}

func newFilters(tr *trace.Trace, opt Options) *filters {
	return &filters{off: opt.NoFilters, rank: opt.RankReadsFrom && !opt.NoFilters, tr: tr, idx: map[string]int{}}
}

func (fs *filters) filter() *filter.Filter {
	if fs.f == nil {
		fs.f = filter.New(fs.tr)
	}
	return fs.f
}

// feasible is the lock check on a search candidate, before its schedule
// is generated (predict.Options.Feasible): a schedule generated for a
// candidate that fails it would fail the engine's own lock check anyway,
// so this saves the generation, not a replay.
func (fs *filters) feasible(c search.Candidate) bool {
	if fs.off {
		return true
	}
	if ok, _ := fs.filter().LockFeasible(c.Events); !ok {
		fs.rejected++
		return false
	}
	return true
}

// rate sets what order ranks p by, then drops p's schedule tail if it
// is longer than maxKeptTail: the schedule is in its text
// (trace.SchedText) from here on. Kept, the tails held the whole trace's
// length of events per prediction wherever a schedule moved a goroutine
// back across most of it: xsync's UMPSCQueue test, whose early Waits each
// hold its reader back over a million-event trace, held gigabytes of them
// until its replays were done. A short tail stays: the controls read it
// (timerPastSleep asks which event each step let run), and a tail of
// 4096 steps costs 16 KB.
func (fs *filters) rate(p *prediction) {
	p.moved = len(p.a.Schedule.Tail)
	if fs.rank {
		p.broken = fs.filter().Broken(p.a.Schedule.Prefix, p.a.Schedule.Tail, p.a.Events)
	}
	if len(p.a.Schedule.Tail) > maxKeptTail {
		p.a.Schedule.Tail = nil
	}
}

// maxKeptTail is the longest schedule tail a prediction keeps (rate).
const maxKeptTail = 4096

// order returns preds in replay order (with Options.RankReadsFrom; else
// the search's order): the site combinations whose most
// likely instance breaks fewest read-from relations first, and within a
// combination its instances by that count, then by how many steps leave
// the recorded order (the schedule's tail); ties keep the search's order.
// Replay proves a combination with its first reproduced instance, so the
// likely ones first means fewer replays; and since a combination is given
// up only when all its instances failed, the order changes which
// combinations are proved only when -maxreplays or the budget cuts the
// batch. The instances of a combination split on purpose (Anomaly.Split)
// keep the search's order: whether one is reported depends on the effect
// of the instance replayed, not only on its reproduction.
func (fs *filters) order(preds []prediction) []prediction {
	if !fs.rank || len(preds) < 2 {
		return preds
	}
	type item struct {
		p                              prediction
		idx, broken, moved, key, kbest int
	}
	items := make([]item, len(preds))
	keyOf := map[string]int{}
	best := map[string]int{}
	split := map[string]bool{}
	for _, p := range preds {
		if p.a.Split != "" {
			split[p.a.Key] = true
		}
	}
	for i, p := range preds {
		b, moved := 0, 0
		if !split[p.a.Key] {
			b, moved = p.broken, p.moved
		}
		fs.idx[predID(p)] = i
		k, ok := keyOf[p.a.Key]
		if !ok {
			k = len(keyOf)
			keyOf[p.a.Key] = k
			best[p.a.Key] = b
		}
		best[p.a.Key] = min(best[p.a.Key], b)
		items[i] = item{p: p, idx: i, broken: b, moved: moved, key: k}
	}
	for i := range items {
		items[i].kbest = best[items[i].p.a.Key]
	}
	slices.SortStableFunc(items, func(x, y item) int {
		switch {
		case x.kbest != y.kbest:
			return x.kbest - y.kbest
		case x.key != y.key:
			return x.key - y.key
		case x.broken != y.broken:
			return x.broken - y.broken
		}
		// Penelope's observation: the longer a schedule follows the
		// recorded run, the likelier it is feasible (the causality the
		// trace does not record, such as I/O, still holds there).
		return x.moved - y.moved
	})
	out := make([]prediction, len(items))
	for i, it := range items {
		out[i] = it.p
	}
	return out
}

// count adds what the filters saved in this batch to rep: preds in replay
// order, found the findings the batch appended.
func (fs *filters) count(preds []prediction, found []Finding, rep *Report) {
	if fs.off {
		return
	}
	if rep.Filtered == nil {
		rep.Filtered = map[string]*FilterCount{}
	}
	names := []string{FilterLocks}
	if fs.rank {
		names = append(names, FilterReadsFrom)
	}
	for _, n := range names {
		if rep.Filtered[n] == nil {
			rep.Filtered[n] = &FilterCount{}
		}
	}
	var wall time.Duration
	replayed := map[string]bool{}
	for _, f := range found {
		wall += f.Verdict.Wall
		replayed[f.pred] = true
	}
	mean := 0.0
	if len(found) > 0 {
		mean = wall.Seconds() / float64(len(found))
	}
	lk, rf := rep.Filtered[FilterLocks], rep.Filtered[FilterReadsFrom]
	lk.Candidates += fs.rejected
	if !fs.rank {
		return
	}
	for i, p := range preds {
		if fs.idx[predID(p)] > i {
			rf.Moved++
		}
	}
	for _, f := range found {
		if !f.Reproduced() {
			continue
		}
		at := fs.idx[f.pred]
		for _, p := range preds {
			if id := predID(p); p.a.Key == f.Anomaly.Key && fs.idx[id] < at && !replayed[id] {
				rf.Replays++
				rf.Seconds += mean
			}
		}
	}
}

// predID identifies a prediction of a batch: its schedule's file, or the
// schedule in memory.
func predID(p prediction) string {
	if p.s != nil {
		return fmt.Sprintf("%p", p.s)
	}
	return p.file
}
