package check

import (
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestCheckedBy: the call that checked a write's variable, from the
// replayed schedule (seaweedfs/raft's Init: Running, then the store).
func TestCheckedBy(t *testing.T) {
	begin := func(g, site string) trace.Step { return trace.Step{G: g, Op: trace.RegionBegin, Obj: "fn", Site: site} }
	end := func(g string) trace.Step { return trace.Step{G: g, Op: trace.RegionEnd, Obj: "fn"} }
	rd := func(g, site string) trace.Step { return trace.Step{G: g, Op: trace.Read, Obj: "state", Site: site} }
	wr := func(g, site string) trace.Step { return trace.Step{G: g, Op: trace.Write, Obj: "state", Site: site} }
	other := trace.Step{G: "g1", Op: trace.Read, Obj: "term", Site: "term.go:1"}
	initSteps := func(mid ...trace.Step) []trace.Step {
		s := []trace.Step{begin("g1", "init.go:1"), begin("g1", "running.go:1"), rd("g1", "running.go:2"), rd("g1", "running.go:3"), end("g1")}
		s = append(s, mid...)
		return append(s, wr("g1", "init.go:9"))
	}
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		fresh []string // the calls, nearest first
		reads []int
		stale []string
	}{
		{"Running, then the store", initSteps(), []string{"running.go:1"}, []int{2}, nil},
		{"State too, and a call that reads nothing of it", initSteps(begin("g1", "state.go:1"), rd("g1", "state.go:2"), end("g1"), begin("g1", "log.go:1"), other, end("g1"), rd("g1", "init.go:5")), []string{"state.go:1", "running.go:1"}, []int{1, 2}, nil},
		{"another goroutine's write between", initSteps(wr("g2", "set.go:1")), nil, nil, []string{"running.go:1"}},
		{"a write between two calls of Running", append([]trace.Step{begin("g1", "init.go:1"), begin("g1", "running.go:1"), rd("g1", "running.go:2"), end("g1"), wr("g2", "set.go:1")}, initSteps()[1:]...), []string{"running.go:1"}, []int{2}, []string{"running.go:1"}},
		{"the activation's start not in the schedule", initSteps()[1:], nil, nil, nil},
		{"a read two levels down", []trace.Step{begin("g1", "init.go:1"), begin("g1", "running.go:1"), begin("g1", "get.go:1"), rd("g1", "get.go:2"), end("g1"), end("g1"), wr("g1", "init.go:9")}, nil, nil, nil},
	} {
		fresh, stale := checkedBy(tc.steps, len(tc.steps)-1)
		var calls []string
		var reads []int
		for _, c := range fresh {
			calls, reads = append(calls, c.Call), append(reads, len(c.Reads))
		}
		if !slices.Equal(calls, tc.fresh) || !slices.Equal(reads, tc.reads) || !slices.Equal(stale, tc.stale) {
			t.Errorf("%s: checkedBy = %v %v, %v; want %v %v, %v", tc.name, calls, reads, stale, tc.fresh, tc.reads, tc.stale)
		}
	}
	// A vote's Running: both its reads see one write, or not.
	vote := func(mid ...trace.Step) []trace.Step {
		s := []trace.Step{wr("g1", "init.go:9"), begin("g2", "running.go:1"), rd("g2", "running.go:2")}
		s = append(s, mid...)
		return append(s, rd("g2", "running.go:3"), end("g2"), wr("g1", "set.go:1"))
	}
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		r     int
		ok    bool
		open  string
	}{
		{"one write before both reads", vote(), 2, true, ""},
		{"a write between the reads", vote(wr("g1", "set.go:1")), 2, false, ""},
		{"the activation's end not in the schedule", vote()[:4], 2, true, "running.go:3"},
		{"the schedule ends at the read", vote()[:3], 2, true, "running.go:2"},
		{"an earlier read before the write", append([]trace.Step{begin("g2", "running.go:1"), rd("g2", "running.go:2"), wr("g1", "init.go:9")}, vote()[2:]...), 4, false, ""},
	} {
		if ok, open := steadyRead(tc.steps, tc.r); ok != tc.ok || open != tc.open {
			t.Errorf("steadyRead: %s: %v, %q; want %v, %q", tc.name, ok, open, tc.ok, tc.open)
		}
	}
}
