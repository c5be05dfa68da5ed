package replay

import "testing"

// TestPassedSkip: a replayed test that skipped did not fail (a driver's
// skip is no effect of the anomaly); one that failed or never ended did.
func TestPassedSkip(t *testing.T) {
	for result, want := range map[string]bool{"PASS": true, "SKIP": true, "FAIL": false, "": false} {
		if got := passed(result); got != want {
			t.Errorf("passed(%q) = %v, want %v", result, got, want)
		}
	}
}
