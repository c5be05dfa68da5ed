package check

import (
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/static/depend"
)

// TestSpares: the unit's delete of a map element is spared when every
// other goroutine's write of the map before it, in the replay's trace,
// wrote one element and, at the delete's element, the last was a delete
// followed by the unit's own write (heldlockfixed: the other's Lock and
// Unlock of the lock, then the unit's), or none wrote that element; a
// record of the other's still there, a take of the same entry by both, a
// third goroutine's insert after the other's delete, or a whole-map write
// is not.
func TestSpares(t *testing.T) {
	type w struct {
		g    string
		site string
		key  int64
	}
	rng := w{"g2", "range", 0}
	del := func(g string, k int64) w { return w{g, "delete", k} }
	ins := func(g string, k int64) w { return w{g, "insert", k} }
	for _, tc := range []struct {
		name string
		ws   []w // the map's accesses, the first the unit's range, the last the unit's delete
		want bool
	}{
		{"the other's insert and delete, then the unit's own", []w{rng, ins("g1", 7), del("g1", 7), ins("g2", 7), del("g2", 7)}, true},
		{"the other's record still there, replaced by the unit's", []w{rng, ins("g1", 7), ins("g2", 7), del("g2", 7)}, false},
		{"the other's record still there", []w{rng, ins("g1", 7), del("g2", 7)}, false},
		{"both take one entry", []w{rng, del("g1", 7), del("g2", 7)}, false},
		{"a third's insert after the other's delete", []w{rng, ins("g1", 7), del("g1", 7), ins("g3", 7), ins("g2", 7), del("g2", 7)}, false},
		{"the other's writes at another key only", []w{rng, ins("g1", 8), del("g1", 8), ins("g1", 9), del("g2", 7)}, true},
		{"the other's whole-map write", []w{rng, ins("g1", 8), {"g1", "clear", 0}, del("g2", 7)}, false},
		{"the unit's write recorded without a key", []w{rng, ins("g1", 8), del("g2", 0)}, false},
	} {
		var steps []trace.Step
		tr := &trace.Trace{Tables: trace.Tables{Goroutines: []string{"g1", "g2", "g3"}, Sites: []string{"range", "insert", "delete", "clear"}}}
		var pos []int
		gs := map[string]int32{"g1": 0, "g2": 1, "g3": 2}
		sites := map[string]int32{"range": 0, "insert": 1, "delete": 2, "clear": 3}
		for i, x := range tc.ws {
			op := trace.Write
			if x.site == "range" {
				op = trace.Read
			}
			steps = append(steps, trace.Step{G: x.g, Op: op, Obj: "M", Site: x.site, N: 1})
			tr.Events = append(tr.Events, trace.Event{G: gs[x.g], Op: op, Obj: 0, Site: sites[x.site], Arg: x.key})
			// An unrelated object's write between: ignored.
			tr.Events = append(tr.Events, trace.Event{G: 0, Op: trace.Write, Obj: 1, Site: sites["delete"], Arg: 7})
			pos = append(pos, 2*i)
		}
		n := len(steps)
		f := &Finding{Schedule: &trace.Schedule{Steps: steps, Anomaly: []int{0, 1, n - 1}}}
		rt := &replayTrace{f: f, read: true, tr: tr, pos: pos}
		evs := []depend.Event{
			{Thread: 1, Unit: 1, Read: true, Site: "range"},
			{Thread: 2, Unit: 2, Write: true, Site: tc.ws[1].site},
			{Thread: 1, Unit: 1, Write: true, Site: "delete"},
		}
		spares(f, evs, func(site string) bool { return site == "delete" }, rt)
		if evs[2].Spares != tc.want {
			t.Errorf("%s: Spares of the unit's delete = %v, want %v", tc.name, evs[2].Spares, tc.want)
		}
		if evs[0].Spares {
			t.Errorf("%s: Spares of a read", tc.name)
		}
	}
	// No replay trace: nothing known.
	f := &Finding{Schedule: &trace.Schedule{Steps: []trace.Step{{G: "g2", Op: trace.Read, Obj: "M"}, {G: "g1", Op: trace.Write, Obj: "M"}, {G: "g2", Op: trace.Write, Obj: "M"}}, Anomaly: []int{0, 1, 2}}}
	evs := []depend.Event{{Read: true}, {Write: true}, {Write: true}}
	spares(f, evs, func(string) bool { return true }, &replayTrace{f: f, read: true})
	if evs[2].Spares {
		t.Error("Spares without a replay trace")
	}
}
