package check

import (
	"slices"
	"sort"

	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/replay"
)

// keyVerdicts is what a package's replay queues know of its site
// combinations (pattern keys), shared by the queues one after the other.
//
// A combination is settled, and its later instances are not replayed,
// only by a reproduction that is reported: one with an effect, a
// dependence (judged as it comes, from the same index judgeDependence
// uses), or a race's or blocking bug's proof (Finding.WithoutEffect
// false). A reproduction without either does not settle it: which
// instance the recordings and the queue order put first must not decide
// whether the bug is reported (issue 26, "Stable"). On ants (session
// 31), ants.go:380's asv came in some vet runs and not others; most
// likely a pre-allocating pool's test reproduced it first, without
// dependence, and TestReleaseWhenRunningPool's instance, which had one,
// was then never replayed. Such a combination's instances go on being
// replayed, at most moreInstances replays after its first reproduction
// without effect; then it is closed (a note says so). A reproduction
// whose failure the controls later judge the schedule's timing
// (controlItems) settles all the same: the controls run after the queue.
type keyVerdicts struct {
	// settles tells whether finding f, reproduced, settles its
	// combination: it is reported, or no instance of it could be. f is
	// the queue's provisional finding: its controls are yet to run
	// (controlItems), and a generated driver's calls are not set.
	settles func(f *Finding) bool
	// open: for a combination reproduced without being reported and not
	// yet settled, its replays since that reproduction, it included.
	open map[string]int
	// cut: the combinations closed by the bound, with what the note
	// says of each (the test of the replay that closed it, the pattern
	// and the site).
	cut   map[string][3]string
	noted map[string]bool
}

// moreInstances bounds the replays of a combination's instances after
// its first reproduction without effect or dependence: each costs a
// replay, and a combination reproduced four times without either is
// unlikely to show one on the fifth.
const moreInstances = 3

// newKeyVerdicts judges reproductions with settles; nil judges them
// reported without a dependence (Finding.WithoutEffect as the replay
// leaves it).
func newKeyVerdicts(settles func(f *Finding) bool) *keyVerdicts {
	if settles == nil {
		settles = func(f *Finding) bool { return !f.WithoutEffect() }
	}
	return &keyVerdicts{settles: settles, open: map[string]int{}, cut: map[string][3]string{}, noted: map[string]bool{}}
}

// packageSettles is the keyVerdicts.settles of a package's queues. A
// finding of a generated driver takes its calls first: a driver of a
// type not meant for concurrent use reports nothing, whatever its
// replays show (WithoutEffect), so its first reproduction settles. One
// that needs the dependence criterion is judged by d.
func packageSettles(st statics, d *dependIndex) func(f *Finding) bool {
	return func(f *Finding) bool {
		if dr, ok := st.drivers[f.Test]; ok {
			f.Driver, f.DriverType, f.DriverMeant = dr.Calls, dr.Type, dr.Meant
			if dr.Meant == "" {
				return true
			}
		}
		// One read of f's replay trace for both judges (and judgeFindings).
		rt := &replayTrace{f: f}
		if f.casEffect() {
			// Its effect void: the combination stays open to its
			// other instances unless a dependence settles it.
			f.Control = d.casVoid(f, rt)
		}
		if f.needsJudging() && d.dependence(f, rt) {
			f.Dependence = "(judged in the queue)"
		}
		return !f.WithoutEffect()
	}
}

// settle takes item it's replay, done, into its combination's verdict
// (q.mu held): it proves the combination when reported, and counts it
// against the bound when the combination is open.
func (q *replayQueue) settle(it *qItem) {
	k := it.p.a.Key
	kv := q.keys
	if it.v.Verdict == replay.Reproduced {
		f := q.findingOf(it)
		if kv.settles(&f) {
			q.proved[k] = true
			delete(kv.open, k)
			return
		}
	}
	n := kv.open[k]
	if n == 0 && it.v.Verdict != replay.Reproduced {
		return // not reproduced, as before: the next instance is tried
	}
	kv.open[k] = n + 1
	if n+1 > moreInstances {
		q.proved[k] = true
		kv.cut[k] = [3]string{it.g.test, it.p.a.Pattern.ID(), it.p.a.Sites[0]}
		delete(kv.open, k)
	}
}

// cutNotes notes the combinations the bound closed (finish).
func (q *replayQueue) cutNotes(rep *Report) {
	var ks []string
	for k := range q.keys.cut {
		if !q.keys.noted[k] {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	for _, k := range ks {
		q.keys.noted[k] = true
		c := q.keys.cut[k]
		rep.addNote(note.Replays, q.pkg, c[0], "%s at %s: %d more replays after its first reproduction without effect or dependence showed neither; its further instances are not replayed (bound %d)", c[1], c[2], moreInstances, moreInstances)
	}
}

// pickInstances chooses, for each site combination of a package
// reproduced more than once (keyVerdicts keeps an unreported one open),
// the instance reported, by a fixed rule and not by which came first:
// one with an effect before one with a dependence before one with
// neither, then by test name, then in order. The others reported by
// either criterion name it as their lead (Finding.Lead: one bug, one
// report, the rest with -v); those with neither stay what they are, an
// interleaving without effect. Run after judgeDependence, before group;
// it returns, for each finding it gave a lead, that lead's index, for
// leadAfterGroup.
func pickInstances(fs []Finding) map[int]int {
	dups := map[int]int{}
	rank := func(f *Finding) int {
		switch {
		case f.WithoutEffect():
			return 2
		case f.Effect():
			return 0
		}
		return 1
	}
	byKey := map[string][]int{}
	var keys []string
	for i := range fs {
		f := &fs[i]
		if !f.Reproduced() || f.Lead != "" {
			continue
		}
		k := f.Package + " " + f.Anomaly.Key
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	for _, k := range keys {
		is := byKey[k]
		if len(is) < 2 {
			continue
		}
		best := slices.MinFunc(is, func(a, b int) int {
			if x, y := rank(&fs[a]), rank(&fs[b]); x != y {
				return x - y
			}
			if fs[a].Test != fs[b].Test {
				if fs[a].Test < fs[b].Test {
					return -1
				}
				return 1
			}
			return a - b
		})
		lead := &fs[best]
		if rank(lead) == 2 {
			continue
		}
		for _, i := range is {
			if i == best || rank(&fs[i]) == 2 {
				continue
			}
			fs[i].Lead = lead.Anomaly.Sites[0]
			dups[i] = best
			lead.Grouped++
		}
	}
	return dups
}

// leadAfterGroup points the findings pickInstances gave a lead at the
// lead group gave that one, if any: the finding reported in its place.
func leadAfterGroup(fs []Finding, dups map[int]int) {
	for i, j := range dups {
		if fs[j].Lead != "" {
			fs[i].Lead = fs[j].Lead
		}
	}
}
