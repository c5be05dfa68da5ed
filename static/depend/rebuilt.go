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
// under l.mu (:399) and stores them back with its own appended (:405).
// Only an append to the fresh value counts (appendsTo), or an add to it
// (shifts: lossyconn's send adds its packets to the pending count it
// looks up again under the lock, timedsender.go:83, after the sender's
// loop took one off): a fresh read the write does not build on (read and
// dropped, then a reset) saves nothing, nor does one of another key, nor
// a value computed from it otherwise.
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
			if ri, isIn := r.(ssa.Instruction); isIn && ri.Parent() == in.Parent() && same(r) && (appendsTo(val, r) || shifts(val, r)) {
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

// appendsTo reports whether v is append(r, ...): the value r read with
// more elements after them, every one of r's kept. r may reach the append
// through a phi whose other edges are empty slices (nil, or s[:0]: a
// pooled slice taken when r was empty). Any other computation from r (a
// delete at an index the unit chose before: jigsaw's RemoveElementAt(0),
// after another goroutine took the element the unit had read) may drop
// what another goroutine wrote.
func appendsTo(v, r ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	if b, isB := call.Call.Value.(*ssa.Builtin); !isB || b.Name() != "append" || len(call.Call.Args) == 0 {
		return false
	}
	return keepsOnly(call.Call.Args[0], r, map[ssa.Value]bool{})
}

// keepsOnly reports whether v is r, or a phi of r and empty slices.
func keepsOnly(v, r ssa.Value, seen map[ssa.Value]bool) bool {
	if v == r {
		return true
	}
	if seen[v] {
		return true
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !keepsOnly(e, r, seen) {
				return false
			}
		}
		return true
	case *ssa.Const:
		return v.IsNil()
	case *ssa.Slice:
		c, ok := v.High.(*ssa.Const)
		return v.Low == nil && ok && c.Value != nil && c.Value.String() == "0"
	}
	return false
}

// shifts reports whether v is r plus or minus another value (r + d,
// d + r, r - d; a compound r += d): one to one in r, so every value
// another goroutine left in r shows in v, and nothing it wrote is lost
// whatever d is. A product, a quotient, a mask or a shift of r may map
// two values of r to one.
func shifts(v, r ssa.Value) bool {
	b, ok := v.(*ssa.BinOp)
	if !ok {
		return false
	}
	switch b.Op {
	case token.ADD:
		return b.X == r || b.Y == r
	case token.SUB:
		return b.X == r
	}
	return false
}
