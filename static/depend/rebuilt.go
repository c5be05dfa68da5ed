package depend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// rebuilt reports whether b, the unit's write, stores a value computed
// from a fresh read of the very location it writes (Event.Fresh: after
// the other units' events before b, in b's activation, with no other
// write between): a lookup of the same map at the same key, or a load of
// the same variable, in b's function. b then builds on what the others'
// writes left, so it loses none of them, whatever the unit read before.
// go-deadlock's preLock ranges over the held locks (deadlock.go:415),
// another goroutine's postUnlock deletes its record of the lock the unit
// waits for, and the unit's postLock looks that lock's holders up again
// under l.mu (:399) and stores them back with its own appended (:405). A
// fresh read the write does not build on (read and dropped, then a
// reset) saves nothing; nor does one of another key.
func (x *Index) rebuilt(b Event) bool {
	if len(b.Fresh) == 0 {
		return false
	}
	var fresh []ssa.Value
	for _, s := range b.Fresh {
		fresh = append(fresh, x.reads(s, nil)...)
	}
	found := false
	for _, in := range x.instrs[b.Site] {
		var val ssa.Value
		var same func(r ssa.Value) bool
		switch w := in.(type) {
		case *ssa.MapUpdate:
			val = w.Value
			same = func(r ssa.Value) bool {
				l, ok := r.(*ssa.Lookup)
				return ok && sameMap(l.X, w.Map) && unconvert(l.Index) == unconvert(w.Key)
			}
		case *ssa.Store:
			val = w.Val
			same = func(r ssa.Value) bool {
				u, ok := r.(*ssa.UnOp)
				return ok && u.Op == token.MUL && sameAddr(u.X, w.Addr)
			}
		case ssa.CallInstruction:
			// A delete or a call writing the location: no value built.
			return false
		default:
			continue
		}
		ok := false
		for _, r := range fresh {
			if ri, isIn := r.(ssa.Instruction); isIn && ri.Parent() == in.Parent() && same(r) && computedFrom(val, r) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
		found = true
	}
	return found
}
