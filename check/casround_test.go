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
	"github.com/pecanvet/pecanvet/static/load"
)

// TestCASRetried: judgeDependence withdraws the effect of an atomicity
// violation whose interleaved goroutine ran, in the replay's own trace,
// a void round of a CAS loop (casRetried): go-lock's rTryLock, the other
// reader's load inside the unit (av/RRW), its CAS failed and it loaded
// again (issue 26, trial 32's cas.go:156 av); lockfree's Enqueue, the
// unit's CAS failed after another writer's and it called itself again
// (rb.go:60 av). It keeps the effect when the round wrote, when the
// failed CAS left the function, when the loop counts its rounds, and
// when the unit's CAS swapped after another's write (ABA).
func TestCASRetried(t *testing.T) {
	loaded, at := casroundSource(t)
	// site is the call of name in function fn (its parenthesis).
	site := func(fn, name string) string { return at(fn, name+"(", 1, len(name)) }
	lock, lockCAS := site("rTryLock", "LoadInt32"), site("rTryLock", "CompareAndSwapInt32")
	cnt, cntCAS := site("counted", "LoadInt32"), site("counted", "CompareAndSwapInt32")
	try, tryCAS := site("tryInc", "LoadInt32"), site("tryInc", "CompareAndSwapInt32")
	enq, enqCAS := site("Enqueue", "Load"), site("Enqueue", "CompareAndSwap")
	rrw := pattern.MustParse("av/RRW atomic acting T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-r-w")[0]
	rww := pattern.MustParse("av/RWW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-w")[0]
	failed := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: cas_test.go:218: Not equal: expected: 6, actual: 5"}
	type step struct {
		g   string
		op  trace.Op
		at  string
		obj string          // "": state#1
		fr  []predict.Frame // the pattern's events' activations
	}
	// findingAt is the finding whose schedule is steps, its anomaly the
	// steps at anomaly.
	findingAt := func(p *pattern.Pattern, steps []step, anomaly []int, v replay.Verdict, replayed string) Finding {
		s := &trace.Schedule{Anomaly: anomaly}
		n := map[string]int{}
		for _, st := range steps {
			n[st.g+st.op.String()+st.at]++
			obj := st.obj
			if obj == "" {
				obj = "state#1"
			}
			s.Steps = append(s.Steps, trace.Step{G: st.g, Op: st.op, Obj: obj, Site: st.at, N: n[st.g+st.op.String()+st.at]})
		}
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte("# pecanvet trace v1\n"+replayed), 0o644); err != nil {
			t.Fatal(err)
		}
		v.Trace = path
		a := predict.Anomaly{Pattern: p}
		for k, i := range anomaly {
			a.Events = append(a.Events, int32(k))
			a.Sites = append(a.Sites, steps[i].at)
			a.Frames = append(a.Frames, steps[i].fr)
		}
		return Finding{Package: "dep/casround", Test: "TestCAS", Anomaly: a, Schedule: s, Verdict: v}
	}
	finding := func(p *pattern.Pattern, steps []step, v replay.Verdict, replayed string) Finding {
		return findingAt(p, steps, []int{0, 1, 2}, v, replayed)
	}
	// replayed writes a replay's trace: "g op site [object]" per event,
	// on state#1 unless it names another object.
	replayed := func(evs ...string) string {
		var b strings.Builder
		for _, e := range evs {
			f := strings.Fields(e)
			obj := "state#1"
			if len(f) == 4 {
				obj = f[3]
			}
			fmt.Fprintf(&b, "%s %s %s @%s\n", f[0], f[1], obj, f[2])
		}
		return b.String()
	}
	acting := func(load, cas string) []step {
		return []step{{g: "g1", op: trace.AtomicLoad, at: load}, {g: "g2", op: trace.AtomicLoad, at: load}, {g: "g1", op: trace.AtomicRMW, at: cas}}
	}
	interrupted := failed
	interrupted.Interrupted = true
	for _, tc := range []struct {
		name string
		f    Finding
		void bool
	}{
		{"rTryLock: the other reader's CAS failed, it loaded again and swapped", finding(rrw, acting(lock, lockCAS), failed, replayed(
			"g1 atomic-load "+lock, "g2 atomic-load "+lock, "g1 atomic-rmw "+lockCAS,
			"g2 atomic-load "+lockCAS, "g2 rlock x.go:1 mu#1", "g2 read x.go:2 ch#1", "g2 runlock x.go:3 mu#1",
			"g2 atomic-load "+lock, "g2 atomic-rmw "+lockCAS)), true},
		{"rTryLock: the other reader wrote before it loaded again", finding(rrw, acting(lock, lockCAS), failed, replayed(
			"g1 atomic-load "+lock, "g2 atomic-load "+lock, "g1 atomic-rmw "+lockCAS,
			"g2 atomic-load "+lockCAS, "g2 write x.go:2 seen#1",
			"g2 atomic-load "+lock, "g2 atomic-rmw "+lockCAS)), false},
		{"rTryLock: the other reader's CAS failed and it did not load again", finding(rrw, acting(lock, lockCAS), failed, replayed(
			"g1 atomic-load "+lock, "g2 atomic-load "+lock, "g1 atomic-rmw "+lockCAS,
			"g2 atomic-load "+lockCAS, "g2 region-end x.go:5 Mutex.rTryLock", "g2 atomic-load "+lock, "g2 atomic-rmw "+lockCAS)), false},
		{"rTryLock: the other reader's CAS failed and it never swapped", finding(rrw, acting(lock, lockCAS), failed, replayed(
			"g1 atomic-load "+lock, "g2 atomic-load "+lock, "g1 atomic-rmw "+lockCAS,
			"g2 atomic-load "+lockCAS, "g2 atomic-load "+lock)), false},
		{"tryInc: the CAS's result goes to the caller", finding(rrw, acting(try, tryCAS), failed, replayed(
			"g1 atomic-load "+try, "g2 atomic-load "+try, "g1 atomic-rmw "+tryCAS,
			"g2 atomic-load "+tryCAS, "g2 atomic-load "+try, "g2 atomic-rmw "+tryCAS)), false},
		{"counted: the loop carries its round count", finding(rrw, acting(cnt, cntCAS), failed, replayed(
			"g1 atomic-load "+cnt, "g2 atomic-load "+cnt, "g1 atomic-rmw "+cntCAS,
			"g2 atomic-load "+cntCAS, "g2 atomic-load "+cnt, "g2 atomic-rmw "+cntCAS)), false},
		{"Enqueue: its CAS failed after another's, it called itself again", finding(rww,
			[]step{{g: "g1", op: trace.AtomicLoad, at: enq}, {g: "g2", op: trace.AtomicRMW, at: enqCAS}, {g: "g1", op: trace.AtomicRMW, at: enqCAS}}, interrupted, replayed(
				"g1 atomic-load "+enq, "g2 atomic-rmw "+enqCAS, "g1 read x.go:7 elements#1",
				"g1 atomic-load "+enqCAS, "g1 region-begin x.go:9 Ring.Enqueue", "g1 atomic-load "+enq, "g1 atomic-rmw "+enqCAS)), true},
		{"Enqueue: its CAS swapped after another's write (ABA)", finding(rww,
			[]step{{g: "g1", op: trace.AtomicLoad, at: enq}, {g: "g2", op: trace.AtomicRMW, at: enqCAS}, {g: "g1", op: trace.AtomicRMW, at: enqCAS}}, failed, replayed(
				"g1 atomic-load "+enq, "g2 atomic-rmw "+enqCAS, "g1 atomic-rmw "+enqCAS)), false},
	} {
		fs := []Finding{tc.f}
		if !fs[0].Effect() {
			t.Fatalf("%s: no effect to judge", tc.name)
		}
		judgeDependence(loaded, "dep/casround", fs, &Report{})
		if got := fs[0].Control == casRound; got != tc.void || fs[0].Effect() == tc.void {
			t.Errorf("%s: control %q, effect %v: want void %v", tc.name, fs[0].Control, fs[0].Effect(), tc.void)
		}
		judgedOnce(t, loaded, tc.name, tc.f, func(f *Finding) {
			if got := f.Control == casRound; got != tc.void {
				t.Errorf("%s, judged in the queue then after it: control %q, want void %v", tc.name, f.Control, tc.void)
			}
		})
	}
}

// judgedOnce judges f as the replay queue does (packageSettles) and then
// as judgeDependence does after the queues, on one dependIndex, and hands
// the latter's finding to check. Its replay trace is read at most once,
// and the second judgement reads nothing: the file is removed between
// them (semaphore's traces were read whole two to three times each,
// session 52).
func judgedOnce(t *testing.T, loaded *load.Packages, name string, f Finding, check func(*Finding)) {
	t.Helper()
	reads := map[string]int{}
	traceRead = func(path string) { reads[path]++ }
	defer func() { traceRead = nil }()
	d := newDependIndex(loaded, f.Package)
	q := f
	packageSettles(statics{}, d)(&q)
	if err := os.Remove(f.Verdict.Trace); err != nil {
		t.Fatal(err)
	}
	fs := []Finding{f}
	d.judgeFindings(fs, &Report{})
	if n := reads[f.Verdict.Trace]; n > 1 {
		t.Errorf("%s: replay trace read %d times, want at most once", name, n)
	}
	check(&fs[0])
}

// TestCASRetriedDependence: a violation without effect whose unit's
// first event lies in a void round of its goroutine's CAS loop, the
// other goroutine's event before the round's end and the unit's other
// event in the next round, has no dependence (lockfree's Dequeue, seen
// once its generic body was indexed: the failed CAS at rb.go:92 "decides"
// the re-call that makes the next CAS, and the slot read at rb.go:91 of
// the failed round is read again in the next one); with a write in that
// round it is judged as before.
func TestCASRetriedDependence(t *testing.T) {
	loaded, at := casroundSource(t)
	// site is the call of name in method fn (its parenthesis); decl: fn's
	// own name in its declaration.
	site := func(fn, name string, decl bool) string {
		if decl {
			return at(fn, "", 0, 0)
		}
		return at(fn, name+"(", 1, len(name))
	}
	ld, slot, cas := site("Dequeue", "r.state.Load", false), site("Dequeue", "r.slot.Load", false), site("Dequeue", "CompareAndSwap", false)
	enqCAS, store := site("Enqueue", "CompareAndSwap", false), site("Enqueue", "r.slot.Store", false)
	deq, enq := site("Dequeue", "", true), site("Enqueue", "", true)
	outer := []predict.Frame{{Begin: 1, Site: deq}}
	inner := []predict.Frame{{Begin: 1, Site: deq}, {Begin: 2, Site: deq}}
	other := []predict.Frame{{Begin: 11, Site: enq}}
	rwr := pattern.MustParse("av/RWR atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-r")[0]
	type ev struct {
		g   string
		op  trace.Op
		at  string
		obj string
		fr  []predict.Frame
	}
	// One Dequeue whose CAS fails after g3's enqueue, then swaps in its
	// re-call; g2 enqueues in between: its CAS (state) or its slot store.
	run := []ev{
		{"g1", trace.AtomicLoad, ld, "state#1", outer},
		{"g1", trace.AtomicLoad, slot, "slot#1", outer},
		{"g3", trace.AtomicRMW, enqCAS, "state#1", []predict.Frame{{Begin: 21, Site: enq}}},
		{"g1", trace.AtomicLoad, cas, "state#1", outer},
		{"g2", trace.AtomicRMW, enqCAS, "state#1", other},
		{"g2", trace.AtomicStore, store, "slot#1", other},
		{"g1", trace.RegionBegin, deq, "Ring.Dequeue", nil},
		{"g1", trace.AtomicLoad, ld, "state#1", inner},
		{"g1", trace.AtomicLoad, slot, "slot#1", inner},
		{"g1", trace.AtomicRMW, cas, "state#1", inner},
	}
	// Two failed rounds, then the round that swaps, g2's slot store
	// falling inside it before its slot read.
	run2 := []ev{
		{"g1", trace.AtomicLoad, ld, "state#1", outer},
		{"g1", trace.AtomicLoad, slot, "slot#1", outer},
		{"g3", trace.AtomicRMW, enqCAS, "state#1", []predict.Frame{{Begin: 21, Site: enq}}},
		{"g1", trace.AtomicLoad, cas, "state#1", outer},
		{"g1", trace.RegionBegin, deq, "Ring.Dequeue", nil},
		{"g1", trace.AtomicLoad, ld, "state#1", inner},
		{"g1", trace.AtomicLoad, slot, "slot#1", inner},
		{"g2", trace.AtomicRMW, enqCAS, "state#1", other},
		{"g1", trace.AtomicLoad, cas, "state#1", inner},
		{"g1", trace.RegionBegin, deq, "Ring.Dequeue", nil},
		{"g1", trace.AtomicLoad, ld, "state#1", []predict.Frame{{Begin: 1, Site: deq}, {Begin: 2, Site: deq}, {Begin: 3, Site: deq}}},
		{"g2", trace.AtomicStore, store, "slot#1", other},
		{"g1", trace.AtomicLoad, slot, "slot#1", []predict.Frame{{Begin: 1, Site: deq}, {Begin: 2, Site: deq}, {Begin: 3, Site: deq}}},
		{"g1", trace.AtomicRMW, cas, "state#1", []predict.Frame{{Begin: 1, Site: deq}, {Begin: 2, Site: deq}, {Begin: 3, Site: deq}}},
	}
	finding := func(run []ev, anomaly []int, extra string) Finding {
		s := &trace.Schedule{Anomaly: anomaly}
		var b strings.Builder
		b.WriteString("# pecanvet trace v1\n")
		n := map[string]int{}
		for i, e := range run {
			n[e.g+e.op.String()+e.at]++
			s.Steps = append(s.Steps, trace.Step{G: e.g, Op: e.op, Obj: e.obj, Site: e.at, N: n[e.g+e.op.String()+e.at]})
			if i == 6 {
				b.WriteString(extra)
			}
			fmt.Fprintf(&b, "%s %s %s @%s\n", e.g, e.op, e.obj, e.at)
		}
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		a := predict.Anomaly{Pattern: rwr}
		for k, i := range anomaly {
			a.Events = append(a.Events, int32(k))
			a.Sites = append(a.Sites, run[i].at)
			a.Frames = append(a.Frames, run[i].fr)
		}
		return Finding{Package: "dep/casround", Test: "TestRing", Anomaly: a, Schedule: s,
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Passed: true, Trace: path}}
	}
	for _, tc := range []struct {
		name    string
		run     []ev
		anomaly []int
		extra   string
		want    bool
	}{
		{"the failed CAS, another's CAS, the re-call's CAS", run, []int{3, 4, 9}, "", false},
		{"the failed round's slot read, another's store, the re-call's read", run, []int{1, 5, 8}, "", false},
		{"the same, the failed round writing", run, []int{1, 5, 8}, "g1 write seen#1 @x.go:3\n", true},
		{"two failed rounds, the store inside the third before its read", run2, []int{1, 11, 12}, "", false},
	} {
		fs := []Finding{finding(tc.run, tc.anomaly, tc.extra)}
		if !fs[0].needsJudging() {
			t.Fatalf("%s: not judged by dependence", tc.name)
		}
		judgeDependence(loaded, "dep/casround", fs, &Report{})
		if got := fs[0].Dependence != ""; got != tc.want {
			t.Errorf("%s: dependence %q, want %v", tc.name, fs[0].Dependence, tc.want)
		}
		judgedOnce(t, loaded, tc.name, finding(tc.run, tc.anomaly, tc.extra), func(f *Finding) {
			if got := f.Dependence != ""; got != tc.want {
				t.Errorf("%s, judged in the queue then after it: dependence %q, want %v", tc.name, f.Dependence, tc.want)
			}
		})
	}
	// The swapping round's load, g2's store, the round's slot read: the
	// store falls inside the round that counts.
	f := finding(run2, []int{10, 11, 12}, "")
	x, err := newDependIndex(loaded, "dep/casround").index()
	if err != nil {
		t.Fatal(err)
	}
	if casRetried(&f, dependEvents(&f), x.CASRound, &replayTrace{f: &f}) {
		t.Errorf("g2's store inside the swapping round: casRetried, want not")
	}
	f = finding(run2, []int{1, 11, 12}, "")
	if !casRetried(&f, dependEvents(&f), x.CASRound, &replayTrace{f: &f}) {
		t.Errorf("g2's store before the swapping round's read, the unit's first read in a failed round: not casRetried")
	}
}
