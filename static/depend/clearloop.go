package depend

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// clearedAgain reports whether b is the range of a clear loop, one that
// only deletes from a map each key it comes to, and every write of that
// map the replayed schedule shows from the pattern's first step up to b
// (Event.Prior) is a delete made by such a loop: the map's other writers
// were clearing it too. Nothing was inserted meanwhile, so whatever
// decided the unit's clear, the keys it deletes are ones the other
// clears delete as well, and the map ends empty either way: what the
// unit read at b is used for nothing a serial order does not do (tally's
// clearMetrics of a closed scope that the other report cleared first,
// scope.go:555 in scope_registry.go:120 asv). A loop that does anything
// else for a key, or an insert or a lone delete between, stays judged.
func (x *Index) clearedAgain(b Event) bool {
	if !b.Read || b.Write || len(b.Prior) == 0 {
		return false
	}
	var rng *ssa.Range
	for _, in := range x.instrs[b.Site] {
		if r, ok := in.(*ssa.Range); ok {
			if _, ok := r.X.Type().Underlying().(*types.Map); ok && rng == nil {
				rng = r
				continue
			}
		}
	}
	if rng == nil || !x.clearLoop(rng) {
		return false
	}
	for _, w := range b.Prior {
		if !x.clearLoopDelete(w.Site) {
			return false
		}
	}
	return true
}

// clearLoopDelete reports whether every instruction writing at site is
// a delete, in a clear loop, of the key the loop came to.
func (x *Index) clearLoopDelete(site string) bool {
	found := false
	for _, in := range x.instrs[site] {
		call, ok := in.(*ssa.Call)
		if !ok {
			if _, ok := in.(*ssa.Store); ok {
				return false
			}
			if _, ok := in.(*ssa.MapUpdate); ok {
				return false
			}
			continue
		}
		bi, ok := call.Call.Value.(*ssa.Builtin)
		if !ok || bi.Name() != "delete" || len(call.Call.Args) != 2 {
			return false
		}
		key, ok := call.Call.Args[1].(*ssa.Extract)
		if !ok {
			return false
		}
		nx, ok := key.Tuple.(*ssa.Next)
		if !ok {
			return false
		}
		rng, ok := nx.Iter.(*ssa.Range)
		if !ok || !x.clearLoop(rng) {
			return false
		}
		found = true
	}
	return found
}

// clearLoop reports whether the loop ranging with rng over a map does
// nothing for a key but delete it from that map (loads, control and
// lock operations aside): no test, no value carried to the next key, no
// return, no other call or write.
func (x *Index) clearLoop(rng *ssa.Range) bool {
	if rng.Referrers() == nil {
		return false
	}
	body, ok := x.rangeBody(rng)
	if !ok {
		return false
	}
	deletes := 0
	fns := map[*ssa.Function]bool{}
	for blk := range body {
		for _, in := range blk.Instrs {
			switch in := in.(type) {
			case *ssa.Return, *ssa.Phi:
				return false
			case *ssa.If:
				if e, ok := in.Cond.(*ssa.Extract); !ok || !isNext(e.Tuple, rng) {
					return false
				}
				continue
			case *ssa.Next:
				continue
			case *ssa.Call:
				if bi, ok := in.Call.Value.(*ssa.Builtin); ok && bi.Name() == "delete" {
					k, ok := in.Call.Args[1].(*ssa.Extract)
					if !ok || k.Index != 1 || !isNext(k.Tuple, rng) || !sameMap(in.Call.Args[0], rng.X) {
						return false
					}
					deletes++
					continue
				}
			}
			if !x.idleCode(in, fns, 0) {
				return false
			}
		}
	}
	return deletes > 0
}
