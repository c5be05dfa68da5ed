package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
)

// TestPredictDirOnDemand: a trace's directory (its schedules, steps and
// replays) is made only when the trace gives a prediction. A trace of two
// goroutines that share nothing makes none; one whose goroutines write
// one variable unordered makes it, with the trace's steps.
func TestPredictDirOnDemand(t *testing.T) {
	pats, _ := pattern.Builtin("race")
	for _, c := range []struct {
		name, body string
		want       bool
	}{
		{"disjoint", "g1 fork g2 @m.go:1\ng1 fork g3 @m.go:2\ng2 begin\ng2 write x @m.go:3\ng3 begin\ng3 write y @m.go:4\n", false},
		{"race", "g1 fork g2 @m.go:1\ng1 fork g3 @m.go:2\ng2 begin\ng2 write x @m.go:3\ng3 begin\ng3 write x @m.go:4\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "TestX.trace")
			if err := os.WriteFile(path, []byte(trace.TextHeader+"\n"+c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			tc := &testCheck{pkg: "p", test: "TestX", rep: &Report{}, seen: map[string]bool{}, pruned: map[string]bool{}, dir: t.TempDir(), ctx: context.Background(), acct: newAccount(time.Minute), opt: Options{Anomalies: pats}}
			q := newReplayQueue(context.Background(), nil, "p", time.Time{}, Options{}, tc.seen)
			rt := record.Test{Name: "TestX", Trace: path, Events: 7, Goroutines: 3, Active: 2, Passed: true}
			qd := tc.predict(q, rt, path)
			for _, n := range tc.rep.Notes {
				t.Logf("note: %s", n)
			}
			if qd == nil {
				t.Fatal("nothing queued")
			}
			dir := filepath.Join(tc.dir, "TestX")
			_, err := os.Stat(dir)
			if made := err == nil; made != c.want || (len(qd.preds) > 0) != c.want {
				t.Fatalf("%d predictions, directory made %v; want %v", len(qd.preds), made, c.want)
			}
			if c.want {
				// The trace's steps, which its schedules name, are in it.
				if _, err := os.Stat(filepath.Join(dir, "steps")); err != nil {
					t.Errorf("steps: %v", err)
				}
			}
		})
	}
}
