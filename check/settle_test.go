package check

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// avPattern is a built-in atomicity violation's pattern that counts by
// either criterion (not adjacent, not acting).
func avPattern(t *testing.T) *pattern.Pattern {
	pats, ok := pattern.Builtin("av")
	if !ok {
		t.Fatal("no av patterns")
	}
	for _, p := range pats {
		if p.Kind == "av" && !p.Adjacent && !p.Acting {
			return p
		}
	}
	t.Fatal("no av pattern that is neither adjacent nor acting")
	return nil
}

// settleRun runs the queue over tests, each one prediction of
// combination "k" whose replay gives the verdict of its name's kind
// ("none": reproduced, the test passing; "fails": reproduced, the test
// failing; "dep": reproduced, the test passing, with a dependence;
// "div": diverged), with reports judging "dep" a dependence. It returns
// the tests replayed, in order, and the findings as the package's
// check leaves them (pickInstances).
func settleRun(t *testing.T, p *pattern.Pattern, tests []string) (replayed []string, rep *Report) {
	t.Helper()
	kind := func(test string) string { return strings.SplitN(test, "_", 2)[0] }
	runReplay = func(ctx context.Context, b *testbin.Build, pkg, test string, pr prediction, dir string, opt replay.Options) replay.Verdict {
		switch kind(test) {
		case "fails":
			return replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: p_test.go:9: got 1, want 2"}
		case "div":
			return replay.Verdict{Verdict: replay.Diverged, Passed: true}
		}
		return replay.Verdict{Verdict: replay.Reproduced, Passed: true}
	}
	defer func() { runReplay = replayRetrying }()
	seen := map[string]bool{}
	rep = &Report{}
	q := newReplayQueue(context.Background(), nil, "p", time.Now().Add(time.Hour), Options{NoControls: true}, seen)
	q.keys = newKeyVerdicts(func(f *Finding) bool {
		if f.needsJudging() && kind(f.Test) == "dep" {
			f.Dependence = "check-then-act"
		}
		return !f.WithoutEffect()
	})
	for i, test := range tests {
		pr := prediction{
			a: predict.Anomaly{Pattern: p, Key: "k", Sites: []string{"p.go:1:1", "p.go:2:1", "p.go:3:1"}},
			s: &trace.Schedule{Pattern: p.ID(), Steps: []trace.Step{{G: "g1", Op: trace.Write, Site: fmt.Sprintf("p.go:%d:1", i+1), N: 1}}},
		}
		q.add(test, &trace.Trace{}, []prediction{pr}, t.TempDir(), 10, replay.Options{})
	}
	q.wait()
	q.finish(seen, rep)
	for i := range rep.Findings {
		f := &rep.Findings[i]
		replayed = append(replayed, f.Test)
		if f.needsJudging() && kind(f.Test) == "dep" {
			f.Dependence = "check-then-act" // as judgeDependence would
		}
	}
	pickInstances(rep.Findings)
	return replayed, rep
}

// reported is the tests of the findings reported by default.
func reported(rep *Report) []string {
	var out []string
	for _, f := range rep.Findings {
		if f.Reproduced() && !f.WithoutEffect() && f.Lead == "" {
			out = append(out, f.Test)
		}
	}
	return out
}

// TestVerdictOrderFree: a combination's first reproduction without
// effect or dependence does not decide its verdict. Two instances of
// one key, the first reproducing without either and the second with an
// effect (or a dependence), give the same report whichever comes first
// (issue 26, "Stable"; before, the first reproduction proved the key and
// the second was skipped, so the report came with the order). The
// instance reported is chosen by the rule: an effect before a
// dependence before neither.
func TestVerdictOrderFree(t *testing.T) {
	p := avPattern(t)
	for _, tc := range []struct {
		tests    []string
		replayed []string
		reported string
	}{
		{[]string{"none_A", "fails_B"}, []string{"none_A", "fails_B"}, "fails_B"},
		{[]string{"fails_B", "none_A"}, []string{"fails_B"}, "fails_B"},
		{[]string{"none_A", "dep_B"}, []string{"none_A", "dep_B"}, "dep_B"},
		{[]string{"dep_B", "none_A"}, []string{"dep_B"}, "dep_B"},
		// Settled by the first reported one: a later effect is not
		// looked for (one report for the key either way).
		{[]string{"none_A", "dep_B", "fails_C"}, []string{"none_A", "dep_B"}, "dep_B"},
		// Diverged replays prove nothing, as before.
		{[]string{"div_A", "none_B", "div_C", "fails_D"}, []string{"div_A", "none_B", "div_C", "fails_D"}, "fails_D"},
	} {
		replayed, rep := settleRun(t, p, tc.tests)
		if strings.Join(replayed, " ") != strings.Join(tc.replayed, " ") {
			t.Errorf("%v: replayed %v, want %v", tc.tests, replayed, tc.replayed)
		}
		if got := reported(rep); len(got) != 1 || got[0] != tc.reported {
			t.Errorf("%v: reported %v, want [%s]", tc.tests, got, tc.reported)
		}
		for _, n := range rep.Notes {
			t.Errorf("%v: note %s", tc.tests, n)
		}
	}
}

// TestVerdictPick: when two reported instances of a key were replayed
// (here, a dependence first, then an effect, in two queues of the
// package would give that; pickInstances alone), the one with the effect
// is reported and the other names it as its lead, whatever the order.
func TestVerdictPick(t *testing.T) {
	p := avPattern(t)
	mk := func(test string, passed bool, dep string) Finding {
		return Finding{Package: "p", Test: test, Anomaly: predict.Anomaly{Pattern: p, Key: "k", Sites: []string{"p.go:1:1"}},
			Verdict: replay.Verdict{Verdict: replay.Reproduced, Passed: passed, Consequence: map[bool]string{false: "test fails: p_test.go:9"}[passed]}, Dependence: dep}
	}
	for _, fs := range [][]Finding{
		{mk("TestA", true, "check-then-act"), mk("TestB", false, ""), mk("TestC", true, "")},
		{mk("TestC", true, ""), mk("TestB", false, ""), mk("TestA", true, "check-then-act")},
	} {
		pickInstances(fs)
		rep := &Report{Findings: fs}
		if got := reported(rep); len(got) != 1 || got[0] != "TestB" {
			t.Errorf("reported %v, want [TestB]", got)
		}
		for _, f := range fs {
			switch f.Test {
			case "TestA":
				if f.Lead != "p.go:1:1" {
					t.Errorf("TestA's lead %q, want TestB's site", f.Lead)
				}
			case "TestB":
				if f.Grouped != 1 {
					t.Errorf("TestB grouped %d, want 1", f.Grouped)
				}
			case "TestC":
				if f.Lead != "" || !f.WithoutEffect() {
					t.Errorf("TestC: lead %q, without effect %v; want none, true", f.Lead, f.WithoutEffect())
				}
			}
		}
	}
}

// TestVerdictBound: a combination reproduced again and again without
// effect or dependence is replayed moreInstances times after its first
// reproduction, then closed, and a note names the bound.
func TestVerdictBound(t *testing.T) {
	p := avPattern(t)
	tests := []string{"none_A", "div_B", "none_C", "none_D", "none_E", "fails_F"}
	replayed, rep := settleRun(t, p, tests)
	if want := tests[:1+moreInstances]; strings.Join(replayed, " ") != strings.Join(want, " ") {
		t.Errorf("replayed %v, want %v", replayed, want)
	}
	if got := reported(rep); len(got) != 0 {
		t.Errorf("reported %v, want none", got)
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0].Text, fmt.Sprintf("(bound %d)", moreInstances)) {
		t.Errorf("notes %v, want one naming the bound", rep.Notes)
	}
}
