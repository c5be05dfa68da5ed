package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
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
