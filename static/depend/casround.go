package depend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// CASRound reports whether the access at casSite is a compare-and-swap
// whose expected value is the very value the load at loadSite read, in
// the same function (casAgainst's shape: a CAS from its own check), and
// whose failure can come back to that load carrying nothing of the
// round: the CAS's result is only tested by branches, some path from a
// failure side reaches the load's block (or a block that re-calls the
// function with its own parameters, unchanged: reCall), and no block
// on such a path, the load's own included, holds a φ. Without a φ no
// value computed in one round lives on into the next (a round counter,
// a value kept from the failed round), so the next round, reached that
// way, starts from the state the failed one started from, except for
// what the round wrote, which check's casRetried sees in the replay.
//
// Other failure paths may leave (go-lock's rTryLock returns false when
// it has no context): which way a run went is the replay's to show.
func (x *Index) CASRound(loadSite, casSite string) bool {
	expected, in := x.casExpected(casSite)
	if in == nil {
		return false
	}
	cas := in.(*ssa.Call)
	e := unconvert(expected)
	var load ssa.Instruction
	for _, v := range x.reads(loadSite, nil) {
		if v == e {
			load, _ = v.(ssa.Instruction)
		}
	}
	if load == nil || load.Parent() != cas.Parent() || cas.Referrers() == nil {
		return false
	}
	fn, target := cas.Parent(), load.Block()
	back := func(b *ssa.BasicBlock) bool { return b == target || reCall(b, fn) }
	var starts []*ssa.BasicBlock
	var tested func(cond ssa.Value, failure int) bool
	tested = func(cond ssa.Value, failure int) bool {
		for _, r := range *cond.Referrers() {
			switch r := r.(type) {
			case *ssa.If:
				starts = append(starts, r.Block().Succs[failure])
			case *ssa.UnOp:
				if r.Op != token.NOT || r.Referrers() == nil || !tested(r, 1-failure) {
					return false
				}
			default:
				return false // the outcome used otherwise (returned, stored)
			}
		}
		return true
	}
	if !tested(cas, 1) || len(starts) == 0 {
		return false
	}
	// onWay: the blocks reachable from a failure side, without passing
	// the load's block or a re-call, that reach one of those.
	reach := map[*ssa.BasicBlock]bool{}
	var walk func(b *ssa.BasicBlock)
	walk = func(b *ssa.BasicBlock) {
		if reach[b] {
			return
		}
		reach[b] = true
		if back(b) {
			return
		}
		for _, s := range b.Succs {
			walk(s)
		}
	}
	for _, s := range starts {
		walk(s)
	}
	onWay := map[*ssa.BasicBlock]bool{}
	for changed := true; changed; {
		changed = false
		for b := range reach {
			if onWay[b] {
				continue
			}
			ok := back(b)
			for _, s := range b.Succs {
				ok = ok || reach[s] && onWay[s] && !back(b)
			}
			if ok {
				onWay[b], changed = true, true
			}
		}
	}
	found := false
	for _, s := range starts {
		found = found || onWay[s]
	}
	if !found {
		return false
	}
	onWay[target] = true
	for b := range onWay {
		for _, in := range b.Instrs {
			if _, ok := in.(*ssa.Phi); ok {
				return false
			}
		}
	}
	return true
}
