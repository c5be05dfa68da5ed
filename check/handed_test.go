package check

import (
	"slices"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// TestHandedOn: moby/locker's Unlock (u) reads back the waiters count
// that another Lock (g) added to while u held the name's lock; g gets
// the lock after u's release and its own Unlock reads the count at the
// same site, in the same methods, where it finds u's own value (u's add
// and g's both undone) and deletes the entry. The read-back is handed
// on; every shape where the decision u skipped is not made again on
// u's value is not. A third Lock..Unlock (h) run whole between u's add
// and its read-back, its adds netting to zero and no lock held at the
// read-back, leaves u's value as it found it: with it, u's read-back is
// still handed on, or, alone, reads u's own value; so does the holder u
// waited for, which counted itself before u's add and took its count
// back between (the count then the one without it); one still holding a
// lock at the read-back (waitgate's second user, inside), or one still
// counted that left its count changed, is not left out.
func TestHandedOn(t *testing.T) {
	const (
		u, g, h = 0, 1, 2
		w       = 0 // the count
		m       = 1 // the map's lock
		l       = 2 // the name's lock
		x       = 3 // another lock
		e       = 4 // the map
	)
	sites := []string{"inc", "dec", "count", "Unlock", "delete", "Peek", "store"}
	site := func(s string) int32 { return int32(slices.Index(sites, s)) }
	ev := func(gr int32, op trace.Op, obj int32, s string) trace.Event {
		e := trace.Event{G: gr, Op: op, Obj: obj, Site: -1}
		if s != "" {
			e.Site = site(s)
		}
		if op == trace.AtomicRMW {
			e.Flags = trace.FlagAdd | trace.FlagUnused
		}
		return e
	}
	unlockOf := func(gr int32, fn string) []trace.Event {
		return []trace.Event{
			ev(gr, trace.RegionBegin, -1, fn),
			ev(gr, trace.Lock, m, ""),
			ev(gr, trace.AtomicLoad, w, "count"),
		}
	}
	// base: u adds (pa, 1) and holds l, g adds under m and waits for l,
	// u reads back (pb, 10) and releases, g takes l, takes its add back
	// and reads the count at the same site in Unlock.
	base := func() []trace.Event {
		evs := []trace.Event{
			ev(u, trace.Lock, m, ""),
			ev(u, trace.AtomicRMW, w, "inc"),
			ev(u, trace.Unlock, m, ""),
			ev(u, trace.Lock, l, ""),
			ev(u, trace.AtomicRMW, w, "dec"),
			ev(g, trace.Lock, m, ""),
			ev(g, trace.AtomicRMW, w, "inc"),
			ev(g, trace.Unlock, m, ""),
		}
		evs = append(evs, unlockOf(u, "Unlock")...) // pb = 10
		evs = append(evs,
			ev(u, trace.Unlock, l, ""),
			ev(u, trace.Unlock, m, ""),
			ev(u, trace.RegionEnd, -1, ""),
			ev(g, trace.Lock, l, ""),
			ev(g, trace.AtomicRMW, w, "dec"),
		)
		evs = append(evs, unlockOf(g, "Unlock")...)
		return append(evs,
			ev(g, trace.Write, e, "delete"),
			ev(g, trace.Unlock, l, ""),
			ev(g, trace.Unlock, m, ""),
			ev(g, trace.RegionEnd, -1, ""),
		)
	}
	delta := func(s string) (int64, bool) {
		switch s {
		case "inc":
			return 1, true
		case "dec":
			return -1, true
		}
		return 0, false
	}
	// whole is h's Lock..Unlock of the name, run while no one holds l:
	// its Unlock finds u's add and keeps the entry.
	whole := func() []trace.Event {
		return append([]trace.Event{
			ev(h, trace.Lock, m, ""),
			ev(h, trace.AtomicRMW, w, "inc"),
			ev(h, trace.Unlock, m, ""),
			ev(h, trace.Lock, l, ""),
			ev(h, trace.AtomicRMW, w, "dec"),
		}, append(unlockOf(h, "Unlock"),
			ev(h, trace.Unlock, l, ""),
			ev(h, trace.Unlock, m, ""),
			ev(h, trace.RegionEnd, -1, ""),
		)...)
	}
	// gate is waitgate's: u adds (pa, 1), takes l and its add back and
	// releases l; h adds, takes l and its add back, and holds l (inside)
	// when u reads the count (pb) and frees what it guards.
	gate := func(hRelease bool) []trace.Event {
		evs := []trace.Event{
			ev(u, trace.RegionBegin, -1, "Peek"),
			ev(u, trace.AtomicRMW, w, "inc"),
			ev(u, trace.Lock, l, ""),
			ev(u, trace.AtomicRMW, w, "dec"),
			ev(u, trace.RegionEnd, -1, ""),
			ev(u, trace.Unlock, l, ""),
			ev(h, trace.AtomicRMW, w, "inc"),
			ev(h, trace.Lock, l, ""),
			ev(h, trace.AtomicRMW, w, "dec"),
		}
		if hRelease {
			evs = append(evs, ev(h, trace.Unlock, l, ""))
		}
		return append(evs, ev(u, trace.AtomicLoad, w, "count"), ev(u, trace.Write, e, "delete"))
	}
	// held is base with h holding l first: h counted itself before u's
	// add and takes its count back between, then runs its Unlock and
	// releases l, which u then takes; with x2, h also holds x from
	// before u's add to the end.
	held := func(x2 bool) []trace.Event {
		evs := []trace.Event{ev(h, trace.AtomicRMW, w, "inc"), ev(h, trace.Lock, l, "")}
		if x2 {
			evs = append(evs, ev(h, trace.Lock, x, ""))
		}
		evs = append(evs, base()[:3]...)
		evs = append(evs, ev(h, trace.AtomicRMW, w, "dec"))
		evs = append(evs, unlockOf(h, "Unlock")...)
		evs = append(evs, ev(h, trace.Unlock, l, ""), ev(h, trace.Unlock, m, ""), ev(h, trace.RegionEnd, -1, ""))
		return append(evs, base()[3:]...)
	}
	at := func(evs []trace.Event, k int, es ...trace.Event) []trace.Event {
		return slices.Insert(slices.Clone(evs), k, es...)
	}
	without := func(evs []trace.Event, k int) []trace.Event { return slices.Delete(slices.Clone(evs), k, k+1) }
	for _, tc := range []struct {
		name string
		evs  []trace.Event
		want bool
	}{
		{"Unlock finds the other Lock waiting; its Unlock deletes", base(), true},
		{"the other Lock takes no add back (a failure count: both skip)", without(base(), 15), false},
		{"the unit writes before its release", at(base(), 11, ev(u, trace.Write, e, "delete")), false},
		{"the other goroutine's next acquire is another lock", at(base(), 8, ev(g, trace.Lock, x, ""), ev(g, trace.Unlock, x, "")), false},
		{"the other goroutine reads the count in another method", append(base()[:16], append(unlockOf(g, "Peek"), base()[19:]...)...), false},
		{"the other goroutine never reads the count again", append(base()[:16], ev(g, trace.Unlock, l, "")), false},
		{"a store of the count between", at(base(), 8, ev(g, trace.AtomicStore, w, "store")), false},
		{"the unit released the name's lock before its read", append(append(append(base()[:8], ev(u, trace.Unlock, l, "")), base()[8:11]...), base()[12:]...), false},
		{"another Lock..Unlock runs whole before the unit locks the name; the waiter hands on", at(base(), 3, whole()...), true},
		{"another Lock..Unlock runs whole between, alone: the unit reads its own value", at(append(base()[:5], base()[8:11]...), 3, whole()...), true},
		{"the whole Lock..Unlock and a waiter that takes no add back", without(at(base(), 3, whole()...), 15+len(whole())), false},
		{"the other goroutine's adds net to zero but it holds the lock at the read (waitgate)", gate(false), false},
		{"the other goroutine's adds net to zero and it left before the read", gate(true), true},
		{"the holder the unit waited for counted itself before the unit's add and takes it back between", held(false), true},
		{"the same holder still holds another lock at the read", held(true), false},
		{"the same holder counts itself again between, before its take-back: as it was", at(held(false), 4, ev(h, trace.AtomicRMW, w, "inc")), true},
		{"the same holder counts itself twice more after its take-back: still counted", at(held(false), 6, ev(h, trace.AtomicRMW, w, "inc"), ev(h, trace.AtomicRMW, w, "inc")), false},
		{"two goroutines' adds net to zero together, not each", at(without(gate(true), 8), 8, ev(g, trace.AtomicRMW, w, "dec")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &trace.Trace{Tables: trace.Tables{Goroutines: []string{"u", "g", "h"}, Objects: []string{"w", "m", "l", "x", "e"}, Sites: sites}, Events: tc.evs}
			pa, pb := -1, -1
			for k, e := range tc.evs {
				if e.G == u && e.Op == trace.AtomicRMW && pa < 0 {
					pa = k
				}
				if e.G == u && e.Op == trace.AtomicLoad {
					pb = k
					break
				}
			}
			if got := handedOn(tr, pa, pb, delta); got != tc.want {
				t.Errorf("handedOn = %v, want %v", got, tc.want)
			}
		})
	}
}
