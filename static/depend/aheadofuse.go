package depend

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// aheadOfUse reports whether b (evs[j]) ran before anything its unit
// did with the value a (evs[i]) read: a is a load, b's instructions are
// in a's basic block after it in a's activation, no instruction of that
// block up to b, b included, uses a's value, and the replay shows b in the same pass
// through the block as a (the unit's steps from a to b, Event.After,
// with no other event of the unit between, do not pass a's site again).
// Then b's running and its operands owe nothing to a's value: a can
// decide b only through a later pass of the loop, and this b is not
// one. lockfree's Michael-Scott Dequeue, `t := q.tail.Load(); h :=
// q.head.Load(); next := h.next.Load(); if h != t {…}` (queue.go:46
// asv, triaged false: an Enqueue's link CAS and tail swing around the
// tail and next loads of one round). A b past a's test, a b in a later
// pass, or an unknown schedule (no steps) stays judged.
func (x *Index) aheadOfUse(evs []Event, i, j int) bool {
	a, b := evs[i], evs[j]
	if !a.Read || a.Write || b.Step <= a.Step || len(a.Frames) == 0 || len(a.Frames) != len(b.Frames) {
		return false
	}
	for k := range a.Frames {
		if a.Frames[k].ID != b.Frames[k].ID {
			return false
		}
	}
	for k := i + 1; k < j; k++ {
		if evs[k].Unit == a.Unit && evs[k].Thread == a.Thread {
			return false // After ends at that event, not at b
		}
	}
	if slices.Contains(a.After, a.Site) {
		return false // came round to a's site: b is in a later pass
	}
	var loads []ssa.Value
	for _, in := range x.instrs[a.Site] {
		switch in := in.(type) {
		case *ssa.Call:
			if strings.HasPrefix(atomicName(in.Common().StaticCallee()), "Load") {
				loads = append(loads, in)
			}
		case *ssa.UnOp:
			if in.Op == token.MUL {
				loads = append(loads, in)
			}
		}
	}
	if len(loads) == 0 {
		return false
	}
	found := false
	for _, v := range loads {
		la := v.(ssa.Instruction)
		blk := la.Block()
		at := slices.Index(blk.Instrs, la)
		for _, ib := range x.instrs[b.Site] {
			if ib.Parent() != la.Parent() {
				continue
			}
			bt := slices.Index(blk.Instrs, ib)
			if ib.Block() != blk || bt <= at {
				return false
			}
			if v.Referrers() == nil {
				return false
			}
			for _, r := range *v.Referrers() {
				if r.Block() == blk && slices.Index(blk.Instrs, r) <= bt {
					return false // used by b or before it
				}
			}
			found = true
		}
	}
	return found
}
