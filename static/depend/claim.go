package depend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// claimed reports whether a, a comma-ok map lookup that missed, was the
// check of a claim: on the miss the unit inserted the same key into the
// same map itself, holding the lock it looked up under (no Unlock between
// the lookup and the insert), and b, reached only on that miss, writes
// (deletes or stores) that key again. Another unit's write of the map in
// between came after the claim, under the lock, and found the key taken:
// b acts on the unit's own entry, not on the miss. gcache's singleflight
// Do looks the key up, inserts its pending call, unlocks, and its call
// deletes the key when done, while other keys' calls come and go.
func (x *Index) claimed(evs []Event, i, j int, between []int) bool {
	a, b := evs[i], evs[j]
	if !b.Write {
		return false
	}
	for _, k := range between {
		if evs[k].Write && evs[k].Var != a.Var {
			return false
		}
	}
	if b.Var != a.Var {
		return false
	}
	l, acts := x.onMiss(a, b)
	if l == nil {
		return false
	}
	key := unconvert(l.Index)
	claim := false
	for _, m := range missBlocks(l) {
		for _, blk := range l.Parent().Blocks {
			if !m.Dominates(blk) {
				continue
			}
			for _, in := range blk.Instrs {
				if u, ok := in.(*ssa.MapUpdate); ok && unconvert(u.Key) == key && sameMap(u.Map, l.X) && !unlocksBetween(l, u) {
					claim = true
				}
			}
		}
	}
	if !claim {
		return false
	}
	// b writes the claimed key: in the lookup's function, or in the
	// method it calls, which gets the key as an argument.
	c := common(a.Frames, b.Frames)
	for _, in := range acts {
		if len(b.Frames) == c {
			if k := writtenKey(in); k == nil || unconvert(k) != key {
				return false
			}
			continue
		}
		if len(b.Frames) != c+1 {
			return false
		}
		call, ok := in.(ssa.CallInstruction)
		if !ok {
			return false
		}
		g := callee(call)
		args := call.Common().Args
		found := false
		for _, bin := range x.instrs[b.Site] {
			if bin.Parent() != g {
				continue
			}
			k, ok := writtenKey(bin).(*ssa.Parameter)
			if !ok {
				return false
			}
			for p, gp := range g.Params {
				if gp == k && p < len(args) && unconvert(args[p]) == key {
					found = true
				}
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// writtenKey is the key a map write (an insert or a delete) writes, or
// nil.
func writtenKey(in ssa.Instruction) ssa.Value {
	switch in := in.(type) {
	case *ssa.MapUpdate:
		return in.Key
	case ssa.CallInstruction:
		com := in.Common()
		if bi, ok := com.Value.(*ssa.Builtin); ok && bi.Name() == "delete" && len(com.Args) == 2 {
			return unconvert(com.Args[1])
		}
	}
	return nil
}

// sameMap reports whether two map values are loads of one field of one
// base (g.m and g.m again).
func sameMap(u, v ssa.Value) bool {
	if u == v {
		return true
	}
	lu, ok1 := u.(*ssa.UnOp)
	lv, ok2 := v.(*ssa.UnOp)
	if !ok1 || !ok2 || lu.Op != token.MUL || lv.Op != token.MUL {
		return false
	}
	fu, ok1 := lu.X.(*ssa.FieldAddr)
	fv, ok2 := lv.X.(*ssa.FieldAddr)
	return ok1 && ok2 && fu.X == fv.X && fu.Field == fv.Field
}

// unlocksBetween reports whether a call of an Unlock or RUnlock method
// may run on a path from l to u (both in one function): then the insert
// is not in the lookup's critical section.
func unlocksBetween(l ssa.Instruction, u ssa.Instruction) bool {
	return unlocksOn(l, u, false)
}

// unlocksOn is unlocksBetween; byName takes an interface method call for
// an unlock only when the method is named Unlock or RUnlock (a Cache's
// get called under the lock, as gcache's Group.Do does), and a deferred
// call for none (it runs at the return).
func unlocksOn(l ssa.Instruction, u ssa.Instruction, byName bool) bool {
	from, to := l.Block(), u.Block()
	fwd := reach(from, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs })
	back := reach(to, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Preds })
	for blk := range fwd {
		if !back[blk] {
			continue
		}
		// In the lookup's block only after it, in the insert's only
		// before it, unless a loop brings either round again.
		started := blk != from || loops(from)
		stop := blk == to && !loops(to)
		for _, in := range blk.Instrs {
			if in == l {
				started = true
				continue
			}
			if in == u && stop {
				break
			}
			if !started {
				continue
			}
			if call, ok := in.(ssa.CallInstruction); ok {
				if _, ok := call.(*ssa.Defer); ok && byName {
					continue
				}
				if com := call.Common(); byName && com.IsInvoke() {
					if n := com.Method.Name(); n == "Unlock" || n == "RUnlock" {
						return true
					}
					continue
				}
				// A dynamic call may unlock too.
				fn := call.Common().StaticCallee()
				if fn == nil && !isBuiltin(call) || fn != nil && (fn.Name() == "Unlock" || fn.Name() == "RUnlock") {
					return true
				}
			}
		}
	}
	return false
}

func isBuiltin(call ssa.CallInstruction) bool {
	_, ok := call.Common().Value.(*ssa.Builtin)
	return ok
}

// reach is the set of blocks reached from b along next, b included.
func reach(b *ssa.BasicBlock, next func(*ssa.BasicBlock) []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{b: true}
	work := []*ssa.BasicBlock{b}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		for _, n := range next(c) {
			if !seen[n] {
				seen[n] = true
				work = append(work, n)
			}
		}
	}
	return seen
}

// loops reports whether b lies on a cycle.
func loops(b *ssa.BasicBlock) bool {
	for _, s := range b.Succs {
		if reach(s, func(c *ssa.BasicBlock) []*ssa.BasicBlock { return c.Succs })[b] {
			return true
		}
	}
	return false
}
