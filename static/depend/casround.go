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
// on such a path, the load's own included, holds a φ that a round
// changes (one that only keeps, along the edges from the round, the
// value it had: backCarriesNothing). Without one no value computed in
// one round lives on into the next (a round counter,
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
	starts := casBranches(cas, false)
	if starts == nil {
		return false
	}
	return backCarriesNothing(fn, target, starts)
}

// backCarriesNothing reports whether some path from one of starts (the
// edges a round ends by) comes back to target, the load's block, in fn
// (or to a block that re-calls fn unchanged: reCall), and no block on
// any such path, target included, holds a φ that takes a value along
// an edge from the round (one target reaches) other than its own: the
// next round starts from nothing the ended one computed.
func backCarriesNothing(fn *ssa.Function, target *ssa.BasicBlock, starts []*ssa.BasicBlock) bool {
	back := func(b *ssa.BasicBlock) bool { return b == target || reCall(b, fn) }
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
	// A φ there may only keep its value along an edge a round comes
	// back by (from a block the load's block reaches): Acquire's `done`,
	// ctx.Done() taken once before the loop.
	after := map[*ssa.BasicBlock]bool{}
	var from func(b *ssa.BasicBlock)
	from = func(b *ssa.BasicBlock) {
		for _, s := range b.Succs {
			if !after[s] {
				after[s] = true
				from(s)
			}
		}
	}
	from(target)
	for b := range onWay {
		for _, in := range b.Instrs {
			phi, ok := in.(*ssa.Phi)
			if !ok {
				continue
			}
			for i, p := range b.Preds {
				if after[p] && phi.Edges[i] != ssa.Value(phi) {
					return false
				}
			}
		}
	}
	return true
}

// RoundEnd reports whether the access at site ends a round of a loop
// whose rounds start at the load at loadSite and carry nothing into the
// next: a compare-and-swap from that load (CASRound), or a re-load that
// validates it (recheckRound). check's casRetried takes a round ended
// there, that read only and went back to the load, as void.
func (x *Index) RoundEnd(loadSite, site string) bool {
	return x.CASRound(loadSite, site) || x.recheckRound(loadSite, site)
}

// recheckRound reports whether the read at site loads again the variable
// the load at loadSite read, in the same function, and its value is only
// compared, == or !=, with the value loaded at loadSite by a branch,
// whose edges (either one: a round that takes the "same" one and comes
// back reading only is as void) come back to the load carrying nothing
// (backCarriesNothing). marusama/semaphore's Acquire: `state :=
// atomic.LoadUint64(&s.state)`, when full it fetches the broadcast
// channel under a read lock, then `if atomic.LoadUint64(&s.state) !=
// state { continue }`: a re-load that differs is a compare-and-swap that
// failed, without the swap. Whether the round wrote nothing, and came
// back at all, is the replay's trace to show (check's voidRound).
func (x *Index) recheckRound(loadSite, site string) bool {
	found := false
	for _, v := range x.reads(site, nil) {
		in, ok := v.(ssa.Instruction)
		if !ok || in.Block() == nil || v.Referrers() == nil {
			return false
		}
		loc := loadLocation(v)
		if loc == nil {
			return false
		}
		var load ssa.Value
		var starts []*ssa.BasicBlock
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.BinOp:
				if r.Op != token.EQL && r.Op != token.NEQ || load != nil {
					return false
				}
				other := r.X
				if other == v {
					other = r.Y
				}
				if other == v || loadLocation(other) != loc || other.Parent() != v.Parent() {
					return false
				}
				if !x.readAt(loadSite, other) {
					return false
				}
				load = other
				if !branchOnly(r, &starts) {
					return false
				}
			default:
				return false // the re-load's value used otherwise
			}
		}
		if load == nil || len(starts) == 0 {
			return false
		}
		if !backCarriesNothing(v.Parent(), load.(ssa.Instruction).Block(), starts) {
			return false
		}
		found = true
	}
	return found
}

// readAt reports whether v is one of the reads at site.
func (x *Index) readAt(site string, v ssa.Value) bool {
	for _, r := range x.reads(site, nil) {
		if r == v {
			return true
		}
	}
	return false
}

// branchOnly reports whether cond is used only by branches, through
// negations, and adds both edges of each to starts.
func branchOnly(cond ssa.Value, starts *[]*ssa.BasicBlock) bool {
	if cond.Referrers() == nil {
		return false
	}
	for _, r := range *cond.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.If:
			*starts = append(*starts, r.Block().Succs...)
		case *ssa.UnOp:
			if r.Op != token.NOT || !branchOnly(r, starts) {
				return false
			}
		default:
			return false
		}
	}
	return len(*starts) > 0
}
