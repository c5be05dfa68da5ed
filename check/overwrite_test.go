package check

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
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

// TestPriors: an event's Prior lists every write of its object from the
// pattern's first step up to it, by any goroutine and of any kind (what
// an atomic read-modify-write read is what the last of them stored); no
// schedule leaves it nil.
func TestPriors(t *testing.T) {
	step := func(g string, op trace.Op, obj, site string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: site, N: 1}
	}
	// g1 swaps F (a, step 1), g2 reads M and swaps F, g1 writes M; a
	// write of F before the pattern, one of another object and a load
	// between are not listed.
	steps := []trace.Step{
		step("g3", trace.AtomicStore, "F", "update"),
		step("g1", trace.AtomicRMW, "F", "swap"),
		step("g1", trace.AtomicRMW, "F", "swap again"),
		step("g3", trace.AtomicStore, "G", "other"),
		step("g2", trace.Read, "M", "range"),
		step("g3", trace.AtomicLoad, "F", "look"),
		step("g3", trace.Write, "F", "plain"),
		step("g2", trace.AtomicRMW, "F", "swap"),
		step("g1", trace.Write, "M", "delete"),
	}
	f := &Finding{Schedule: &trace.Schedule{Steps: steps, Anomaly: []int{1, 4, 7, 8}}}
	evs := make([]depend.Event, 4)
	priors(f, evs)
	var got []string
	for _, w := range evs[2].Prior {
		got = append(got, fmt.Sprintf("%d %s %s", w.Step, w.G, w.Site))
	}
	if want := []string{"1 g1 swap", "2 g1 swap again", "6 g3 plain"}; !slices.Equal(got, want) {
		t.Errorf("Prior of the reader's swap = %q, want %q", got, want)
	}
	if evs[0].Prior == nil || len(evs[0].Prior) != 0 {
		t.Errorf("Prior of the pattern's first event = %v, want empty, not nil", evs[0].Prior)
	}
	if len(evs[3].Prior) != 0 {
		t.Errorf("Prior of the delete = %v, want none (no write of M before it)", evs[3].Prior)
	}
	evs = make([]depend.Event, 4)
	priors(&Finding{}, evs)
	if evs[2].Prior != nil {
		t.Errorf("Prior without a schedule = %v, want nil", evs[2].Prior)
	}
}

// TestFreshReads: a write's Fresh lists its goroutine's reads of the
// object after the other units' events before it, back to a region's
// begin or end of its own, and not past another goroutine's write of the
// object (go-deadlock's postLock: the holders looked up again after
// another goroutine's postUnlock deleted them, then stored back).
func TestFreshReads(t *testing.T) {
	pats, _ := pattern.Builtin("av")
	var rww *pattern.Pattern
	for _, p := range pats {
		if p.Name == "RWW" {
			rww = p
		}
	}
	step := func(g string, op trace.Op, obj, site string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: site, N: 1}
	}
	rng := step("g1", trace.Read, "M", "range")
	del := step("g2", trace.Write, "M", "delete")
	lookup := step("g1", trace.Read, "M", "lookup")
	store := step("g1", trace.Write, "M", "store")
	begin := step("g1", trace.RegionBegin, "L.postLock", "postLock")
	for _, tc := range []struct {
		name  string
		steps []trace.Step
		want  []string
	}{
		{"looked up after the delete", []trace.Step{rng, del, begin, lookup, step("g1", trace.Read, "N", "other"), store}, []string{"lookup"}},
		{"looked up before the delete", []trace.Step{rng, lookup, del, store}, nil},
		{"another goroutine's write after the lookup", []trace.Step{rng, del, lookup, step("g3", trace.Write, "M", "insert"), store}, nil},
		{"the lookup in an earlier activation", []trace.Step{rng, del, lookup, begin, store}, nil},
		{"another goroutine's read between", []trace.Step{rng, del, lookup, step("g3", trace.Read, "M", "peek"), store}, []string{"lookup"}},
	} {
		n := len(tc.steps)
		f := &Finding{Anomaly: predict.Anomaly{Pattern: rww}, Schedule: &trace.Schedule{Steps: tc.steps, Anomaly: []int{0, 1, n - 1}}}
		evs := []depend.Event{
			{Thread: 1, Unit: 1, Read: true, Site: "range"},
			{Thread: 2, Unit: 2, Write: true, Site: "delete"},
			{Thread: 1, Unit: 1, Write: true, Site: "store"},
		}
		freshReads(f, evs)
		if !slices.Equal(evs[2].Fresh, tc.want) {
			t.Errorf("%s: Fresh = %q, want %q", tc.name, evs[2].Fresh, tc.want)
		}
		if evs[0].Fresh != nil || evs[1].Fresh != nil {
			t.Errorf("%s: Fresh of the read and of the other's write = %q, %q, want none", tc.name, evs[0].Fresh, evs[1].Fresh)
		}
	}
}

// TestLooks: an event's Looks lists its own goroutine's plain reads of
// its object from the pattern's first step up to it (a get-or-create's
// found branch, run by the reader after the writer's append), and
// Untouched says no step of the schedule before it wrote the object.
func TestLooks(t *testing.T) {
	step := func(g string, op trace.Op, obj, site string) trace.Step {
		return trace.Step{G: g, Op: op, Obj: obj, Site: site, N: 1}
	}
	steps := []trace.Step{
		step("g2", trace.Read, "S", "before"),
		step("g1", trace.Write, "S", "append"),
		step("g2", trace.Read, "S", "len"),
		step("g1", trace.Read, "S", "writer's"),
		step("g2", trace.Read, "S", "elem"),
		step("g2", trace.Read, "S", "snapshot"),
		step("g2", trace.Read, "M", "copy"),
		step("g1", trace.Write, "M", "add"),
	}
	f := &Finding{Schedule: &trace.Schedule{Steps: steps, Anomaly: []int{1, 5, 6, 7}}}
	evs := make([]depend.Event, 4)
	priors(f, evs)
	var got []string
	for _, l := range evs[1].Looks {
		got = append(got, fmt.Sprintf("%d %s %s", l.Step, l.G, l.Site))
	}
	if want := []string{"2 g2 len", "4 g2 elem"}; !slices.Equal(got, want) {
		t.Errorf("Looks of the snapshot's read = %q, want %q", got, want)
	}
	if evs[1].Untouched || !evs[2].Untouched || !evs[3].Untouched {
		t.Errorf("Untouched = %v, %v, %v; want false (the append before), true, true (no write of M before either: a write is not before itself)", evs[1].Untouched, evs[2].Untouched, evs[3].Untouched)
	}
}
