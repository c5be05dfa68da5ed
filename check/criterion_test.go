package check_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/pattern"
)

// TestCriterion: an atomicity violation whose replay passes is reported
// when the value its unit read decides the unit's later access
// (capcheck's capacity check, getorset's lookup then insert, sweep's key
// from a range over the map deciding a delete after an unlock) or is used
// before the unit overwrites it (janitor's count then reset): the tests
// assert nothing. It is not reported when nothing read is used (the fixed
// twins' counter incremented in two calls, lookups used apart, a backlog
// read for statistics), nor when the unit read the variable again before
// the access (sweepfixed's next iteration reads the map for its key),
// though replay reproduces those too; nor when the replay ends waiting
// for a timer (janitorfixed's next tick), which is no hang.
func TestCriterion(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays subjects")
	}
	dir, err := filepath.Abs("testdata/subjects")
	if err != nil {
		t.Fatal(err)
	}
	pats, _ := pattern.Builtin("all")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Anomalies: pats,
		Patterns: []string{"./capcheck", "./capcheckfixed", "./getorset", "./getorsetfixed", "./janitor", "./janitorfixed", "./sweep", "./sweepfixed"}})
	if err != nil {
		t.Fatal(err)
	}
	reported := map[string][]check.Finding{}
	for _, f := range rep.Reported() {
		reported[f.Package] = append(reported[f.Package], f)
	}
	for pkg, obj := range map[string]string{"subjects/capcheck": "Limiter.n", "subjects/getorset": "map[string]int", "subjects/janitor": "Janitor.dirty", "subjects/sweep": "map[string]int"} {
		found := false
		for _, f := range reported[pkg] {
			if f.Anomaly.Pattern.Kind == "av" && strings.Contains(strings.Join(f.ObjectNames(), ","), obj) {
				found = true
				if f.Dependence == "" || f.Effect() {
					t.Errorf("%s: %s reported with dependence %q, effect %v; want a dependence, no effect", pkg, f.Anomaly.Key, f.Dependence, f.Effect())
				}
			}
		}
		if !found {
			t.Errorf("%s: no atomicity violation on %s reported", pkg, obj)
		}
	}
	for _, pkg := range []string{"subjects/capcheckfixed", "subjects/getorsetfixed", "subjects/janitorfixed", "subjects/sweepfixed"} {
		for _, f := range reported[pkg] {
			t.Errorf("%s: reported %s (%s)", pkg, f.Anomaly.Key, f.Dependence)
		}
		silent := 0
		for _, f := range rep.Findings {
			if f.Package == pkg && f.Reproduced() && !f.Anomaly.Pattern.Adjacent && f.WithoutEffect() {
				silent++
				if f.Verdict.Hang != "" {
					t.Errorf("%s: %s: the replay was taken to hang after the schedule: %s", pkg, f.Anomaly.Key, f.Verdict.Hang)
				}
			}
		}
		if silent == 0 {
			t.Errorf("%s: no violation reproduced without effect: the subject no longer exercises the criterion", pkg)
		}
	}
}

// TestLostUpdate: x += y and x++ interleaved by a replay lose an update,
// as in a run: the av/RWW's replay fails the test. (Recorded as one
// runtime call before the statement, both events ran before x was read,
// and the replay passed.)
func TestLostUpdate(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays a subject")
	}
	dir, err := filepath.Abs("testdata/subjects")
	if err != nil {
		t.Fatal(err)
	}
	pats, _ := pattern.Builtin("av")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Anomalies: pats, Patterns: []string{"./pluseq"}})
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	for _, f := range rep.Reproduced() {
		if f.Anomaly.Pattern.Name == "RWW" && f.Effect() {
			failed[f.Test] = true
		}
	}
	for _, test := range []string{"TestAdd", "TestInc"} {
		if !failed[test] {
			t.Errorf("%s: no av/RWW whose replay failed the test", test)
		}
	}
}

// TestSnapshotCriterion: atomic-set violations whose replays pass and
// whose dependence a serial run explains are not reported (issue 26's
// snapshot and check-then-act shapes triaged false): a new bucket
// published and then taken from by the method the other caller ran
// (publishtakefixed, go-limiter's memorystore), a stale check deciding
// only a wake-up whose method re-tests its flag under the re-taken lock
// (notifyhintfixed, ttlcache's notifyExpiration), a value and its error
// torn where the error stored is nil (errpairfixed, asynccache's
// refresh); their replays reproduce all the same. The buggy cousin
// whose refresh stores a value with an error (errpair) counts through the
// dependence criterion, reported or grouped under its failing twin.
func TestSnapshotCriterion(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays subjects")
	}
	dir, err := filepath.Abs("testdata/subjects")
	if err != nil {
		t.Fatal(err)
	}
	pats, _ := pattern.Builtin("asv")
	rep, err := check.Run(context.Background(), check.Options{Dir: dir, Anomalies: pats,
		Patterns: []string{"./errpair", "./errpairfixed", "./notifyhintfixed", "./publishtakefixed"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Reported() {
		if f.Package != "subjects/errpair" {
			t.Errorf("%s: reported %s (%s)", f.Package, f.Anomaly.Key, f.Dependence)
		}
	}
	// Reported, or grouped under the failing Store-side violation of the
	// same bug, whose dependence joins the same lines (check's group).
	found := false
	for _, f := range rep.Findings {
		if f.Package == "subjects/errpair" && f.Anomaly.Pattern.Kind == "asv" && f.Dependence != "" && !f.Effect() && !f.WithoutEffect() {
			found = true
		}
	}
	if !found {
		t.Errorf("subjects/errpair: no atomic-set violation reported through the dependence criterion")
	}
	// That a fixed twin still exercises the criterion is shown by any one
	// of three runs: a replay can diverge on a loaded machine (CI saw
	// notifyhintfixed's one reproduction diverge once in 12 runs at load
	// 10), and a subject that no longer reaches the shape fails all three.
	for _, pkg := range []string{"subjects/errpairfixed", "subjects/notifyhintfixed", "subjects/publishtakefixed"} {
		silent := 0
		for run := 0; silent == 0 && run < 3; run++ {
			if run > 0 {
				rep, err = check.Run(context.Background(), check.Options{Dir: dir, Anomalies: pats, Patterns: []string{"./" + strings.TrimPrefix(pkg, "subjects/")}})
				if err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range rep.Findings {
				if f.Package == pkg && f.Reproduced() && f.Anomaly.Pattern.Kind == "asv" && f.WithoutEffect() {
					silent++
				}
			}
			for _, f := range rep.Reported() {
				if run > 0 && f.Package == pkg {
					t.Errorf("%s: reported %s (%s)", f.Package, f.Anomaly.Key, f.Dependence)
				}
			}
		}
		if silent == 0 {
			t.Errorf("%s: no atomic-set violation reproduced without effect in 3 runs: the subject no longer exercises the criterion", pkg)
		}
	}
}

// TestHeldEntryCriterion: a map entry, held by value, that the unit
// inserts and later deletes at the same key is a marker others are meant
// to see (static/depend's heldEntry, which needs both writes' key hashes
// carried from the trace): heldlockfixed's record of a held lock, read by
// another goroutine's range between its insert and its delete, is
// reproduced without effect and not reported; heldlock, whose record is
// completed by a second write (an overwrite, not a delete), is reported
// through dependence with the test passing.
func TestHeldEntryCriterion(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays subjects")
	}
	dir, err := filepath.Abs("testdata/subjects")
	if err != nil {
		t.Fatal(err)
	}
	pats, _ := pattern.Builtin("av")
	found := false
	for run := 0; !found && run < 3; run++ {
		rep, err := check.Run(context.Background(), check.Options{Dir: dir, Anomalies: pats, Patterns: []string{"./heldlock"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Reported() {
			if f.Anomaly.Pattern.Kind == "av" && strings.Contains(f.Dependence, "intermediate state") && !f.Effect() {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("subjects/heldlock: no intermediate state reported through the dependence criterion in 3 runs")
	}
	// As in TestSnapshotCriterion, any one of three runs shows that the
	// twin still reaches the shape.
	silent := 0
	for run := 0; silent == 0 && run < 3; run++ {
		rep, err := check.Run(context.Background(), check.Options{Dir: dir, Anomalies: pats, Patterns: []string{"./heldlockfixed"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Reported() {
			t.Errorf("%s: reported %s (%s)", f.Package, f.Anomaly.Key, f.Dependence)
		}
		for _, f := range rep.Findings {
			if f.Package == "subjects/heldlockfixed" && f.Reproduced() && f.Anomaly.Pattern.Name == "WRW" && f.WithoutEffect() {
				silent++
			}
		}
	}
	if silent == 0 {
		t.Errorf("subjects/heldlockfixed: no WRW reproduced without effect in 3 runs: the subject no longer exercises the rule")
	}
}
