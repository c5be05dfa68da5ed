package check

import (
	"testing"
	"time"

	"github.com/pecanvet/pecanvet/dynamic/record"
)

// TestWantsPerturbed: a short run of two busy goroutines that gave no
// prediction is recorded again perturbed; a slow one (a test waiting on
// timers), a long one, or one that already gave a prediction is not.
func TestWantsPerturbed(t *testing.T) {
	c := &testCheck{opt: Options{Perturb: 1}}
	thin := record.Test{Active: 2, Events: 500, Wall: 20 * time.Millisecond}
	if !c.wantsPerturbed(thin) {
		t.Errorf("thin, fast run: not recorded again")
	}
	slow := thin
	slow.Wall = time.Second
	long := thin
	long.Events = thinPerturb
	for name, rt := range map[string]record.Test{"slow": slow, "long": long} {
		if c.wantsPerturbed(rt) {
			t.Errorf("%s run: recorded again", name)
		}
	}
	// A hung run's wall is the hang's detection (5 s), not the test's.
	hung := slow
	hung.Truncated = "hung: every goroutine blocked for 5s (g1.1 blocks in Send (chan send) at poller.go:43)"
	if !c.wantsPerturbed(hung) {
		t.Errorf("a run that hung: not recorded again")
	}
	c.predicted, c.undiverged = 1, 1
	if c.wantsPerturbed(thin) {
		t.Errorf("a run that gave a prediction: recorded again")
	}
	c.undiverged = 0
	if !c.wantsPerturbed(thin) {
		t.Errorf("a run whose every prediction diverged: not recorded again")
	}
	c.found = 1
	if c.wantsPerturbed(thin) {
		t.Errorf("a run that proved a prediction: recorded again")
	}
	c.found, c.undiverged = 0, 1
	late := thin
	late.Unstarted = 1
	if !c.wantsPerturbed(late) {
		t.Errorf("a run with a goroutine that never ran: not recorded again")
	}
	late.Wall = time.Second
	if c.wantsPerturbed(late) {
		t.Errorf("a slow run with a goroutine that never ran: recorded again")
	}
}
