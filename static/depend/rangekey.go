package depend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// freshKey reports whether b, a map lookup, reads another step's entry
// than the one a wrote: a and b ran in two activations of one method,
// called at one site in the body of a range over the same map (not in a
// loop of its own inside it), and both use the range's key as theirs. A
// range yields each key once, and b's key was yielded by a step after a's
// activation, reading the map afresh: b reads back nothing a wrote.
// cache2go's expirationCheck ranges over its items and calls
// deleteInternal for each expired key, which looks the key up (:212),
// unlocks for the callbacks, and deletes it (:238); an Add between one
// key's delete and the next key's lookup changes no value the next step
// reads back.
func (x *Index) freshKey(a, b Event) bool {
	return x.rangeSteps(a, false, b, true) != nil
}

// otherEntries reports whether a and b, two writes of a map, wrote the
// entries of two steps of a range over it (rangeSteps: two keys), and r,
// another goroutine's read between them, looks one key up in that map.
// Each entry is written once, so the entry r reads is as before both
// writes or as after both: r sees no intermediate state, whichever key it
// reads. cache2go's expirationCheck deletes each expired key through
// deleteInternal; a Value's lookup between two of those deletes was
// reported as an intermediate state in the runs whose recording happened
// to put a Value there (1 of 7 under load).
func (x *Index) otherEntries(a, b, r Event) bool {
	m := x.rangeSteps(a, false, b, false)
	if m == nil || len(r.Frames) == 0 {
		return false
	}
	fr := x.function(r.Frames[len(r.Frames)-1].Site)
	if fr == nil {
		return false
	}
	k, mr := x.keyAt(fr, r.Site, true)
	return k != nil && mr == m
}

// rangeSteps returns the struct field holding the map when a and b access
// it in two activations of one method, called at one site in the body of
// a range over the same map (not in a loop of its own inside it), both
// with the range's key as theirs (a lookup where aLookup or bLookup, else
// a write): a range yields each key once, so the two keys differ. It
// returns nil otherwise.
func (x *Index) rangeSteps(a Event, aLookup bool, b Event, bLookup bool) *types.Var {
	c := common(a.Frames, b.Frames)
	if c == 0 || len(a.Frames) != c+1 || len(b.Frames) != c+1 || a.Frames[c].Site != b.Frames[c].Site {
		return nil
	}
	fn, g := x.function(a.Frames[c-1].Site), x.function(a.Frames[c].Site)
	if fn == nil || g == nil {
		return nil
	}
	ka, ma := x.keyAt(g, a.Site, aLookup)
	kb, mb := x.keyAt(g, b.Site, bLookup)
	p, ok := ka.(*ssa.Parameter)
	if !ok || ka != kb || ma == nil || ma != mb {
		return nil
	}
	idx := -1
	for i, gp := range g.Params {
		if gp == p {
			idx = i
		}
	}
	calls := x.callsIn(x.scope(fn), g)
	if idx < 0 || len(calls) != 1 || idx >= len(calls[0].Common().Args) {
		return nil
	}
	call := calls[0]
	e, ok := unconvert(call.Common().Args[idx]).(*ssa.Extract)
	if !ok || e.Index != 1 {
		return nil
	}
	next, ok := e.Tuple.(*ssa.Next)
	if !ok || next.IsString {
		return nil
	}
	rng, ok := next.Iter.(*ssa.Range)
	if !ok || mapField(rng.X) != ma {
		return nil
	}
	// The call must not come round again without the range stepping.
	stop := next.Block()
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), call.Block().Succs...)
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if blk == stop || seen[blk] {
			continue
		}
		if blk == call.Block() {
			return nil
		}
		seen[blk] = true
		work = append(work, blk.Succs...)
	}
	return ma
}

// keyAt returns the key of the map access in g at site, a lookup or a
// write (an insert or a delete), and the struct field the map was loaded
// from; nil when there is none.
func (x *Index) keyAt(g *ssa.Function, site string, lookup bool) (ssa.Value, *types.Var) {
	for _, in := range x.instrs[site] {
		if in.Parent() != g {
			continue
		}
		switch in := in.(type) {
		case *ssa.Lookup:
			if lookup {
				return unconvert(in.Index), mapField(in.X)
			}
		case *ssa.MapUpdate:
			if !lookup {
				return unconvert(in.Key), mapField(in.Map)
			}
		case ssa.CallInstruction:
			if k := writtenKey(in); k != nil && !lookup {
				return k, mapField(in.Common().Args[0])
			}
		}
	}
	return nil, nil
}

// mapField is the struct field a map value was loaded from (c.m), or nil.
func mapField(v ssa.Value) *types.Var {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		return field(u.X)
	}
	return nil
}
