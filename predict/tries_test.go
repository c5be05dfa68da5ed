package predict

import (
	"errors"
	"testing"

	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

// TestTriesGiveUp: a key none of whose first maxInfeasible instances has
// a feasible schedule is given up, once, and noted; a key with a
// feasible instance is tried on (keep refuses it, so it is not done).
func TestTriesGiveUp(t *testing.T) {
	gr := ptg.Build(parse(t, stopLeak))
	p := builtin(t, "leak")[0]
	var st Stats
	kept := 0
	tr := newTries(gr, nil, &st, func(Anomaly) bool { kept++; return false }, 0)
	infeasible := func() (schedule.Schedule, error) { return schedule.Schedule{}, errors.New("no") }
	feasible := func() (schedule.Schedule, error) { return schedule.Schedule{}, nil }
	bad, good := []int32{4, 3}, []int32{10, 3} // two site combinations
	calls := 0
	for i := 0; i < 3*maxInfeasible; i++ {
		tr.try(p, bad, func() (schedule.Schedule, error) { calls++; return infeasible() })
	}
	if calls != maxInfeasible {
		t.Errorf("%d instances of an infeasible key tried, want %d", calls, maxInfeasible)
	}
	if len(st.GivenUp) != 1 {
		t.Errorf("GivenUp = %q, want the one key", st.GivenUp)
	}
	tr.try(p, good, feasible)
	for i := 0; i < 3*maxInfeasible; i++ {
		tr.try(p, good, infeasible)
	}
	goodKey := pattern.Key(p, []string{gr.Tr.Site(gr.Tr.Events[10]), gr.Tr.Site(gr.Tr.Events[3])})
	if n := tr.n[goodKey]; n != 1+3*maxInfeasible {
		t.Errorf("a key with a feasible instance was tried %d times, want %d", n, 1+3*maxInfeasible)
	}
	if kept != 1 || len(st.GivenUp) != 1 {
		t.Errorf("kept %d, GivenUp %q: want 1 and the first key only", kept, st.GivenUp)
	}
	// A feasible instance starts the count again; maxInfeasibleAfter in a
	// row give the key up (eapache/channels: 4 feasible, then 2,996
	// infeasible instances).
	tr.try(p, good, feasible)
	for i := 0; i < 3*maxInfeasibleAfter; i++ {
		tr.try(p, good, infeasible)
	}
	if n := tr.n[goodKey]; n != 2+3*maxInfeasible+maxInfeasibleAfter {
		t.Errorf("a key with feasible instances was tried %d times, want %d", n, 2+3*maxInfeasible+maxInfeasibleAfter)
	}
	if kept != 2 || len(st.GivenUp) != 2 || st.GivenUp[1] != goodKey {
		t.Errorf("kept %d, GivenUp %q: want 2 and both keys", kept, st.GivenUp)
	}
}
