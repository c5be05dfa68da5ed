package subtest

import (
	"testing"
	"time"
)

func TestCases(t *testing.T) {
	tally := &Tally{}
	tally.name = "cases" // before t.Run: happens before the subtests
	t.Cleanup(func() {
		// After the subtests, parallel ones included.
		if n := tally.N(); n != 2 {
			t.Errorf("tally %d after 2 cases", n)
		}
	})
	for _, delay := range []time.Duration{10 * time.Millisecond, 60 * time.Millisecond} {
		t.Run(delay.String(), func(t *testing.T) {
			t.Parallel()
			time.Sleep(delay)
			if tally.name != "cases" {
				t.Errorf("tally %q", tally.name)
			}
			tally.Add()
		})
	}
}
