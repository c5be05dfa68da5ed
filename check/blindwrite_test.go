package check

import (
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestBlindWrite: a write whose goroutine read its object at no earlier
// step, and whose object no one read after it up to the pattern's last
// step, is blind (mplex's Stream.cancelRead deleting its stream from the
// map between handleIncoming's lookup and delete); a read of the object
// by the writer before it, or by anyone after it, makes it not blind;
// reads of other objects and the writer's other writes do not.
func TestBlindWrite(t *testing.T) {
	s := func(g string, op trace.Op, obj string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: obj, N: 1}
	}
	// g1 looks the map M up (0), g2 deletes from it (w), g1 deletes (last).
	base := func(before, after []trace.Step) ([]trace.Step, int, int) {
		steps := append([]trace.Step{s("g1", trace.Read, "M")}, before...)
		w := len(steps)
		steps = append(steps, s("g2", trace.Write, "M"))
		steps = append(steps, after...)
		steps = append(steps, s("g1", trace.Write, "M"))
		// beyond the pattern's end: another lookup that changes nothing
		steps = append(steps, s("g2", trace.Read, "M"))
		return steps, w, len(steps) - 2
	}
	for _, tc := range []struct {
		name          string
		before, after []trace.Step
		want          bool
	}{
		{"unconditional delete, nothing reads it", nil, nil, true},
		{"the writer's other reads and writes", []trace.Step{s("g2", trace.Read, "F"), s("g2", trace.Write, "M")}, []trace.Step{s("g2", trace.Read, "F")}, true},
		{"the writer looked the map up first", []trace.Step{s("g2", trace.Read, "M")}, nil, false},
		{"the writer's atomic load of it first", []trace.Step{s("g2", trace.AtomicLoad, "M")}, nil, false},
		{"a third goroutine read it after the write", nil, []trace.Step{s("g3", trace.Read, "M")}, false},
		{"the unit read it again after the write", nil, []trace.Step{s("g1", trace.Read, "M")}, false},
		{"a third goroutine's read before the write", []trace.Step{s("g3", trace.Read, "M")}, nil, true},
	} {
		steps, w, last := base(tc.before, tc.after)
		if got := readsOf(steps, "M", last).blind(steps[w].G, w); got != tc.want {
			t.Errorf("%s: blind = %v, want %v", tc.name, got, tc.want)
		}
	}
}
