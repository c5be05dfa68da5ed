package depend

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// VoidLoad reports whether the load at site starts rounds that a replay
// can show void (check's voidRounds fills Event.Void from the trace):
// the load is in a loop of a method (whose activation the trace's region
// markers bound), its block L is the loop's only entry (it dominates
// every block of the cycles through it), everything in L before the
// load computes from values the loop does not change (no load, no call,
// no φ that takes a value from a round), and nothing on those cycles
// writes or synchronizes but a sync/atomic call, which the trace records
// (a load, or a CAS that failed, is a read there; one that swapped, a
// write), or calls a function that only reads (readOnly) or yields.
// A goroutine whose trace shows, from such a load up to its next load
// at the site in the same activation, only reads then came back to the
// load with the locals it had and having changed nothing anyone sees:
// those steps can be taken out of the run, which stays a run, with the
// other goroutines reading what they read. What it read there, stale or
// not, decides nothing. lockfree's Michael-Scott Enqueue: `for { t :=
// q.tail.Load(); tn := t.next.Load(); if tn == nil { if
// t.next.CompareAndSwap(tn, e) {…; return true} } else {
// q.tail.CompareAndSwap(t, tn) } }`, a round with a stale tail whose
// link CAS, or helping swing, fails.
func (x *Index) VoidLoad(site string) bool {
	found := false
	for _, in := range x.instrs[site] {
		if !isLoad(in) {
			continue
		}
		if !voidLoop(in) {
			return false
		}
		found = true
	}
	return found
}

// InVoidLoop reports whether an instruction at site is on a cycle
// through the block of a load that VoidLoad accepts: the only sites whose
// events voidRounds need look at in the trace.
func (x *Index) InVoidLoop(site string) bool {
	for _, in := range x.instrs[site] {
		blk := in.Block()
		if blk == nil {
			continue
		}
		for d := blk; d != nil; d = d.Idom() {
			if !slices.Contains(loopCycle(d), blk) {
				continue
			}
			for _, l := range d.Instrs {
				if isLoad(l) && voidLoop(l) {
					return true
				}
			}
		}
	}
	return false
}

// isLoad reports whether in is a sync/atomic Load or a plain load.
func isLoad(in ssa.Instruction) bool {
	switch in := in.(type) {
	case *ssa.Call:
		return strings.HasPrefix(atomicName(in.Common().StaticCallee()), "Load")
	case *ssa.UnOp:
		return in.Op == token.MUL
	}
	return false
}

// voidLoop is VoidLoad's static part for one load.
func voidLoop(load ssa.Instruction) bool {
	fn, blk := load.Parent(), load.Block()
	if fn == nil || blk == nil || fn.Parent() != nil || fn.Signature.Recv() == nil {
		return false // a closure or a function: no region marks its activation
	}
	cycle := loopCycle(blk)
	if len(cycle) == 0 {
		return false
	}
	for _, b := range cycle {
		if !blk.Dominates(b) {
			return false // entered elsewhere too
		}
		for _, in := range b.Instrs {
			if !voidable(in) {
				return false
			}
		}
	}
	for _, in := range blk.Instrs {
		if in == load {
			break
		}
		switch in := in.(type) {
		case *ssa.Phi:
			for i, p := range blk.Preds {
				if slices.Contains(cycle, p) && in.Edges[i] != ssa.Value(in) {
					return false // a round's value carried into the next
				}
			}
		case *ssa.Call:
			return false
		case *ssa.UnOp:
			if in.Op == token.MUL || in.Op == token.ARROW {
				return false
			}
		}
	}
	return true
}

// loopCycle returns the blocks on a path from blk back to blk, blk
// included; nil when there is none.
func loopCycle(blk *ssa.BasicBlock) []*ssa.BasicBlock {
	reach := func(next func(*ssa.BasicBlock) []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
		seen := map[*ssa.BasicBlock]bool{}
		work := []*ssa.BasicBlock{blk}
		for len(work) > 0 {
			u := work[len(work)-1]
			work = work[:len(work)-1]
			for _, s := range next(u) {
				if !seen[s] {
					seen[s] = true
					work = append(work, s)
				}
			}
		}
		return seen
	}
	fwd := reach(func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs })
	if !fwd[blk] {
		return nil
	}
	bwd := reach(func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Preds })
	var out []*ssa.BasicBlock
	for _, b := range blk.Parent().Blocks {
		if fwd[b] && bwd[b] {
			out = append(out, b)
		}
	}
	return out
}

// voidable reports whether in, on a void round's cycle, either leaves
// nothing changed or, run, shows in the trace as a write: a quiet
// instruction, any sync/atomic call, len or cap, or a call of a
// function that only reads or yields. A plain store is not recorded
// when its variable does not escape, so none may be there.
func voidable(in ssa.Instruction) bool {
	if quiet(in) {
		return true
	}
	call, ok := in.(*ssa.Call)
	if !ok {
		return false
	}
	if b, ok := call.Common().Value.(*ssa.Builtin); ok {
		return b.Name() == "len" || b.Name() == "cap"
	}
	fn := call.Common().StaticCallee()
	return fn != nil && (atomicName(fn) != "" || yields(fn) || readOnly(fn, 3))
}
