package depend

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// fetchRechecked reports whether b, a fetch of a wake channel (wokenFetch:
// an unexported channel field every store of which is a swap that closes
// the channel it replaces, or a constructor's; the fetched channel only
// received from, the value dropped, in a loop that restarts carrying
// nothing) that a's value decided, has its channel used only after a
// re-load of a's variable, made after b, found it equal to the value a
// read: a, a load, runs before b in b's function; every use of b's
// channel lies past the "equal" edge of a branch on `r == v` or `r != v`,
// v a's value and r a load of the same variable of the same object in
// the branch's block, after b, and no path from b reaches a use without
// taking that edge.
//
// marusama/semaphore's Acquire (issue 26, semaphore.go:93 asv-11): a
// full state loaded (a), a whole Release between (its CAS and swap), then
// the fetch of the new channel (b): "the value read at :93 decides the
// read at :111". Acquire then loads the state again, `if
// atomic.LoadUint64(&s.state) != state { continue }`, and waits only on
// an equal state. Sound, case by case at the re-load r:
//   - r differs: b's channel is not used at all;
//   - r equals a's value and no swap of the field fell between b and r:
//     a's value and b's channel are what loads at r read, so the round
//     (its reads, the wait that follows) is the one a caller arriving at
//     r runs, as in a serial order; an equal state after changes between
//     (ABA) is such a state too;
//   - r equals a's value and a swap fell between b and r: that swap
//     closes b's channel (onlyWoken: each channel leaves the field
//     through one swap, which closes it), so the receive returns and the
//     loop starts over with what it had on entry: a void round, a retry.
//
// Nothing else of the unit is excused: a write the stale a decides is a
// pair of its own. recheckwait (testdata/src) waits on its fetched
// channel with no re-load: a Release between the load and the fetch
// frees a unit and closes the old channel first, and the waiter waits on
// the new one for ever (a lost wake-up, a real bug), judged here as
// before. So is a re-load before the fetch (a swap can fall between the
// two), one that compares only part of the state (masked), or a channel
// also used when the state differs.
func (x *Index) fetchRechecked(a, b Event) bool {
	if !a.Read || a.Write || !b.Read || b.Write || !x.wokenFetch(b) {
		return false
	}
	found := false
	for _, in := range x.instrs[b.Site] {
		f, ok := in.(*ssa.UnOp)
		if !ok || f.Op != token.MUL {
			continue
		}
		if !x.usedIfSame(a, f) {
			return false
		}
		found = true
	}
	return found
}

// usedIfSame reports whether every use of the channel fetched by f is
// reached from f only through the "equal" edge of a re-check of a's
// value (fetchRechecked).
func (x *Index) usedIfSame(a Event, f *ssa.UnOp) bool {
	var uses []*ssa.BasicBlock
	for _, r := range *f.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return false
			}
			uses = append(uses, r.Block())
		case *ssa.Select:
			uses = append(uses, r.Block())
		default:
			return false // returned by a getter: its uses are elsewhere
		}
	}
	if len(uses) == 0 {
		return false
	}
	for _, v := range x.reads(a.Site, nil) {
		in, ok := v.(ssa.Instruction)
		if !ok || in.Parent() != f.Parent() || !before(in, f) {
			continue
		}
		for _, same := range sameEdges(v, f) {
			guarded := true
			for _, u := range uses {
				// A use in the edge's own block is past it.
				if u != same && reachesAvoiding(f.Block(), u, same) {
					guarded = false
				}
			}
			if guarded {
				return true
			}
		}
	}
	return false
}

// sameEdges returns the blocks entered only on the "equal" edge of a
// branch comparing v, == or !=, with a re-load of v's variable (same
// object, same field) in the branch's block, after f: the successor
// taken on equality, when the branch's block is its only predecessor.
func sameEdges(v ssa.Value, f *ssa.UnOp) []*ssa.BasicBlock {
	addr := loadedAddr(v)
	if addr == nil || v.Referrers() == nil {
		return nil
	}
	var out []*ssa.BasicBlock
	for _, ref := range *v.Referrers() {
		cmp, ok := ref.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			continue
		}
		r := cmp.X
		if r == v {
			r = cmp.Y
		}
		rin, ok := r.(ssa.Instruction)
		if !ok || r == v || rin.Block() != cmp.Block() {
			continue
		}
		if ra := loadedAddr(r); ra == nil || !oneVar(unconvert(ra), unconvert(addr)) {
			continue
		}
		blk := cmp.Block()
		if blk == f.Block() && slices.Index(blk.Instrs, ssa.Instruction(f)) > slices.Index(blk.Instrs, rin) {
			continue // the re-load before the fetch
		}
		for _, u := range *cmp.Referrers() {
			iff, ok := u.(*ssa.If)
			if !ok || iff.Block() != blk {
				continue
			}
			s := blk.Succs[0]
			if cmp.Op == token.NEQ {
				s = blk.Succs[1]
			}
			// Entered from f's own block past the edge, f would come
			// after the re-check.
			if len(s.Preds) == 1 && s != f.Block() {
				out = append(out, s)
			}
		}
	}
	return out
}
