package check

import (
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// TestOverwrites: a read's Overwrite is its goroutine's atomic write of
// the object when that is the first write of it after the read (a claim
// released before another goroutine's claim); another goroutine's write
// first, a plain write, or none, leaves it 0.
func TestOverwrites(t *testing.T) {
	step := func(g string, op trace.Op, obj, site string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: site, N: 1}
	}
	// g2 claims F (the read), g1 claims F after, g2 reads Q.
	claim := step("g2", trace.AtomicRMW, "F", "claim")
	other := step("g1", trace.AtomicRMW, "F", "claim")
	read := step("g2", trace.Read, "Q", "empty")
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		want  int // Overwrite of the claim
	}{
		{"released by its own Swap before the other's claim", []trace.Step{claim, step("g2", trace.AtomicRMW, "F", "release"), other, read}, 1},
		{"released by its own Store", []trace.Step{claim, step("g2", trace.AtomicStore, "F", "release"), other, read}, 1},
		{"another goroutine wrote first", []trace.Step{claim, step("g3", trace.AtomicStore, "F", "release"), step("g2", trace.AtomicStore, "F", "release"), other, read}, 0},
		{"a plain write of its own", []trace.Step{claim, step("g2", trace.Write, "F", "release"), other, read}, 0},
		{"its own write of another object", []trace.Step{claim, step("g2", trace.AtomicStore, "G", "release"), other, read}, 0},
		{"no write of its own", []trace.Step{claim, step("g2", trace.AtomicLoad, "F", "look"), other, read}, 0},
	} {
		n := len(tc.steps)
		f := &Finding{Schedule: &trace.Schedule{Steps: tc.steps, Anomaly: []int{0, n - 2, n - 1}}}
		evs := []depend.Event{
			{Thread: 2, Unit: 2, Read: true, Write: true, Site: "claim"},
			{Thread: 1, Unit: 1, Read: true, Write: true, Site: "claim"},
			{Thread: 2, Unit: 2, Read: true, Site: "empty"},
		}
		overwrites(f, evs)
		if evs[0].Overwrite != tc.want {
			t.Errorf("%s: Overwrite = %d, want %d", tc.name, evs[0].Overwrite, tc.want)
		}
		if evs[1].Overwrite != 0 || evs[2].Overwrite != 0 {
			t.Errorf("%s: Overwrite of the other events = %d, %d, want 0", tc.name, evs[1].Overwrite, evs[2].Overwrite)
		}
	}
}
