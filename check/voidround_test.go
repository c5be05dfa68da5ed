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

// TestVoidRounds: lockfree's Michael-Scott Enqueue (issue 26, queue.go:43
// asv and :46 asv, triaged false). A round that loaded the tail before
// another Enqueue's link and swing reads a non-nil next, and its helping
// swing fails (asv-12: the tail load "decides" the next load), or fails
// its link CAS and loads the tail again (asv-9: the failed CAS "decides"
// the next round's tail load, between the other's link and swing). The
// replay's trace shows the round void: only reads up to the tail load
// again. main judged all three to hold. Near misses stay judged: the
// helping swing swapped, the round wrote, the trace ends before the
// tail is loaded again, the round left its activation.
func TestVoidRounds(t *testing.T) {
	loaded, lines := loadDependSrc(t, "voidround")
	// at is the site of the call of name on the line holding text.
	at := func(text, name string) string {
		for i, l := range lines {
			if strings.Contains(l, text) {
				return fmt.Sprintf("voidround/voidround.go:%d:%d", i+1, strings.Index(l, name+"(")+1+len(name))
			}
		}
		t.Fatalf("no line %q", text)
		return ""
	}
	tail, tn := at("t := q.tail.Load()", "Load"), at("tn := t.next.Load()", "Load")
	link, swing, help := at("// link", "CompareAndSwap"), at("// swing", "CompareAndSwap"), at("// help", "CompareAndSwap")
	enq := func(id int32) []predict.Frame {
		return []predict.Frame{{Begin: id, Site: "voidround/voidround.go:26:20"}}
	}
	type ev struct {
		g   string
		op  trace.Op
		at  string
		obj string
	}
	u1, u2 := enq(1), enq(2)
	frames := map[string][]predict.Frame{"g1": u1, "g2": u2}
	// finding: the schedule is run's first steps up to the anomaly's
	// last; the replay's trace all of run, then more.
	finding := func(p *pattern.Pattern, run []ev, anomaly []int, more ...ev) Finding {
		s := &trace.Schedule{Anomaly: anomaly}
		var b strings.Builder
		b.WriteString("# pecanvet trace v1\n")
		n := map[string]int{}
		last := anomaly[len(anomaly)-1]
		for i, e := range append(append([]ev{}, run...), more...) {
			if i <= last {
				n[e.g+e.op.String()+e.at]++
				s.Steps = append(s.Steps, trace.Step{G: e.g, Op: e.op, Obj: e.obj, Site: e.at, N: n[e.g+e.op.String()+e.at]})
			}
			fmt.Fprintf(&b, "%s %s %s @%s\n", e.g, e.op, e.obj, e.at)
		}
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		a := predict.Anomaly{Pattern: p}
		for k, i := range anomaly {
			a.Events = append(a.Events, int32(k))
			a.Sites = append(a.Sites, run[i].at)
			a.Frames = append(a.Frames, frames[run[i].g])
		}
		return Finding{Package: "dep/voidround", Test: "TestQueue", Anomaly: a, Schedule: s,
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Passed: true, Trace: path}}
	}
	asv12 := pattern.MustParse("asv/asv-12 atomic T=t1-t2-t2-t1 SV=s1-s2-s1-s2 AR=u1-u2-u2-u1 AT=r-w-w-r")[0]
	asv9 := pattern.MustParse("asv/asv-9 atomic T=t1-t2-t2-t1 SV=s1-s1-s2-s2 AR=u1-u2-u2-u1 AT=w-r-r-w")[0]
	// g1 loads the tail; g2 links and swings; g1 reads the linked next.
	stale := []ev{
		{"g1", trace.AtomicLoad, tail, "tail#1"},
		{"g2", trace.AtomicLoad, tail, "tail#1"},
		{"g2", trace.AtomicLoad, tn, "next#1"},
		{"g2", trace.AtomicRMW, link, "next#1"},
		{"g2", trace.AtomicRMW, swing, "tail#1"},
		{"g1", trace.AtomicLoad, tn, "next#1"},
	}
	// g1 read next nil; g2 links; g1's link fails, it loads the tail
	// again; g2 swings.
	failed := []ev{
		{"g1", trace.AtomicLoad, tail, "tail#1"},
		{"g1", trace.AtomicLoad, tn, "next#1"},
		{"g2", trace.AtomicLoad, tail, "tail#1"},
		{"g2", trace.AtomicLoad, tn, "next#1"},
		{"g2", trace.AtomicRMW, link, "next#1"},
		{"g1", trace.AtomicLoad, link, "next#1"},
		{"g1", trace.AtomicLoad, tail, "tail#1"},
		{"g2", trace.AtomicRMW, swing, "tail#1"},
	}
	again := []ev{{"g1", trace.AtomicLoad, tail, "tail#1"}, {"g1", trace.AtomicLoad, tn, "next#2"}, {"g1", trace.AtomicRMW, link, "next#2"}}
	for _, tc := range []struct {
		name string
		f    Finding
		want bool // the dependence holds
	}{
		{"asv-12: the helping swing failed, the tail loaded again", finding(asv12, stale, []int{0, 3, 4, 5},
			append([]ev{{"g1", trace.AtomicLoad, help, "tail#1"}}, again...)...), false},
		{"asv-12: the link CAS failed, the tail loaded again", finding(asv12, stale, []int{0, 3, 4, 5},
			append([]ev{{"g1", trace.AtomicLoad, link, "next#1"}}, again...)...), false},
		{"asv-9: the failed link CAS, the next round's tail load", finding(asv9, failed, []int{4, 5, 6, 7},
			ev{"g1", trace.AtomicLoad, tn, "next#2"}, ev{"g1", trace.AtomicRMW, link, "next#2"}), false},
		{"near miss: the helping swing swapped", finding(asv12, stale, []int{0, 3, 4, 5},
			append([]ev{{"g1", trace.AtomicRMW, help, "tail#1"}}, again...)...), true},
		{"near miss: the round wrote", finding(asv12, stale, []int{0, 3, 4, 5},
			append([]ev{{"g1", trace.AtomicLoad, help, "tail#1"}, {"g1", trace.Write, "x.go:3", "seen#1"}}, again...)...), true},
		{"near miss: no load of the tail again", finding(asv12, stale, []int{0, 3, 4, 5},
			ev{"g1", trace.AtomicLoad, help, "tail#1"}), true},
		{"near miss: the round left its activation", finding(asv12, stale, []int{0, 3, 4, 5},
			append([]ev{{"g1", trace.AtomicLoad, help, "tail#1"}, {"g1", trace.RegionEnd, "voidround/voidround.go:26:20", "Queue.Enqueue"},
				{"g1", trace.RegionBegin, "voidround/voidround.go:26:20", "Queue.Enqueue"}}, again...)...), true},
		{"near miss: asv-9 whose failed CAS's round wrote", finding(asv9, append(append([]ev{}, failed[:5]...),
			ev{"g1", trace.Write, "x.go:3", "seen#1"}, failed[5], failed[6], failed[7]), []int{4, 6, 7, 8},
			ev{"g1", trace.AtomicLoad, tn, "next#2"}), true},
	} {
		fs := []Finding{tc.f}
		if !fs[0].needsJudging() {
			t.Fatalf("%s: not judged by dependence", tc.name)
		}
		judgeDependence(loaded, "dep/voidround", fs, &Report{})
		if got := fs[0].Dependence != ""; got != tc.want {
			t.Errorf("%s: dependence %q, want %v", tc.name, fs[0].Dependence, tc.want)
		}
	}
}
