package check

import (
	"slices"
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

// TestSettled: moby/locker's Lock that found the name's entry another
// Lock made (locker.go:81, :78) is settled when, before that Lock's
// Unlock deletes it (:106), it has taken its count back and released the
// locks it took, and wrote the map at no step; one still waiting, still
// holding the name's lock, counted twice, or that deleted the entry
// itself is not.
func TestSettled(t *testing.T) {
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
		step("g1", trace.Write, "M", "create"),
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
		step("g2", trace.Read, "M", "lookup"),
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
		{"other goroutines' steps between", join(head, []trace.Step{step("g3", trace.AtomicRMW, "W", "add n"), step("g3", trace.Lock, "X", "lock")}, served, tail), true},
		{"still waiting for the name's lock", join(head, tail), false},
		{"the name's lock still held", join(head, with(5, step("g2", trace.Read, "X", "look")), tail), false},
		{"counted again", join(head, served, []trace.Step{step("g2", trace.AtomicRMW, "W", "inc")}, tail), false},
		{"an add of no known constant", join(head, with(1, step("g2", trace.AtomicRMW, "W", "add n")), tail), false},
		{"the map written by the reader", join(head, with(3, step("g2", trace.Write, "M", "delete")), tail), false},
	} {
		n := len(tc.steps)
		f := &Finding{Schedule: &trace.Schedule{Steps: tc.steps, Anomaly: []int{0, 4, n - 1}}}
		evs := []depend.Event{
			{Thread: 1, Unit: 1, Write: true, Site: "create"},
			{Thread: 2, Unit: 2, Read: true, Site: "lookup"},
			{Thread: 1, Unit: 1, Write: true, Site: "delete"},
		}
		settled(f, evs, delta, nil)
		if evs[1].Settled != tc.want {
			t.Errorf("%s: Settled of the reader's lookup = %v, want %v", tc.name, evs[1].Settled, tc.want)
		}
		if evs[0].Settled || evs[2].Settled {
			t.Errorf("%s: Settled of a write, want false", tc.name)
		}
	}
}

// TestSettledSince: a reader that looked the key up before its read
// (moby's Lock at locker.go:78, then its Unlock at :99) is judged from
// that first lookup, told by the replay trace's keys; without the trace,
// or with another key there, from the read itself.
func TestSettledSince(t *testing.T) {
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
	steps := []trace.Step{
		step("g1", trace.Write, "M", "create"),
		step("g2", trace.Read, "M", "lookup"),
		step("g2", trace.AtomicRMW, "W", "inc"),
		step("g2", trace.Lock, "NL", "name lock"),
		step("g2", trace.AtomicRMW, "W", "dec"),
		step("g2", trace.Read, "M", "unlock lookup"),
		step("g2", trace.AtomicLoad, "W", "count"),
		step("g2", trace.Unlock, "NL", "name unlock"),
		step("g1", trace.Write, "M", "delete"),
	}
	objs := map[string]int32{"M": 0, "W": 1, "NL": 2}
	gs := map[string]int32{"g1": 0, "g2": 1}
	for _, tc := range []struct {
		name  string
		keys  map[int]int64 // trace keys of the map reads, by step
		since int
		want  bool
	}{
		{"the same key looked up first", map[int]int64{1: 7, 5: 7}, 1, true},
		{"another key looked up first", map[int]int64{1: 8, 5: 7}, 5, true},
		{"no trace", nil, 5, true},
	} {
		f := &Finding{Schedule: &trace.Schedule{Steps: steps, Anomaly: []int{0, 5, len(steps) - 1}}}
		var rt *replayTrace
		if tc.keys != nil {
			tr := &trace.Trace{}
			var pos []int
			for i, st := range steps {
				tr.Events = append(tr.Events, trace.Event{G: gs[st.G], Op: st.Op, Obj: objs[st.Obj], Arg: tc.keys[i]})
				pos = append(pos, i)
			}
			rt = &replayTrace{f: f, read: true, tr: tr, pos: pos}
		}
		evs := []depend.Event{
			{Thread: 1, Unit: 1, Write: true, Site: "create"},
			{Thread: 2, Unit: 2, Read: true, Site: "unlock lookup"},
			{Thread: 1, Unit: 1, Write: true, Site: "delete"},
		}
		settled(f, evs, delta, rt)
		if evs[1].Since != tc.since || evs[1].Settled != tc.want {
			t.Errorf("%s: Since %d, Settled %v; want %d, %v", tc.name, evs[1].Since, evs[1].Settled, tc.since, tc.want)
		}
	}
	// Counted at the first lookup and never taken back.
	f := &Finding{Schedule: &trace.Schedule{Steps: append(slices.Clone(steps[:4]), steps[5:]...), Anomaly: []int{0, 4, len(steps) - 2}}}
	tr := &trace.Trace{}
	var pos []int
	for i, st := range f.Schedule.Steps {
		tr.Events = append(tr.Events, trace.Event{G: gs[st.G], Op: st.Op, Obj: objs[st.Obj], Arg: map[bool]int64{true: 7}[st.Obj == "M"]})
		pos = append(pos, i)
	}
	evs := []depend.Event{
		{Thread: 1, Unit: 1, Write: true, Site: "create"},
		{Thread: 2, Unit: 2, Read: true, Site: "unlock lookup"},
		{Thread: 1, Unit: 1, Write: true, Site: "delete"},
	}
	settled(f, evs, delta, &replayTrace{f: f, read: true, tr: tr, pos: pos})
	if evs[1].Since != 1 || evs[1].Settled {
		t.Errorf("counted and not taken back: Since %d, Settled %v; want 1, false", evs[1].Since, evs[1].Settled)
	}
}
