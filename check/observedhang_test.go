package check_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/report"
)

// TestObservedHang: a recording that hangs for good (cancelhang: the
// cancel comes before Fire's check, so the callback that would close the
// channel the test waits on never runs) is reported at the test's
// blocked receive, proved by a replay that hangs there, whether the
// perturbed recording hung (the first one passes) or the first one did
// (PECANVET_PERTURB makes it take the perturbed schedule); its fixed twin
// reports nothing, and the race patterns alone do not ask for it.
func TestObservedHang(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	t.Setenv("PECANVET_HANG_MS", "1000") // a hang is ended after 1 s of nothing, not 5 s
	dir, err := filepath.Abs("testdata/subjects")
	if err != nil {
		t.Fatal(err)
	}
	all, _ := pattern.Builtin("all")
	races, _ := pattern.Builtin("race")
	run := func(pats []*pattern.Pattern, subjects ...string) []check.Finding {
		t.Helper()
		rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: subjects, Anomalies: pats})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Reproduced()
	}
	for _, first := range []bool{false, true} {
		if first {
			t.Setenv("PECANVET_PERTURB", "1")
		}
		// The perturbed recording (children first) runs the cancelling
		// goroutine to its end before Fire goes on (rt's waitChild), so
		// the cancel comes first however the machine is loaded.
		got := run(all, "./cancelhang", "./cancelhangfixed")
		var hangs []string
		for _, f := range got {
			msg := report.Message(f)
			if f.Package != "subjects/cancelhang" {
				t.Errorf("first=%v: %s reported: %s", first, f.Package, msg)
				continue
			}
			hangs = append(hangs, msg)
			if f.Anomaly.Pattern.ID() != "deadlock/hung" || !strings.HasSuffix(f.Anomaly.Sites[0], "machine_test.go:24:2") || !f.Effect() ||
				!strings.HasPrefix(f.Verdict.Consequence, "the test hangs: ") {
				t.Errorf("first=%v: %s at %v: %s (consequence %q)", first, f.Anomaly.Pattern.ID(), f.Anomaly.Sites, msg, f.Verdict.Consequence)
			}
		}
		want := "goroutine g1.1 blocked forever in chan receive at machine_test.go:24: every goroutine is blocked (deadlock, observed in "
		if len(hangs) != 1 || !strings.HasPrefix(hangs[0], want) || !strings.HasSuffix(hangs[0], "); reproduced") {
			t.Errorf("first=%v: reported %q, want one %q…", first, hangs, want)
		}
		if len(hangs) == 1 && !strings.Contains(hangs[0], "observed in a recorded run)") {
			t.Errorf("first=%v: reported %q", first, hangs[0])
		}
	}
	if got := run(races, "./cancelhang"); len(got) > 0 {
		t.Errorf("-patterns race: %d reported: %s", len(got), report.Message(got[0]))
	}
}

// TestObservedHangGone: a recording that hung for good is no finding
// when a replay of its order ends without hanging (rt's leakProof: "the
// test ended without hanging"): subject hangonce hangs only in its first
// run, by a file that no recorded operation sees.
func TestObservedHangGone(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	t.Setenv("PECANVET_HANG_MS", "1000")
	t.Setenv("PECANVET_TEST_HANGONCE", filepath.Join(t.TempDir(), "ran"))
	dir, err := filepath.Abs("testdata/subjects")
	if err != nil {
		t.Fatal(err)
	}
	all, _ := pattern.Builtin("all")
	var progress strings.Builder
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Patterns: []string{"./hangonce"}, Anomalies: all, Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Reproduced() {
		t.Errorf("reported: %s", report.Message(f))
	}
	var hung []check.Finding
	for _, f := range rep.Findings {
		if f.Anomaly.Pattern.ID() == "deadlock/hung" {
			hung = append(hung, f)
		}
	}
	if len(hung) != 1 {
		t.Fatalf("%d deadlock/hung predictions replayed, want 1 (the recording hung); notes: %v", len(hung), rep.Notes)
	}
	if v := hung[0].Verdict; v.Verdict != "diverged" || !strings.Contains(v.Message, "the test ended without hanging") {
		t.Errorf("verdict %s %q, want diverged: the test ended without hanging", v.Verdict, v.Message)
	}
	// -v says why a replay diverged, on its progress line.
	if !regexp.MustCompile(`replay \d+: diverged in \S+: .*the test ended without hanging`).MatchString(progress.String()) {
		t.Errorf("no progress line says why the replay diverged:\n%s", progress.String())
	}
}
