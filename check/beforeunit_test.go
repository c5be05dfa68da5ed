package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestFailedAsBefore: hollywood's Inbox (issue 26, trial 33's inbox.go:101
// and :109 av). A Send's CAS from idle to running that fails between
// Start's CAS from stopped to starting and its swap to idle fails on the
// value before Start too (Stop's stopped, or the running a restart's
// unit began on): no dependence. It stays judged when the value before
// the unit lets the CAS swap (Wake's CAS from stopped), when the
// schedule shows no write before the unit, when that write adds, and
// when the CAS swapped in the replay.
func TestFailedAsBefore(t *testing.T) {
	loaded, lines := loadDependSrc(t, "casbefore")
	// site is the call of name in function fn (its parenthesis).
	site := func(fn, name string) string {
		in := false
		for i, l := range lines {
			if strings.HasPrefix(l, "func ") {
				in = strings.Contains(l, ") "+fn+"(")
			}
			if in && strings.Contains(l, name+"(") {
				return fmt.Sprintf("casbefore/casbefore.go:%d:%d", i+1, strings.Index(l, name+"(")+len(name)+1)
			}
		}
		t.Fatalf("no %s in %s", name, fn)
		return ""
	}
	send, wake := site("schedule", "atomic.CompareAndSwapInt32"), site("Wake", "atomic.CompareAndSwapInt32")
	startCAS, startSwap := site("Start", "atomic.CompareAndSwapInt32"), site("Start", "atomic.SwapInt32")
	stop, bump := site("Stop", "atomic.StoreInt32"), site("Bump", "atomic.AddInt32")
	wrw := pattern.MustParse("av/WRW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=w-r-w")[0]
	type ev struct {
		g  string
		op trace.Op
		at string
	}
	const obj = "Inbox.status#1"
	// The unit, Start's (the reader's step is put at index 2).
	start := func(reader ev) []ev {
		return []ev{{"g1", trace.RegionBegin, "Inbox.Start"}, {"g1", trace.AtomicRMW, startCAS}, reader, {"g1", trace.AtomicRMW, startSwap}, {"g1", trace.RegionEnd, "Inbox.Start"}}
	}
	failed := ev{"g2", trace.AtomicLoad, send}
	// A restart: Stop and Start in one unit, begun on a running inbox.
	restart := func(reader ev) []ev {
		return append([]ev{{"g3", trace.AtomicRMW, send}, {"g1", trace.RegionBegin, "Inbox.Restart"}, {"g1", trace.AtomicStore, stop}}, append(start(reader), ev{"g1", trace.RegionEnd, "Inbox.Restart"})...)
	}
	for _, tc := range []struct {
		name string
		run  []ev
		want bool
	}{
		{"the Send's CAS fails on starting as on stopped", append([]ev{{"g1", trace.AtomicStore, stop}}, start(failed)...), false},
		{"Wake's CAS fails on starting, would swap on stopped", append([]ev{{"g1", trace.AtomicStore, stop}}, start(ev{"g2", trace.AtomicLoad, wake})...), true},
		{"no write before the unit", start(failed), true},
		{"an add before the unit", append([]ev{{"g3", trace.AtomicRMW, bump}}, start(failed)...), true},
		{"the Send's CAS swapped", append([]ev{{"g1", trace.AtomicStore, stop}}, start(ev{"g2", trace.AtomicRMW, send})...), true},
		{"a restart begun on running: Wake fails as before it", restart(ev{"g2", trace.AtomicLoad, wake}), false},
	} {
		s := &trace.Schedule{}
		n := map[string]int{}
		var anomaly []int
		a := predict.Anomaly{Pattern: wrw}
		for i, e := range tc.run {
			o := obj
			if e.op == trace.RegionBegin || e.op == trace.RegionEnd {
				o = e.at
			}
			n[e.g+e.op.String()+e.at]++
			s.Steps = append(s.Steps, trace.Step{G: e.g, Op: e.op, Obj: o, Site: e.at, N: n[e.g+e.op.String()+e.at]})
			if o == obj && (e.at == startCAS || e.at == startSwap || e.g == "g2") {
				anomaly = append(anomaly, i)
				a.Events = append(a.Events, int32(len(a.Events)))
				a.Sites = append(a.Sites, e.at)
				a.Frames = append(a.Frames, nil)
			}
		}
		s.Anomaly = anomaly
		fs := []Finding{{Package: "dep/casbefore", Test: "TestInbox", Anomaly: a, Schedule: s,
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Passed: true}}}
		if !fs[0].needsJudging() {
			t.Fatalf("%s: not judged by dependence", tc.name)
		}
		judgeDependence(loaded, "dep/casbefore", fs, &Report{})
		if got := fs[0].Dependence != ""; got != tc.want {
			t.Errorf("%s: dependence %q, want %v", tc.name, fs[0].Dependence, tc.want)
		}
	}
}

// TestUnitStart: the step that began a unit, as predict's regions cut
// them: the outermost region or lock, after a unit-ending operation
// inside it, or the step itself outside any.
func TestUnitStart(t *testing.T) {
	st := func(g string, op trace.Op) trace.Step { return trace.Step{G: g, Op: op, Obj: "x"} }
	steps := []trace.Step{
		st("g1", trace.Write),       // 0: outside
		st("g1", trace.RegionBegin), // 1
		st("g2", trace.Write),       // 2
		st("g1", trace.RegionBegin), // 3: nested
		st("g1", trace.Write),       // 4
		st("g1", trace.RegionEnd),   // 5
		st("g1", trace.Send),        // 6: ends the unit
		st("g1", trace.Write),       // 7
		st("g1", trace.RegionEnd),   // 8: closes it
		st("g1", trace.Write),       // 9: outside
		st("g1", trace.Lock),        // 10
		st("g1", trace.Write),       // 11
	}
	for at, want := range map[int]int{0: 0, 4: 1, 5: 1, 7: 7, 8: 7, 9: 9, 11: 10, 2: 2} {
		if got := unitStart(steps, at); got != want {
			t.Errorf("unitStart(%d) = %d, want %d", at, got, want)
		}
	}
}
