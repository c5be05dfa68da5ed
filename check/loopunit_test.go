package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/replay"
)

// TestStraddlesLoopUnits: antlabs/timer's minHeap.Run (trial 34,
// min_heap.go:80 av and asv) is one call, `for { select { … } }`, whose
// process() swapped heap nodes before the test's unit (two Stops' reads of
// it) and, after a receive from its timer, popped it after the unit. The
// receive ends the loop's unit: the after order, which fails the test's
// sleep check as the schedule did, splits no unit of Run's. Accesses on
// both sides of the unit with no blocking point between still straddle.
func TestStraddlesLoopUnits(t *testing.T) {
	ev := func(g string, op trace.Op, obj, site string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: site}
	}
	runB := ev("g2", trace.RegionBegin, "minHeap.Run", "min_heap.go:182:19")
	procB := ev("g2", trace.RegionBegin, "minHeap.process", "min_heap.go:114:19")
	procE := ev("g2", trace.RegionEnd, "minHeap.process", "min_heap.go:114:19")
	swap := ev("g2", trace.Write, "heap#1", "min_heap_node.go:45:7")
	tick := ev("g2", trace.Recv, "<-chan_time.Time#1", "min_heap.go:188:8")
	pop := ev("g2", trace.Write, "heap#1", "min_heap_node.go:60:2")
	stop1 := ev("g1", trace.Read, "heap#1", "min_heap.go:80:48")
	stop2 := ev("g1", trace.Read, "heap#1", "min_heap.go:80:74")
	num := func(steps []trace.Step) []trace.Step {
		occ := map[string]int{}
		out := make([]trace.Step, len(steps))
		for i, st := range steps {
			k := st.G + " " + st.Op.String() + " " + st.Site
			occ[k]++
			st.N = occ[k]
			out[i] = st
		}
		return out
	}
	for _, tc := range []struct {
		name string
		head []trace.Step // g2's steps before the unit
		tail []trace.Step // g2's steps after it
		want bool
	}{
		{"the loop received from its timer between", []trace.Step{runB, procB, swap, procE, tick}, []trace.Step{procB, pop, procE}, false},
		{"the receive before the head", []trace.Step{runB, tick, procB, swap}, []trace.Step{pop, procE}, true},
		{"no blocking point between", []trace.Step{runB, procB, swap}, []trace.Step{pop, procE}, true},
	} {
		// The schedule: the head, the unit's first read, the tail, the
		// unit's last read.
		s := &trace.Schedule{Pattern: "av/RWR", Steps: num(append(append(append(append([]trace.Step{}, tc.head...), stop1), tc.tail...), stop2))}
		at := len(tc.head)
		s.Anomaly = []int{at, at + 1 + len(tc.tail) - 1, len(s.Steps) - 1}
		// The after order: the tail left out.
		c := &trace.Schedule{Pattern: s.Pattern, Steps: num(append(append(append([]trace.Step{}, tc.head...), stop1), stop2)), Anomaly: []int{at, at + 1}}
		if got := straddles(c, s); got != tc.want {
			t.Errorf("%s: straddles = %v, want %v", tc.name, got, tc.want)
		}
		// Its replay: the head, the unit, then the tail, run free.
		var b strings.Builder
		b.WriteString("# pecanvet trace v1\n")
		for _, st := range append(append(append([]trace.Step{}, tc.head...), stop1, stop2), tc.tail...) {
			b.WriteString(st.G + " " + st.Op.String())
			if st.Obj != "" {
				b.WriteString(" " + st.Obj)
			}
			b.WriteString(" @" + st.Site + "\n")
		}
		path := filepath.Join(t.TempDir(), "replay.trace")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := straddlesRun(path, c, s); got != tc.want {
			t.Errorf("%s: straddlesRun = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestControlledGaugeSleep: gauge's long call (g3) adds 1, sleeps in its
// f and adds -1 after the schedule's end; the short call's unit (g2, no
// blocking point) has the Reset's store (g1) between its adds, and the
// test fails with running = -2. Both serial orders of the short unit
// overrun the Reset's sleep with the Reset inside the long call and fail
// the same check with -1. Cut at its sleep, the long call splits no unit
// (straddles), but it is still open across the unit, split
// (straddlesCall): -1 against -2 is no serial outcome of the schedule's
// failure, and the effect stands, whether the after order's free run
// fails with -1 or passes. Session 53's timer53 took the -1 orders for
// the sleep's, and the report came and went with that free run.
func TestControlledGaugeSleep(t *testing.T) {
	rb := func(g string) trace.Step {
		return trace.Step{G: g, Op: trace.RegionBegin, Obj: "Gauge.Run", Site: "gauge.go:12"}
	}
	add := func(g, site string) trace.Step {
		return trace.Step{G: g, Op: trace.AtomicRMW, Obj: "Gauge.running#1", Site: site}
	}
	s := &trace.Schedule{Pattern: "av/WWW", Steps: []trace.Step{
		rb("g3"), add("g3", "gauge.go:13"), {G: "g3", Op: trace.Sleep, Site: "gauge_test.go:15"},
		rb("g2"), add("g2", "gauge.go:13"),
		{G: "g1", Op: trace.RegionBegin, Obj: "Gauge.Reset", Site: "gauge.go:20"},
		{G: "g1", Op: trace.AtomicStore, Obj: "Gauge.running#1", Site: "gauge.go:21"},
		{G: "g1", Op: trace.RegionEnd, Obj: "Gauge.Reset", Site: "gauge.go:20"},
		add("g2", "gauge.go:15"),
	}, Anomaly: []int{4, 6, 8}}
	cs := serialControls(s, []int{1, 2, 1}, []int{1, 2, 1})
	if len(cs) != 2 {
		t.Fatalf("controls %v", cs)
	}
	for k, c := range cs {
		if straddles(c, s) {
			t.Errorf("control %d: straddles = true, want false (the long call's unit ends at its sleep)", k)
		}
		if !straddlesCall(c, s) {
			t.Errorf("control %d: straddlesCall = false, want true (the long call is open across the unit)", k)
		}
	}
	fail := func(n string) replay.Verdict {
		return replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: gauge_test.go:29: running = " + n + " after every call returned, want 0"}
	}
	v := fail("-2")
	pass := replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	for _, after := range []replay.Verdict{fail("-1"), pass} {
		got := controlled(cs, nil, -1, s, v, "", false, func(*trace.Schedule) bool { return true }, func(name, _ string, _ *trace.Schedule) (replay.Verdict, bool) {
			switch name {
			case "before":
				return fail("-1"), true
			case "after":
				return after, true
			case "recorded":
				return pass, true
			}
			return v, true // repeat, unheld, alone: the schedule's failure
		})
		if got != "" {
			t.Errorf("after order %q: controlled = %q, want the effect to stand", after.Consequence, got)
		}
	}
}
