package predict

import (
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// tries schedules the candidates of the finders outside the access search
// (deadlocks, lost signals, double locks, leaks, stolen partners, early
// Waits, close-first sends), one pattern key at a time: a key whose
// anomaly keep took is not tried again, and none more than max times
// (0: no bound). Each schedule is charged to Stats.Work as the access
// search's are (Run's schedWork): a schedule may pass over the whole
// trace, and charged one poll each, an early Wait's thousands of
// instances over a million-event trace (xsync's UMPSCQueue, a WaitGroup
// per queued value, reused through a sync.Pool) ran unbounded by
// Options.MaxWork. A key none of whose first maxInfeasible instances has
// a feasible schedule is given up (Stats.GivenUp): the instances of one
// site combination share their goroutines' code and most of their
// ordering, so the 17th is as infeasible as the first 16 — workerpool's
// TestPause had 9,792 stop-channel leak instances of one combination,
// none feasible, 1.2–1.8 s of CPU; in the corpus and the bug kernels
// every combination's first feasible instance is its first. A key with a
// feasible instance that keep refused is tried on, but given up too after
// maxInfeasibleAfter infeasible instances in a row: eapache/channels'
// batching loop had 4 feasible select-branch instances of one key
// early, then 2,996 infeasible ones that spent its trace's whole work
// bound (3 s of CPU) for nothing.
type tries struct {
	gr    *ptg.Graph
	stop  func() bool
	st    *Stats
	keep  func(Anomaly) bool
	max   int
	done  map[string]bool
	n     map[string]int
	bad   map[string]int  // infeasible instances of a key in a row
	seen  map[string]bool // keys with a feasible instance
	sched int64           // work units a schedule costs past the poll stop counts
}

// maxInfeasible bounds the infeasible instances of one key tried;
// maxInfeasibleAfter, those in a row once an instance was feasible.
const (
	maxInfeasible      = 16
	maxInfeasibleAfter = 64
)

func newTries(gr *ptg.Graph, stop func() bool, st *Stats, keep func(Anomaly) bool, max int) *tries {
	return &tries{gr: gr, stop: stop, st: st, keep: keep, max: max, done: map[string]bool{}, n: map[string]int{}, bad: map[string]int{}, seen: map[string]bool{},
		sched: int64(workSchedule+len(gr.Tr.Events)/workEvents) - 1}
}

// try counts the candidate with events evs of pattern p, generates its
// schedule and passes the anomaly to keep. It returns false once stop
// says the finder must end.
func (t *tries) try(p *pattern.Pattern, evs []int32, generate func() (schedule.Schedule, error)) bool {
	tr := t.gr.Tr
	sites := make([]string, len(evs))
	for i, e := range evs {
		sites[i] = tr.Site(tr.Events[e])
	}
	key := pattern.Key(p, sites)
	if t.skip(key) {
		// Skipped before the poll: stop counts a unit each call, and
		// xsync's thousands of early Waits over the bound spent the
		// trace's whole work bound that way.
		return true
	}
	if t.stop != nil && t.stop() {
		if t.st.CutAt == "" {
			t.st.CutAt = p.ID()
		}
		return false
	}
	t.n[key]++
	if t.stop != nil {
		t.st.Work += t.sched // stop counted one
	}
	t.st.Candidates++
	t.st.Schedules++
	sched, err := generate()
	if err != nil {
		t.st.Infeasible++
		if t.bad[key]++; t.bad[key] == t.infeasibleBound(key) {
			t.st.GivenUp = append(t.st.GivenUp, key)
		}
		return true
	}
	// Feasible: its other instances are worth trying, for a while.
	t.bad[key], t.seen[key] = 0, true
	a := Anomaly{Pattern: p, Events: evs, Sites: sites, Key: key, Schedule: sched, Unsound: unsound(t.gr, sched)}
	if t.keep(a) {
		t.done[key] = true
	}
	return true
}

// settled reports whether try would skip every candidate of pattern p
// with events evs: its key is done, at its bound, or given up.
func (t *tries) settled(p *pattern.Pattern, evs []int32) bool {
	tr := t.gr.Tr
	sites := make([]string, len(evs))
	for i, e := range evs {
		sites[i] = tr.Site(tr.Events[e])
	}
	return t.skip(pattern.Key(p, sites))
}

// doneWith reports whether keep took an anomaly of pattern p with the
// sites of events evs.
func (t *tries) doneWith(p *pattern.Pattern, evs []int32) bool {
	tr := t.gr.Tr
	sites := make([]string, len(evs))
	for i, e := range evs {
		sites[i] = tr.Site(tr.Events[e])
	}
	return t.done[pattern.Key(p, sites)]
}

func (t *tries) skip(key string) bool {
	return t.done[key] || t.max > 0 && t.n[key] >= t.max || t.bad[key] >= t.infeasibleBound(key)
}

// infeasibleBound is the number of infeasible instances in a row that
// gives key up.
func (t *tries) infeasibleBound(key string) int {
	if t.seen[key] {
		return maxInfeasibleAfter
	}
	return maxInfeasible
}
