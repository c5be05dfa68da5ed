package check

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/static/driver"
)

// TestCandidateStatuses: each static candidate gets the status the
// findings and the runs' coverage give it.
func TestCandidateStatuses(t *testing.T) {
	pats, ok := pattern.Builtin("av")
	if !ok {
		t.Fatal("no av patterns")
	}
	side := func(lines ...string) []string { return lines }
	cands := []driver.Candidate{
		{ID: "av/RWW", Sides: driver.Sides{side("a.go:10", "a.go:12"), side("a.go:12")}, Driver: "TestD1"},       // confirmed
		{ID: "av/RWR", Sides: driver.Sides{side("a.go:20"), side("a.go:21")}, Driver: "TestD2"},                  // pruned by replay
		{ID: "av/RWR", Sides: driver.Sides{side("a.go:30"), side("a.go:31")}},                                    // held, nothing predicted
		{ID: "av/RWR", Sides: driver.Sides{side("a.go:40"), side("a.go:41")}, Driver: "TestD4"},                  // not reached
		{ID: "av/RWR", Sides: driver.Sides{side("a.go:50"), side("a.go:51")}, NoDriver: "not methods of a type"}, // not driven
	}
	finding := func(verdict string, sites ...string) Finding {
		return Finding{Package: "p", Test: "TestX", Anomaly: predict.Anomaly{Pattern: pats[0], Sites: sites},
			Verdict: replay.Verdict{Verdict: verdict, Message: "diverged at step 3: it did another thing"}}
	}
	findings := []Finding{
		finding(replay.Diverged, "a.go:20:3", "a.go:21:4", "a.go:20:9"),
		finding(replay.Reproduced, "a.go:10:2", "a.go:12:5", "a.go:12:9"),
		finding(replay.Reproduced, "b.go:10:2", "b.go:12:5", "b.go:12:9"), // another package's sites
	}
	findings[2].Package = "q"
	cov := newCoverage()
	cov.add(&trace.Trace{
		Tables: trace.Tables{Sites: []string{"a.go:30:1", "a.go:31:1", "a.go:40:1"}},
		Events: []trace.Event{{G: 1, Op: trace.Read, Site: 0}, {G: 2, Op: trace.Write, Site: 1}, {G: 1, Op: trace.Read, Site: 2}},
	})
	got := candidateStatuses("p", cands, findings, cov, newCoverage(), map[string][]int{"TestA": {0, 3}, "TestB": {}})
	want := []string{"confirmed", "pruned", "pruned", "not reached", "not driven"}
	if len(got) != len(want) {
		t.Fatalf("%d statuses, want %d", len(got), len(want))
	}
	for i, st := range got {
		if st.Status != want[i] {
			t.Errorf("candidate %d (%v): status %q (%s), want %q", i, st.Sides, st.Status, st.Why, want[i])
		}
	}
	if got[1].Why == "" || got[4].Why != "not methods of a type; no test reaches both sides in the call graph" {
		t.Errorf("reasons %q, %q", got[1].Why, got[4].Why)
	}
	if !strings.HasSuffix(got[3].Why, "; TestA reaches both sides in the call graph") || len(got[3].Reachers) != 1 || len(got[0].Reachers) != 1 || len(got[2].Reachers) != 0 {
		t.Errorf("reachers: %q, %v", got[3].Why, got)
	}
}

// TestReachingFirst: the tests reaching a candidate go first, each part in
// its order, and a budget note says how many left unchecked reach none.
func TestReachingFirst(t *testing.T) {
	reach := map[string][]int{"TestA": {}, "TestB": {0}, "TestC": {}, "TestD": {1, 2}}
	rep := &Report{}
	got := reachingFirst("p", []string{"TestA", "TestB", "TestC", "TestD", "TestPecanvetDriver_X"}, reach, rep)
	want := []string{"TestB", "TestD", "TestA", "TestC", "TestPecanvetDriver_X"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("order %v, want %v", got, want)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0].Text, "2 of 5 tests reach a static candidate") {
		t.Errorf("notes %q", rep.Notes)
	}
	if got := reachingFirst("p", []string{"TestC", "TestA"}, nil, rep); strings.Join(got, " ") != "TestC TestA" || len(rep.Notes) != 1 {
		t.Errorf("without a call graph: %v, notes %q", got, rep.Notes)
	}
	for _, c := range []struct {
		rest []string
		want string
	}{
		{[]string{"TestA", "TestC"}, " (none of them reaches a static candidate in the call graph)"},
		{[]string{"TestD", "TestA", "TestC"}, " (2 of them reach no static candidate in the call graph)"},
		{[]string{"TestD"}, ""},
		{[]string{"TestPecanvetDriver_X"}, ""},
	} {
		if got := unreached(c.rest, reach); got != c.want {
			t.Errorf("unreached(%v) = %q, want %q", c.rest, got, c.want)
		}
	}
}

// TestDriverSkip: a driver's skip says why in one line: its own Skipf
// line, else the last line the test printed, else that it gave none.
func TestDriverSkip(t *testing.T) {
	for _, tc := range []struct {
		rt   record.Test
		want string
	}{
		{record.Test{Passed: true}, ""},
		{record.Test{Skipped: true, Output: "=== RUN   TestPecanvetDriver_A_B_C\n    zz.go:20: pecanvet driver: calling B and C one after the other panics (nil map): no usable receiver\n--- SKIP: TestPecanvetDriver_A_B_C (0.00s)\n"},
			"calling B and C one after the other panics (nil map): no usable receiver"},
		{record.Test{Skipped: true, Output: "=== RUN   TestPecanvetDriver_A_B_C\n    a.go:9: needs a database\n--- SKIP: TestPecanvetDriver_A_B_C (0.00s)\n"},
			"it skipped: a.go:9: needs a database"},
		{record.Test{Skipped: true, Output: "=== RUN   TestPecanvetDriver_A_B_C\n--- SKIP: TestPecanvetDriver_A_B_C (0.00s)\n"},
			"it skipped itself without saying why"},
		// Skipped, then the process failed (a TestMain's leak check).
		{record.Test{Name: "TestPecanvetDriver_A_B_C", Output: "=== RUN   TestPecanvetDriver_A_B_C\n    zz.go:74: pecanvet driver: calling B and C one after the other does not return within 5s: it waits for another call\n--- SKIP: TestPecanvetDriver_A_B_C (5.00s)\nPASS\ngoleak: Errors on successful test run: found unexpected goroutines:\nFAIL\n"},
			"calling B and C one after the other does not return within 5s: it waits for another call"},
		{record.Test{Name: "TestPecanvetDriver_A_B_C", Output: "=== RUN   TestPecanvetDriver_A_B_C\n--- FAIL: TestPecanvetDriver_A_B_C (0.00s)\n"}, ""},
	} {
		if got := driverSkip(tc.rt); got != tc.want {
			t.Errorf("driverSkip(%q) = %q, want %q", tc.rt.Output, got, tc.want)
		}
	}
}
