package replay

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/testbin"
)

// TestPassedSkip: a replayed test that skipped did not fail (a driver's
// skip is no effect of the anomaly); one that failed or never ended did.
func TestPassedSkip(t *testing.T) {
	for result, want := range map[string]bool{"PASS": true, "SKIP": true, "FAIL": false, "": false} {
		if got := passed(result); got != want {
			t.Errorf("passed(%q) = %v, want %v", result, got, want)
		}
	}
}

// TestJudgeUnended: a replay killed at its time bound after the schedule
// ran, whose output holds no failure, panic or hang of the test's own, is
// unended, not a failing test; a failure line before the kill is the
// test's own verdict.
func TestJudgeUnended(t *testing.T) {
	dir := t.TempDir()
	vp := filepath.Join(dir, "verdict.json")
	if err := os.WriteFile(vp, []byte(`{"verdict":"reproduced"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := Options{Timeout: 30 * time.Second}
	v := judge(vp, "", testbin.Run{TimedOut: true, Output: "=== RUN   TestPoolTuneScaleUp\n"}, 10, opt)
	if v.Verdict != Reproduced || !v.Unended || v.Consequence != "the test did not end within 30s" {
		t.Errorf("killed without output: %+v", v)
	}
	v = judge(vp, "", testbin.Run{TimedOut: true, Output: "=== RUN   TestX\n    x_test.go:9: got 1, want 2\n"}, 10, opt)
	if v.Unended || v.Consequence != "test fails: x_test.go:9: got 1, want 2" {
		t.Errorf("killed after a failure: %+v", v)
	}
	v = judge(vp, "", testbin.Run{Output: "=== RUN   TestX\n--- FAIL: TestX\n"}, 10, opt)
	if v.Unended || v.Consequence != "test fails" {
		t.Errorf("failed on its own: %+v", v)
	}
}
