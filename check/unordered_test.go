package check

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay/racerun"
)

// TestRaceAhead: the race detector's runs started after the first runs
// (startRaceAhead) answer confirmUnordered for the tests whose pairs they
// were started for, or all of whose rounds they ran (no pair of theirs
// left unreported, so no early stop), and only those; a pair a later
// replay proved is not
// asked about, whatever the runs said; a test with a pair they were not
// started for, or every test when they failed, is run again; stop ends
// runs still going. The findings are those of runs made at the end.
func TestRaceAhead(t *testing.T) {
	pats, _ := pattern.Builtin("race")
	var ww *pattern.Pattern
	for _, p := range pats {
		if p.ID() == "race/WW" {
			ww = p
		}
	}
	if ww == nil {
		t.Fatal("no race/WW pattern")
	}
	path := filepath.Join(t.TempDir(), "TestX.trace")
	body := "g1 fork g2 @m.go:1\ng1 fork g3 @m.go:2\ng2 begin\ng2 write x @m.go:3\ng3 begin\ng3 write x @m.go:4\ng2 write y @m.go:5\ng3 write y @m.go:6\n"
	if err := os.WriteFile(path, []byte(trace.TextHeader+"\n"+body), 0o644); err != nil {
		t.Fatal(err)
	}
	cand := func(key string, l1, l2 string, e1, e2 int32) unorderedCand {
		return unorderedCand{path: path, f: Finding{Package: "p", Anomaly: predict.Anomaly{Key: key, Pattern: ww, Events: []int32{e1, e2}, Sites: []string{"m.go:" + l1 + ":1", "m.go:" + l2 + ":1"}}}}
	}
	race := func(l1, l2 int) racerun.Race {
		return racerun.Race{Current: racerun.Access{Write: true, File: "m.go", Line: l1}, Previous: racerun.Access{Write: true, File: "m.go", Line: l2}}
	}
	x, y, z := cand("x", "3", "4", 3, 5), cand("y", "5", "6", 6, 7), cand("z", "3", "5", 3, 6)

	type call struct {
		tests []string
		ahead bool
	}
	var mu sync.Mutex
	var calls []call
	fake := func(races map[string][]racerun.Race, fail bool) func(ctx context.Context, bin, dir string, tests []string, count int, timeout, wall time.Duration, enough func([]racerun.Race) bool) ([]racerun.Race, error) {
		return func(ctx context.Context, bin, dir string, tests []string, count int, timeout, wall time.Duration, enough func([]racerun.Race) bool) ([]racerun.Race, error) {
			mu.Lock()
			calls = append(calls, call{slices.Clone(tests), bin == "ahead"})
			mu.Unlock()
			if fail && bin == "ahead" {
				return nil, errors.New("no -race build")
			}
			var out []racerun.Race
			for _, tt := range tests {
				out = append(out, races[tt]...)
			}
			return out, nil
		}
	}
	defer func(b, r any) {
		raceBinary = b.(func(*testbin.Build, context.Context, string) (string, error))
		raceRounds = r.(func(context.Context, string, string, []string, int, time.Duration, time.Duration, func([]racerun.Race) bool) ([]racerun.Race, error))
	}(raceBinary, raceRounds)
	bin := "ahead"
	raceBinary = func(*testbin.Build, context.Context, string) (string, error) { return bin, nil }

	for _, c := range []struct {
		name      string
		first     [][]unorderedCand // per test, after the first runs
		later     [][]unorderedCand // per test, after the perturbed ones
		seenLater []string          // keys replays proved in between
		races     map[string][]racerun.Race
		fail      bool
		wantCalls []call
		want      []string // keys confirmed
	}{
		{"covered", [][]unorderedCand{{x}, {y}}, [][]unorderedCand{{x}, {y}}, nil,
			map[string][]racerun.Race{"TestA": {race(3, 4)}, "TestB": {race(6, 5)}}, false,
			[]call{{[]string{"TestA", "TestB"}, true}}, []string{"x", "y"}},
		{"proved since", [][]unorderedCand{{x}, {y}}, [][]unorderedCand{{x}, {y}}, []string{"y"},
			map[string][]racerun.Race{"TestA": {race(3, 4)}, "TestB": {race(6, 5)}}, false,
			[]call{{[]string{"TestA", "TestB"}, true}}, []string{"x"}},
		{"new pair", [][]unorderedCand{{x}, nil}, [][]unorderedCand{{x}, {y}}, nil,
			map[string][]racerun.Race{"TestA": {race(3, 4)}, "TestB": {race(5, 6)}}, false,
			[]call{{[]string{"TestA"}, true}, {[]string{"TestB"}, false}}, []string{"x", "y"}},
		{"new pair, every round ran", [][]unorderedCand{{x}, {y}}, [][]unorderedCand{{x, z}, {y}}, nil,
			map[string][]racerun.Race{"TestA": {race(3, 4), race(5, 3)}}, false,
			[]call{{[]string{"TestA", "TestB"}, true}}, []string{"x", "z"}},
		{"new pair, stopped early", [][]unorderedCand{{x}, nil}, [][]unorderedCand{{x, z}, nil}, nil,
			map[string][]racerun.Race{"TestA": {race(3, 4), race(5, 3)}}, false,
			[]call{{[]string{"TestA"}, true}, {[]string{"TestA"}, false}}, []string{"x", "z"}},
		{"not raced", [][]unorderedCand{{x}, {y}}, [][]unorderedCand{{x}, {y}}, nil,
			map[string][]racerun.Race{"TestA": {race(3, 5)}}, false,
			[]call{{[]string{"TestA", "TestB"}, true}}, nil},
		{"failed ahead", [][]unorderedCand{{x}, {y}}, [][]unorderedCand{{x}, {y}}, nil,
			map[string][]racerun.Race{"TestA": {race(3, 4)}, "TestB": {race(6, 5)}}, true,
			[]call{{[]string{"TestA", "TestB"}, true}, {[]string{"TestA", "TestB"}, false}}, []string{"x", "y"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			calls = nil
			raceRounds = fake(c.races, c.fail)
			b := &testbin.Build{}
			tcs := []*testCheck{{test: "TestA", diverged: c.first[0]}, nil, {test: "TestB", diverged: c.first[1]}}
			seen := map[string]bool{}
			acct := newAccount(time.Minute)
			rep := &Report{}
			bin = "ahead"
			ahead := startRaceAhead(context.Background(), b, "p", acct, acct.units, Options{Timeout: time.Minute}, seen, tcs)
			if ahead == nil {
				t.Fatal("no runs ahead")
			}
			<-ahead.done
			bin = "later"
			for _, k := range c.seenLater {
				seen[k] = true
			}
			tcs[0].diverged, tcs[2].diverged = c.later[0], c.later[1]
			confirmUnordered(context.Background(), b, "p", acct, acct.units, Options{Timeout: time.Minute}, seen, rep, tcs, ahead)
			ahead.stop()
			if !slices.EqualFunc(calls, c.wantCalls, func(a, b call) bool { return a.ahead == b.ahead && slices.Equal(a.tests, b.tests) }) {
				t.Errorf("race detector runs %v, want %v", calls, c.wantCalls)
			}
			var got []string
			for _, f := range rep.Findings {
				if !f.Verdict.RaceDetector || f.Schedule == nil {
					t.Errorf("finding %s: not the race detector's, or no steps", f.Anomaly.Key)
				}
				got = append(got, f.Anomaly.Key)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("confirmed %v, want %v", got, c.want)
			}
			for _, n := range rep.Notes {
				t.Logf("note: %s", n)
			}
		})
	}

	// No pair left: nothing runs ahead. A run still going ends at stop.
	if ra := startRaceAhead(context.Background(), &testbin.Build{}, "p", newAccount(time.Minute), 1<<40, Options{}, map[string]bool{"x": true}, []*testCheck{{test: "TestA", diverged: []unorderedCand{x}}}); ra != nil {
		t.Errorf("runs ahead for a pair proved already")
	}
	started := make(chan struct{})
	raceRounds = func(ctx context.Context, bin, dir string, tests []string, count int, timeout, wall time.Duration, enough func([]racerun.Race) bool) ([]racerun.Race, error) {
		close(started)
		<-ctx.Done()
		return nil, nil
	}
	acct := newAccount(time.Minute)
	ra := startRaceAhead(context.Background(), &testbin.Build{}, "p", acct, acct.units, Options{Timeout: time.Minute}, map[string]bool{}, []*testCheck{{test: "TestA", diverged: []unorderedCand{x}}})
	<-started
	ra.stop() // returns only once the runs ended
	select {
	case <-ra.done:
	default:
		t.Errorf("stop returned with the runs going")
	}
}
