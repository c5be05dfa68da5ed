package check

import (
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// TestGivenBack: moby/locker's asv, the unit g1's add (step 0) and
// delete (last step), the reader g2's lookup and add between. The
// reader's add is given back when g2's adds of the count up to the
// delete sum to zero and g2 released every lock it took from the
// pattern's first step; a reader still waiting for the name's lock, a
// store of the count, an add of no known constant, or a lock still held
// leaves it false.
func TestGivenBack(t *testing.T) {
	step := func(g string, op trace.Op, obj, site string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: site, N: 1}
	}
	delta := func(site string) (int64, bool) {
		switch site {
		case "inc":
			return 1, true
		case "dec":
			return -1, true
		}
		return 0, false
	}
	head := []trace.Step{
		step("g1", trace.AtomicRMW, "W", "inc"),
		step("g1", trace.Unlock, "MU", "unlock"),
		step("g2", trace.Lock, "MU", "lock"),
		step("g2", trace.Read, "M", "lookup"),
		step("g2", trace.AtomicRMW, "W", "inc"),
		step("g2", trace.Unlock, "MU", "unlock"),
	}
	served := []trace.Step{
		step("g2", trace.Lock, "NL", "name lock"),
		step("g2", trace.AtomicRMW, "W", "dec"),
		step("g2", trace.Lock, "MU", "lock"),
		step("g2", trace.AtomicLoad, "W", "count"),
		step("g2", trace.Unlock, "NL", "name unlock"),
		step("g2", trace.Unlock, "MU", "unlock"),
	}
	tail := []trace.Step{
		step("g1", trace.Lock, "NL", "name lock"),
		step("g1", trace.AtomicRMW, "W", "dec"),
		step("g1", trace.Lock, "MU", "lock"),
		step("g1", trace.AtomicLoad, "W", "count"),
		step("g1", trace.Write, "M", "delete"),
	}
	join := func(parts ...[]trace.Step) []trace.Step {
		var s []trace.Step
		for _, p := range parts {
			s = append(s, p...)
		}
		return s
	}
	with := func(at int, st trace.Step) []trace.Step {
		s := join(served)
		s[at] = st
		return s
	}
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		want  bool
	}{
		{"served and unlocked before the delete", join(head, served, tail), true},
		{"served, the event its take-back", join(head, served, tail), true},
		{"still waiting for the name's lock", join(head, tail), false},
		{"its count stored back", join(head, with(1, step("g2", trace.AtomicStore, "W", "dec")), tail), false},
		{"an add of no known constant", join(head, with(1, step("g2", trace.AtomicRMW, "W", "add n")), tail), false},
		{"the name's lock still held", join(head, with(4, step("g2", trace.Read, "X", "look")), tail), false},
	} {
		n := len(tc.steps)
		// The reader's add is its inc (step 4), or its dec (step 7).
		add, site := 4, "inc"
		if strings.Contains(tc.name, "take-back") {
			add, site = 7, "dec"
		}
		f := &Finding{Schedule: &trace.Schedule{Steps: tc.steps, Anomaly: []int{0, 3, add, n - 1}}}
		evs := []depend.Event{
			{Thread: 1, Unit: 1, Read: true, Write: true, Site: "inc"},
			{Thread: 2, Unit: 2, Var: 1, Read: true, Site: "lookup"},
			{Thread: 2, Unit: 2, Read: true, Write: true, Site: site},
			{Thread: 1, Unit: 1, Var: 1, Write: true, Site: "delete"},
		}
		givenBack(f, evs, delta)
		if evs[2].GivenBack != tc.want {
			t.Errorf("%s: GivenBack of the reader's add = %v, want %v", tc.name, evs[2].GivenBack, tc.want)
		}
		if evs[0].GivenBack {
			t.Errorf("%s: GivenBack of the unit's add = true, want false (it holds the name's lock at the delete)", tc.name)
		}
	}
}
