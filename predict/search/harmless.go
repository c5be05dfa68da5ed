package search

import (
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
)

// commuting reports whether the events are all commutative atomic updates
// (Add, And or Or), one kind per object: in any order they read-modify-write
// to the same final values, so their interleaving is no violation.
func commuting(gr *ptg.Graph, events []int32) bool {
	var objs [4]int32
	var kinds [4]uint8
	n := 0
	for _, e := range events {
		ev := gr.Ev(e)
		u := ev.Flags & trace.UpdateFlags
		if ev.Op != trace.AtomicRMW || u == 0 {
			return false
		}
		found := false
		for i := 0; i < n; i++ {
			if objs[i] == ev.Obj {
				if kinds[i] != u {
					return false
				}
				found = true
			}
		}
		if !found {
			if n == len(objs) {
				return false // more objects than patterns have: be conservative
			}
			objs[n], kinds[n] = ev.Obj, u
			n++
		}
	}
	return true
}

// unobserved reports whether an instance of an atomicity pattern is
// equivalent to a serial run: placing the remote events (those not of the
// unit's goroutine, pattern thread 0) all before the unit's first event, or
// all after its last, reorders only pairs that commute unobserved. A pair
// commutes unobserved when its two events touch different objects (or
// different elements of one map, trace.KeysApart), or are
// both updates of one kind whose results the program discards
// (trace.FlagUnused), and the remote event's atomic region touches that
// object only with such updates. Then the unit reads the same values, the
// final values are the same, and no goroutine observes the difference: an
// interleaving without effect. The region condition keeps the
// violations of a check-then-act: a remote region that loads the counter
// before adding to it decided on a value the reordering changes.
func unobserved(gr *ptg.Graph, p *pattern.Pattern, events []int32) bool {
	first, last := -1, -1
	for i := range events {
		if p.T[i] == 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return false
	}
	pairOK := func(unit, remote int32) bool {
		u, r := gr.Ev(unit), gr.Ev(remote)
		if u.Obj != r.Obj || trace.KeysApart(u, r) {
			return true // different objects, or elements of one map
		}
		return unusedUpdate(u, r.Flags&trace.UpdateFlags) && unusedUpdate(r, u.Flags&trace.UpdateFlags) &&
			regionUpdatesOnly(gr, remote)
	}
	// place reports whether moving every remote event before (after) the
	// unit reorders only such pairs.
	place := func(after bool) bool {
		for j := range events {
			if p.T[j] == 0 {
				continue
			}
			for i := first; i <= last; i++ {
				if p.T[i] != 0 {
					continue
				}
				if flips := (j < i) == after; flips && !pairOK(events[i], events[j]) {
					return false
				}
			}
		}
		return true
	}
	return place(false) || place(true)
}

// unusedUpdate reports whether e is an update of kind u whose result the
// program discards.
func unusedUpdate(e trace.Event, u uint8) bool {
	return e.Op == trace.AtomicRMW && u != 0 && e.Flags&trace.UpdateFlags == u && e.Flags&trace.FlagUnused != 0
}

// regionUpdatesOnly reports whether the atomic region of e (its whole
// goroutine if it has none) accesses e's object only with unused updates
// of e's kind.
func regionUpdatesOnly(gr *ptg.Graph, e int32) bool {
	ev := gr.Ev(e)
	evs := gr.G(ev.G)
	if r := gr.Region[e]; r >= 0 {
		evs = evs[gr.Local[gr.Regs[r].First] : gr.Local[gr.Regs[r].Last]+1]
	}
	for _, x := range evs {
		if xe := gr.Ev(x); xe.Op.IsAccess() && xe.Obj == ev.Obj && !unusedUpdate(xe, ev.Flags&trace.UpdateFlags) {
			return false
		}
	}
	return true
}

// keysApart reports whether an instance of an atomicity pattern binds one
// of its shared variables to elements of a map with different keys: the
// trace names a map as one object (races on it are races on the map's
// internals), but a unit's accesses of key a and another goroutine's of
// key b touch different entries, and the anomaly needs one location that
// all of a variable's accesses touch. An access of the whole map (len,
// range, clear, or a key left unhashed) touches every element, so it is
// apart from none; equal hashes of two keys make them one element.
func keysApart(gr *ptg.Graph, p *pattern.Pattern, events []int32) bool {
	for i := range events {
		for j := i + 1; j < len(events); j++ {
			if p.SV[i] == p.SV[j] && trace.KeysApart(gr.Ev(events[i]), gr.Ev(events[j])) {
				return true
			}
		}
	}
	return false
}
