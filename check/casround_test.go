package check

import (
	"context"
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
	dir, err := filepath.Abs("../static/depend/testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := load.Load(context.Background(), dir, []string{"./casround"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "casround/casround.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	// site is the call of name in function fn (its parenthesis).
	site := func(fn, name string) string {
		in := false
		for i, l := range lines {
			if strings.HasPrefix(l, "func ") && strings.Contains(l, ") "+fn+"(") {
				in = true
				continue
			}
			if in && strings.Contains(l, name+"(") {
				return fmt.Sprintf("casround/casround.go:%d:%d", i+1, strings.Index(l, name+"(")+len(name)+1)
			}
		}
		t.Fatalf("no %s in %s", name, fn)
		return ""
	}
	lock, lockCAS := site("rTryLock", "LoadInt32"), site("rTryLock", "CompareAndSwapInt32")
	cnt, cntCAS := site("counted", "LoadInt32"), site("counted", "CompareAndSwapInt32")
	try, tryCAS := site("tryInc", "LoadInt32"), site("tryInc", "CompareAndSwapInt32")
	enq, enqCAS := site("Enqueue", "Load"), site("Enqueue", "CompareAndSwap")
	rrw := pattern.MustParse("av/RRW atomic acting T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-r-w")[0]
	rww := pattern.MustParse("av/RWW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-w")[0]
	failed := replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: cas_test.go:218: Not equal: expected: 6, actual: 5"}
	type step struct {
		g  string
		op trace.Op
		at string
	}
	finding := func(p *pattern.Pattern, steps []step, v replay.Verdict, replayed string) Finding {
		s := &trace.Schedule{Anomaly: []int{0, 1, 2}}
		n := map[string]int{}
		for _, st := range steps {
			n[st.g+st.op.String()+st.at]++
			s.Steps = append(s.Steps, trace.Step{G: st.g, Op: st.op, Obj: "state#1", Site: st.at, N: n[st.g+st.op.String()+st.at]})
		}
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte("# pecanvet trace v1\n"+replayed), 0o644); err != nil {
			t.Fatal(err)
		}
		v.Trace = path
		return Finding{
			Package:  "dep/casround",
			Test:     "TestCAS",
			Anomaly:  predict.Anomaly{Pattern: p, Events: []int32{0, 1, 2}, Sites: []string{steps[0].at, steps[1].at, steps[2].at}},
			Schedule: s,
			Verdict:  v,
		}
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
		return []step{{"g1", trace.AtomicLoad, load}, {"g2", trace.AtomicLoad, load}, {"g1", trace.AtomicRMW, cas}}
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
			[]step{{"g1", trace.AtomicLoad, enq}, {"g2", trace.AtomicRMW, enqCAS}, {"g1", trace.AtomicRMW, enqCAS}}, interrupted, replayed(
				"g1 atomic-load "+enq, "g2 atomic-load "+enq, "g2 atomic-rmw "+enqCAS, "g1 read x.go:7 elements#1",
				"g1 atomic-load "+enqCAS, "g1 region-begin x.go:9 Ring.Enqueue", "g1 atomic-load "+enq, "g1 atomic-rmw "+enqCAS)), true},
		{"Enqueue: its CAS swapped after another's write (ABA)", finding(rww,
			[]step{{"g1", trace.AtomicLoad, enq}, {"g2", trace.AtomicRMW, enqCAS}, {"g1", trace.AtomicRMW, enqCAS}}, failed, replayed(
				"g1 atomic-load "+enq, "g2 atomic-load "+enq, "g2 atomic-rmw "+enqCAS, "g1 atomic-rmw "+enqCAS)), false},
	} {
		fs := []Finding{tc.f}
		if !fs[0].Effect() {
			t.Fatalf("%s: no effect to judge", tc.name)
		}
		judgeDependence(loaded, "dep/casround", fs, &Report{})
		if got := fs[0].Control == casRound; got != tc.void || fs[0].Effect() == tc.void {
			t.Errorf("%s: control %q, effect %v: want void %v", tc.name, fs[0].Control, fs[0].Effect(), tc.void)
		}
	}
}
