package check_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
)

// TestSuiteSubtests: subtests that a helper of another module (not
// instrumented, as testify's suite.Run) starts with t.Run run one after
// the other unless they call t.Parallel. Sequential ones give no
// prediction to replay (each was a root, and every replay that moved one
// before the end of the one before waited for a subtest t.Run had not
// started); the races of parallel ones, and of a goroutine one leaves
// running into the next, are still reproduced.
func TestSuiteSubtests(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	dir, err := filepath.Abs("testdata/suite")
	if err != nil {
		t.Fatal(err)
	}
	pats, _ := pattern.Builtin("race")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Run: "^TestSequential$", Anomalies: pats})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Reproduced()) > 0 || rep.Time.Replays > 0 || rep.Doomed > 0 {
		t.Errorf("TestSequential: %d reproduced, %d replays, %d doomed; want none (notes %q)", len(rep.Reproduced()), rep.Time.Replays, rep.Doomed, rep.Notes)
	}
	// One at a time: a race reproduced once is not replayed for another
	// test.
	for _, test := range []string{"TestParallel", "TestLeftRunning"} {
		rep, err := check.Run(context.Background(), check.Options{Dir: dir, Run: "^" + test + "$", Anomalies: pats})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range rep.Reproduced() {
			found = found || f.Test == test && strings.Contains(f.Anomaly.Key, "box.go:9")
		}
		if !found {
			t.Errorf("%s: its race on Box.n was not reproduced (notes %q)", test, rep.Notes)
		}
	}
}
