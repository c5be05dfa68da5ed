package check_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/internal/note"
	"github.com/pecanvet/pecanvet/pattern"
)

// TestDeterminism: checking subjects whose tests start goroutines they do
// not wait for (fireforget, afterfunc) and their fixed twins gives the same
// reproduced set every time, with the known bugs in it and nothing for the
// twins. PECANVET_DETERMINISM_RUNS sets the number of runs (default 3;
// make eval uses 10).
func TestDeterminism(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays subjects repeatedly")
	}
	runs := 3
	if v := os.Getenv("PECANVET_DETERMINISM_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 2 {
			t.Fatalf("PECANVET_DETERMINISM_RUNS=%q: want a number >= 2", v)
		}
		runs = n
	}
	dir, err := filepath.Abs("testdata/subjects")
	if err != nil {
		t.Fatal(err)
	}
	pats, ok := pattern.Builtin("all")
	if !ok {
		t.Fatal("no built-in pattern set all")
	}
	subjects := []string{"./fireforget", "./fireforgetfixed", "./afterfunc", "./afterfuncfixed"}
	var first string
	for i := 0; i < runs; i++ {
		rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: subjects, Anomalies: pats})
		if err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, f := range rep.Reproduced() {
			found = append(found, f.Package+" "+f.Test+" "+f.Anomaly.Key)
		}
		sort.Strings(found)
		got := strings.Join(found, "\n")
		if i == 0 {
			first = got
			for _, want := range []string{"subjects/fireforget ", "subjects/afterfunc "} {
				if !strings.Contains(got, want) {
					t.Errorf("run 1: nothing reproduced in %s; got:\n%s", want, got)
				}
			}
			if strings.Contains(got, "fixed ") {
				t.Errorf("run 1: a fixed twin reported:\n%s", got)
			}
			continue
		}
		if got != first {
			t.Fatalf("run %d reproduced\n%s\nrun 1 reproduced\n%s", i+1, got, first)
		}
	}
	t.Logf("%d runs, each reproduced:\n%s", runs, first)
}

// TestFailingTests: tests that fail (t.Fatal), panic (in the test or
// another goroutine) or call os.Exit in every run are evidence too: the
// race before the failure is proved from the trace up to it, and the
// failure the test shows anyway is not passed off as the race's
// consequence.
func TestFailingTests(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir, err := filepath.Abs("testdata/failing")
	if err != nil {
		t.Fatal(err)
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Anomalies: pats})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range rep.Reproduced() {
		got[f.Test] = f.Verdict.Consequence
	}
	for _, test := range []string{"TestFatal", "TestPanic", "TestPanicInGoroutine", "TestExit"} {
		c, ok := got[test]
		switch {
		case !ok:
			t.Errorf("%s: its race was not reproduced (notes %q)", test, rep.Notes)
		case !strings.HasSuffix(c, "(as without pecanvet's help)"):
			t.Errorf("%s: consequence %q is the test's own failure, not marked as such", test, c)
		}
	}
}

// TestCappedRecording: a recording that reaches its event cap ends the
// test there (dynamic/rt endCapped); the race before the cut is still
// predicted and reproduced from the cut trace, and the ended test is not
// taken as failing (no note of it, no baseline for its replays).
func TestCappedRecording(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	defer check.SetRecordCap(5000)()
	dir, err := filepath.Abs("testdata/capped")
	if err != nil {
		t.Fatal(err)
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Run: "^TestCapped$", Anomalies: pats})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range rep.Reproduced() {
		if f.Test == "TestCapped" && strings.Contains(f.Anomaly.Key, "box.go:8") {
			found = true
			if strings.Contains(f.Verdict.Consequence, "without pecanvet") {
				t.Errorf("the ended recording's failure was taken as the test's: %q", f.Verdict.Consequence)
			}
		}
	}
	if !found {
		t.Errorf("the race at box.go:8 was not reproduced from the cut trace (notes %q)", rep.Notes)
	}
	cut := false
	for _, n := range rep.Notes {
		if n.Kind == note.Fails {
			t.Errorf("note of a failing test: %v", n)
		}
		if strings.Contains(n.String(), "ending the test there") {
			cut = true
		}
	}
	if !cut {
		t.Errorf("no note that the recording ended the test at its cap (notes %q)", rep.Notes)
	}
}

// TestReachingTestsFirst: the test whose call graph reaches the static
// candidate (Account.Add twice) is checked before the one earlier in the
// source that reaches none, and a note says so.
func TestReachingTestsFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir, err := filepath.Abs("testdata/reachfirst")
	if err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Drivers: true, Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	add, double := strings.Index(progress.String(), "reachfirst TestZzzAdd: "), strings.Index(progress.String(), "reachfirst TestAaaDouble: ")
	if add < 0 || double < 0 || add > double {
		t.Errorf("TestZzzAdd not checked first:\n%s", progress.String())
	}
	if !slices.Contains(note.Strings(rep.Notes), "reachfirst: 1 of 2 tests reach a static candidate in the call graph; they are checked first") {
		t.Errorf("notes %q", rep.Notes)
	}
	if len(rep.Reported()) != 1 || rep.Reported()[0].Test != "TestZzzAdd" {
		t.Errorf("reported %v", rep.Reported())
	}
	for _, c := range rep.Candidates {
		if c.Contexts == "Account.Add and Account.Add" && !slices.Equal(c.Reachers, []string{"TestZzzAdd"}) {
			t.Errorf("%s: reached by %v, want TestZzzAdd", c.Contexts, c.Reachers)
		}
	}
}
