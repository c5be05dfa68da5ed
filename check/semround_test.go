package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestCASRetriedRecheck: marusama/semaphore's Acquire (issue 26, trial
// 33) ends a round either by its CAS failing or, when full, by loading
// the state again after fetching the broadcast channel and finding it
// changed; both go back to the load through a select on ctx.Done(),
// whose channel is a φ of the loop head that only keeps its value. Such
// a round is void (casRetried): semaphore.go:93 av (the unit's load, a
// SetLimit's CAS, the unit's re-load: the test's own timing failed),
// :93 asv-11 (the same bug) and :101 av (a failed CAS "deciding" the
// next round's); :176 asv-10, Release the unit, stays. Near misses stay: a
// waiter that found the state unchanged and waited on the channel, and
// a round that wrote.
func TestCASRetriedRecheck(t *testing.T) {
	loaded, site := casroundSource(t)
	ld, recheck := site("Acquire", "LoadUint64(", 1, 10), site("Acquire", "LoadUint64(", 2, 10)
	acqCAS := site("Acquire", "CompareAndSwapUint64(", 1, 20)
	chRead := site("Acquire", "s.ch", 1, 2)
	relLoad, relCAS := site("Release", "LoadUint64(", 1, 10), site("Release", "CompareAndSwapUint64(", 1, 20)
	relRead, relWrite := site("Release", "s.ch", 1, 2), site("Release", "s.ch", 2, 2)
	acq := []predict.Frame{{Begin: 1, Site: site("Acquire", "", 0, 0)}}
	rel := []predict.Frame{{Begin: 11, Site: site("Release", "", 0, 0)}}
	type ev struct {
		g, op, at, obj string
	}
	fr := func(e ev) []predict.Frame {
		if e.g == "g1" {
			return acq
		}
		return rel
	}
	// finding is a finding of pattern p whose schedule is run, its
	// anomaly the events at anomaly, and whose replay recorded run.
	finding := func(p string, run []ev, anomaly []int, v replay.Verdict) Finding {
		pat := pattern.MustParse(p)[0]
		s := &trace.Schedule{Anomaly: anomaly}
		var b strings.Builder
		b.WriteString("# pecanvet trace v1\n")
		n := map[string]int{}
		for _, e := range run {
			op, ok := trace.ParseOp(e.op)
			if !ok {
				t.Fatalf("op %q", e.op)
			}
			n[e.g+e.op+e.at]++
			s.Steps = append(s.Steps, trace.Step{G: e.g, Op: op, Obj: e.obj, Site: e.at, N: n[e.g+e.op+e.at]})
			fmt.Fprintf(&b, "%s %s %s @%s\n", e.g, e.op, e.obj, e.at)
		}
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		a := predict.Anomaly{Pattern: pat}
		for k, i := range anomaly {
			a.Events = append(a.Events, int32(k))
			a.Sites = append(a.Sites, run[i].at)
			a.Frames = append(a.Frames, fr(run[i]))
		}
		v.Trace = path
		return Finding{Package: "dep/casround", Test: "TestSem", Anomaly: a, Schedule: s, Verdict: v}
	}
	failed := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: semaphore_test.go:22: semaphore must have count = 1, but has 2"}
	passed := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	rwr := "av/RWR atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-r"
	rww := "av/RWW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-w"
	asv10 := "asv/asv-10 atomic T=t1-t2-t2-t1 SV=s1-s2-s1-s2 AR=u1-u2-u2-u1 AT=w-r-r-w"
	asv11 := "asv/asv-11 atomic T=t1-t2-t2-t1 SV=s1-s1-s2-s2 AR=u1-u2-u2-u1 AT=r-w-w-r"
	// g1 finds the semaphore full; g2 releases: its CAS, g1 fetches the
	// channel and loads the state again, g2 swaps the channel under the
	// lock and closes the old one; g1, the state changed, loads again and
	// acquires. wait: g1 waited on the channel instead (a receive: its
	// round is not void).
	waiter := func(wait bool) []ev {
		run := []ev{{"g1", "atomic-load", ld, "state#1"}, {"g2", "atomic-load", relLoad, "state#1"}, {"g2", "atomic-rmw", relCAS, "state#1"},
			{"g1", "rlock", "x.go:1", "lock#1"}, {"g1", "read", chRead, "ch#1"}, {"g1", "runlock", "x.go:2", "lock#1"}, {"g1", "atomic-load", recheck, "state#1"},
			{"g2", "lock", "x.go:3", "lock#1"}, {"g2", "read", relRead, "ch#1"}, {"g2", "write", relWrite, "ch#1"}, {"g2", "unlock", "x.go:4", "lock#1"}, {"g2", "close", "x.go:5", "chan#1"}}
		if wait {
			run = append(run, ev{"g1", "recv", "x.go:6", "chan#1"})
		}
		return append(run, ev{"g1", "atomic-load", ld, "state#1"}, ev{"g1", "atomic-rmw", acqCAS, "state#1"})
	}
	// The recheck's run with g2's swap before g1's channel read: asv-11.
	swapFirst := []ev{
		{"g1", "atomic-load", ld, "state#1"}, {"g2", "atomic-load", relLoad, "state#1"}, {"g2", "atomic-rmw", relCAS, "state#1"},
		{"g2", "lock", "x.go:3", "lock#1"}, {"g2", "read", relRead, "ch#1"}, {"g2", "write", relWrite, "ch#1"}, {"g2", "unlock", "x.go:4", "lock#1"},
		{"g1", "rlock", "x.go:1", "lock#1"}, {"g1", "read", chRead, "ch#1"}, {"g1", "runlock", "x.go:2", "lock#1"},
		{"g1", "atomic-load", recheck, "state#1"}, {"g1", "atomic-load", ld, "state#1"}, {"g1", "atomic-rmw", acqCAS, "state#1"},
	}
	// Release's CAS; the waiter fetches the old channel, re-loads the
	// state, changed, loads again and acquires; then Release swaps the
	// channel. write: the waiter's round wrote.
	acquired := func(write bool) []ev {
		run := []ev{{"g1", "atomic-load", ld, "state#1"}, {"g2", "atomic-load", relLoad, "state#1"}, {"g2", "atomic-rmw", relCAS, "state#1"},
			{"g1", "rlock", "x.go:1", "lock#1"}, {"g1", "read", chRead, "ch#1"}, {"g1", "runlock", "x.go:2", "lock#1"}, {"g1", "atomic-load", recheck, "state#1"}}
		if write {
			run = append(run, ev{"g1", "write", "x.go:7", "seen#1"})
		}
		return append(run, ev{"g1", "atomic-load", ld, "state#1"}, ev{"g1", "atomic-rmw", acqCAS, "state#1"},
			ev{"g2", "lock", "x.go:3", "lock#1"}, ev{"g2", "read", relRead, "ch#1"}, ev{"g2", "write", relWrite, "ch#1"}, ev{"g2", "unlock", "x.go:4", "lock#1"}, ev{"g2", "close", "x.go:5", "chan#1"})
	}
	// :176 asv-10 (Release's CAS, the waiter's channel read in a void
	// round of its own, its re-load or CAS, Release's swap) is not
	// voided: the unit is Release's, not in a void round, and voiding an
	// instance for another goroutine's read in a void round of its own
	// dropped resizebit's and drainstatus's bugs (their replayed
	// instance's read died with a failed CAS; the bug is another
	// instance's swap).
	x, err := newDependIndex(loaded, "dep/casround").index()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		run     []ev
		anomaly []int
	}{
		{"the waiter's acquire after the swap", waiter(false), []int{2, 4, 6, 9}},
		{"the waiter's acquire between the CAS and the swap", acquired(false), []int{2, 4, 8, 11}},
	} {
		f := finding(asv10, tc.run, tc.anomaly, passed)
		if casRetried(&f, dependEvents(&f), x.RoundEnd, &replayTrace{f: &f}) {
			t.Errorf(":176 asv-10, %s: casRetried, want not", tc.name)
		}
	}
	// g1's CAS fails after g2's, g1 loads again and swaps after g2's
	// second release.
	casFail := func(write bool) []ev {
		run := []ev{{"g1", "atomic-load", ld, "state#1"}, {"g2", "atomic-load", relLoad, "state#1"}, {"g2", "atomic-rmw", relCAS, "state#1"},
			{"g1", "atomic-load", acqCAS, "state#1"}, {"g2", "atomic-load", relLoad, "state#1"}, {"g2", "atomic-rmw", relCAS, "state#1"}}
		if write {
			run = append(run, ev{"g1", "write", "x.go:7", "seen#1"})
		}
		return append(run, ev{"g1", "atomic-load", ld, "state#1"}, ev{"g1", "atomic-rmw", acqCAS, "state#1"})
	}
	// waiter's events: 0 g1's load, 2 g2's CAS, 4 g1's channel read, 6
	// its re-load, 9 g2's channel write.
	for _, tc := range []struct {
		name    string
		p       string
		run     []ev
		anomaly []int
		v       replay.Verdict
		void    bool
	}{
		{":93 av: load, Release's CAS, re-load; then the load and CAS again", rwr, waiter(false), []int{0, 2, 6}, failed, true},
		{":93 av: the same, g1 waited on the channel", rwr, waiter(true), []int{0, 2, 6}, failed, false},
		{":93 asv-11: load, Release's CAS and swap, the channel read; re-load changed", asv11, swapFirst, []int{0, 2, 5, 8}, failed, true},
		{":101 av: the failed CAS, Release's CAS, the next round's CAS", rww, casFail(false), []int{3, 5, 7}, passed, true},
		{":101 av: the same, the failed round writing", rww, casFail(true), []int{3, 5, 8}, passed, false},
	} {
		f := finding(tc.p, tc.run, tc.anomaly, tc.v)
		fs := []Finding{f}
		effect := fs[0].Effect()
		if !effect && !fs[0].needsJudging() {
			t.Fatalf("%s: neither an effect nor judged by dependence", tc.name)
		}
		judgeDependence(loaded, "dep/casround", fs, &Report{})
		counts := fs[0].Effect() || fs[0].Dependence != ""
		if counts == tc.void {
			t.Errorf("%s: effect %v, control %q, dependence %q: want void %v", tc.name, fs[0].Effect(), fs[0].Control, fs[0].Dependence, tc.void)
		}
		if effect && tc.void && fs[0].Control != casRound {
			t.Errorf("%s: control %q, want casRound", tc.name, fs[0].Control)
		}
	}
}
