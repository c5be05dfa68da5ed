package predict

import (
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/internal/oracle"
)

// matchOracle compares a blocking finder's anomalies on trace i with the
// brute-force oracle's witnesses, as the property tests of every blocking
// kind do: each schedule, without its last tail steps (those after the
// blocking point, which the replay does not run as recorded; tail < 0:
// those after the anomaly's first event), is feasible;
// each anomaly is one the oracle finds; each witness is predicted. It
// returns the number of witnesses.
func matchOracle(t *testing.T, i int, text, kind string, m *oracle.Model, res *Result, want map[string]oracle.Witness, tail int) int {
	t.Helper()
	got := map[string]bool{}
	for _, a := range res.Anomalies {
		got[a.Key] = true
		sched := toInts(a.Schedule.Events())
		cut := len(sched) - tail
		if tail < 0 {
			cut = slices.Index(sched, int(a.Events[0])) + 1
		}
		if err := m.CheckSchedule(sched[:cut]); err != nil {
			t.Errorf("trace %d: %s: infeasible schedule %v: %v\n%s", i, a.Key, sched, err, text)
		}
		if _, ok := want[a.Key]; !ok {
			t.Errorf("trace %d: predicted %s %v, which no feasible schedule reaches\n%s", i, a.Key, a.Events, text)
		}
	}
	for k, w := range want {
		if !got[k] {
			t.Errorf("trace %d: missed %s %s %v, oracle schedule %v\n%s", i, kind, k, w.Inst, w.Schedule, text)
		}
	}
	return len(want)
}
