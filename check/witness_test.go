package check

import (
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestWitnessesOf: golang-queue's schedule. The start loop (s) reads the
// busy count three times at the read-back's site, each time followed by
// the getters' two region ends and its read of the limit (the bound);
// a worker (u) adds, another (g) adds, u takes its add back (pa), g too,
// and u reads the count back (pb), then the limit. Each earlier read is
// a witness, its Delta the unit's own value minus what it read, counted
// from the adds between it and pa. A store of the limit after a
// witness's read of it, a plain store or unknown add of the count, a
// step other than a
// region end between a read and its bound, other region ends, or a
// bound of another object leave witnesses out; a unit whose read-back
// is not followed by its bound has none.
func TestWitnessesOf(t *testing.T) {
	const (
		s, u, g = 0, 1, 2
		w, b, r = 0, 1, 2 // the count, the limit, the wake-up channel
	)
	sites := []string{"inc", "dec", "load", "bound", "send", "end1", "end2", "store", "Busy", "full"}
	site := func(n string) int32 { return int32(slices.Index(sites, n)) }
	ev := func(gr int32, op trace.Op, obj int32, n string) trace.Event {
		e := trace.Event{G: gr, Op: op, Obj: obj, Site: site(n)}
		if op == trace.AtomicRMW && (n == "inc" || n == "dec") {
			e.Flags = trace.FlagAdd
		}
		return e
	}
	check := func(gr int32, then string) []trace.Event {
		return []trace.Event{
			ev(gr, trace.AtomicLoad, w, "load"),
			ev(gr, trace.RegionEnd, -1, "end1"),
			ev(gr, trace.RegionEnd, -1, "end2"),
			ev(gr, trace.Read, b, "bound"),
			ev(gr, trace.Read, r, then),
		}
	}
	base := func() []trace.Event {
		var evs []trace.Event
		evs = append(evs, check(s, "send")...)              // 0: reads 0
		evs = append(evs, ev(u, trace.AtomicRMW, w, "inc")) // 5
		evs = append(evs, check(s, "send")...)              // 6: reads 1
		evs = append(evs, ev(g, trace.AtomicRMW, w, "inc")) // 11
		evs = append(evs, check(s, "full")...)              // 12: reads 2
		evs = append(evs, ev(u, trace.AtomicRMW, w, "dec")) // 17: pa, own 1
		evs = append(evs, ev(g, trace.AtomicRMW, w, "dec")) // 18
		return append(evs, check(u, "send")...)             // 19: pb
	}
	delta := func(n string) (int64, bool) {
		switch n {
		case "inc":
			return 1, true
		case "dec":
			return -1, true
		}
		return 0, false
	}
	at := func(evs []trace.Event, k int, es ...trace.Event) []trace.Event {
		return slices.Insert(slices.Clone(evs), k, es...)
	}
	set := func(evs []trace.Event, k int, e trace.Event) []trace.Event {
		evs = slices.Clone(evs)
		evs[k] = e
		return evs
	}
	for _, tc := range []struct {
		name   string
		evs    []trace.Event
		ok     bool
		deltas []int64
	}{
		{"three witnesses, nearest first", base(), true, []int64{-1, 0, 1}},
		{"the limit stored after the second witness's read of it", at(base(), 10, ev(g, trace.Write, b, "store")), true, []int64{-1}},
		{"a plain store of the count before the second witness", at(base(), 6, ev(g, trace.Write, w, "store")), true, []int64{-1, 0}},
		{"an unknown add of the count after the third witness", at(base(), 17, ev(g, trace.AtomicRMW, w, "store")), true, nil},
		{"the unit's own unknown add of the count before its read-back", at(base(), 19, ev(u, trace.AtomicRMW, w, "store")), false, nil},
		{"the unit's own add before its read-back", at(base(), 19, ev(u, trace.AtomicRMW, w, "inc")), true, []int64{0, 1, 2}},
		{"a region begins between the second witness's read and its bound", at(base(), 7, ev(s, trace.RegionBegin, -1, "Busy")), true, []int64{-1, 1}},
		{"the first witness ends one region only", set(base(), 2, ev(s, trace.Read, r, "full")), true, []int64{-1, 0}},
		{"the first witness reads another bound", set(base(), 3, ev(s, trace.Read, r, "bound")), true, []int64{-1, 0}},
		{"the unit writes before its bound", set(base(), 22, ev(u, trace.Write, r, "store")), false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &trace.Trace{Tables: trace.Tables{Goroutines: []string{"s", "u", "g"}, Objects: []string{"w", "b", "r"}, Sites: sites}, Events: tc.evs}
			pa, pb := -1, -1
			for k, e := range tc.evs {
				if e.G == u && e.Op == trace.AtomicRMW && e.Site == site("dec") {
					pa = k
				}
				if e.G == u && e.Op == trace.AtomicLoad {
					pb = k
				}
			}
			bound, after, ws, ok := witnessesOf(tr, pa, pb, delta)
			if ok != tc.ok {
				t.Fatalf("witnessesOf ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			var ds []int64
			for _, x := range ws {
				ds = append(ds, x.Delta)
				if len(x.After) == 0 || x.After[0] != "send" && x.After[0] != "full" {
					t.Errorf("witness path %v, want one after its bound", x.After)
				}
			}
			if bound != "bound" || len(after) == 0 || after[0] != "send" || !slices.Equal(ds, tc.deltas) {
				t.Errorf("witnessesOf = %q, %v, deltas %v; want bound, [send], %v", bound, after, ds, tc.deltas)
			}
		})
	}
}
