package depend

import (
	"go/constant"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// published reports whether the state a's unit leaves between its writes
// a and b is one it expects other goroutines to see and change: b writes
// only after validating the variable afresh, either
//   - as a compare-and-swap whose expected value is the very value a
//     stored (Caffeine's drain status: Store(processingToIdle), work,
//     then CAS(processingToIdle, idle), which fails when a writer moved
//     the status to processingToRequired meanwhile), or
//   - decided by a read of the variable in b's own activation, entered
//     after a (otter's scheduleAfterWrite CASes idle to required, then
//     scheduleDrainBuffers loads the status again and stores
//     processingToIdle only if it is still below it), or
//   - decided so in an activation enclosing b's, entered after a,
//     directly or through a getter's result (rereadAbove: seaweedfs/raft's
//     candidateLoop, `for s.State() == Candidate`, around its
//     setState(Leader) after followerLoop's setState(Candidate)), or
//   - as a CAS retry loop's CAS, in an activation entered after a,
//     against the value its loop loaded (ctrie's RDCSS: a descriptor
//     CASed in, which any goroutine that reads it completes; the
//     installer's rdcssComplete loads the root again and CASes against
//     it: retriedAfter).
//
// Such a unit is two atomic steps joined by a state it re-checks, not
// one: another goroutine's read between them sees a state the protocol
// publishes, the same as if it ran between two units. A blind second
// write (a lock bit cleared by a plain store) stays judged.
func (x *Index) published(a, b Event) bool {
	return x.casFromStored(a, b) || x.rereadDecides(a, b) || x.rereadAbove(a, b) || x.retriedAfter(a, b)
}

// casFromStored reports whether b is a compare-and-swap whose expected
// value is a value a stores: the same SSA value, or an equal constant.
func (x *Index) casFromStored(a, b Event) bool {
	vals := x.stored(a.Site)
	for _, in := range x.instrs[b.Site] {
		call, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		fn := call.Common().StaticCallee()
		if fn == nil || !isAtomicCAS(fn) || len(call.Common().Args) < 3 {
			continue
		}
		for _, v := range vals {
			if sameValue(call.Common().Args[1], v) {
				return true
			}
		}
	}
	return false
}

// rereadDecides reports whether b's innermost activation, which does not
// hold a (so it began after a in the unit), reads b's variable at another
// site and that value decides whether b runs.
func (x *Index) rereadDecides(a, b Event) bool { return x.rereadDecidesAt(a, b, false) }

// rereadDecidesAt is rereadDecides; unless strict, the instructions at
// b's site that write nothing (the address of a plain store, the load of
// an in-place decrement) are passed over rather than refused.
func (x *Index) rereadDecidesAt(a, b Event, strict bool) bool {
	if len(b.Frames) == 0 || len(a.Frames) == 0 {
		return false
	}
	inner := b.Frames[len(b.Frames)-1]
	for _, f := range a.Frames {
		if f.ID == inner.ID {
			return false
		}
	}
	fn := x.function(inner.Site)
	if fn == nil {
		return false
	}
	sc := x.scope(fn)
	var acts []ssa.Instruction
	var key any
	own := map[ssa.Instruction]bool{}
	for _, in := range x.instrs[b.Site] {
		if !sc.fns[in.Parent()] {
			continue
		}
		own[in] = true
		k := writtenLocation(in)
		if k == nil && !strict {
			if _, ok := in.(*ssa.Store); !ok {
				continue
			}
		}
		if k == nil || key != nil && k != key {
			return false // a write the rule cannot name: no claim
		}
		key = k
		acts = append(acts, in)
	}
	if key == nil {
		return false
	}
	decided := false
	x.decidingReads(sc, own, func(k any) bool { return k == key }, acts, func(ssa.Instruction) bool {
		decided = true
		return false
	})
	return decided
}

// writtenLocation names the variable a write instruction writes, as
// locationOf names a read's: a store through an address, or an atomic
// Store, Swap or CompareAndSwap of it. Else nil.
func writtenLocation(in ssa.Instruction) any {
	var addr ssa.Value
	switch in := in.(type) {
	case *ssa.Store:
		addr = in.Addr
	case *ssa.Call:
		if !isAtomicWrite(in.Common().StaticCallee()) || len(in.Common().Args) == 0 {
			return nil
		}
		addr = in.Common().Args[0]
	default:
		return nil
	}
	return addrLocation(addr)
}

// isAtomicWrite reports whether fn is one of sync/atomic's writes: Store,
// Swap or CompareAndSwap (a function or a method of its types).
func isAtomicWrite(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return false
	}
	n := obj.Name()
	return strings.HasPrefix(n, "Store") || strings.HasPrefix(n, "Swap") || strings.HasPrefix(n, "CompareAndSwap")
}

// stored returns the values the write at site stores: a store's value,
// an atomic Store's or Swap's argument, a compare-and-swap's new value.
func (x *Index) stored(site string) []ssa.Value {
	var out []ssa.Value
	for _, in := range x.instrs[site] {
		switch in := in.(type) {
		case *ssa.Store:
			out = append(out, in.Val)
		case *ssa.Call:
			fn := in.Common().StaticCallee()
			args := in.Common().Args
			switch {
			case fn == nil || !isAtomicWrite(fn):
			case isAtomicCAS(fn) && len(args) == 3:
				out = append(out, args[2])
			case !isAtomicCAS(fn) && len(args) == 2:
				out = append(out, args[1])
			}
		}
	}
	return out
}

// sameValue reports whether u and v are the same value: one SSA value
// (through conversions), or equal constants.
func sameValue(u, v ssa.Value) bool {
	u, v = unconvert(u), unconvert(v)
	if u == v {
		return true
	}
	cu, ok1 := u.(*ssa.Const)
	cv, ok2 := v.(*ssa.Const)
	return ok1 && ok2 && cu.Value != nil && cv.Value != nil && constant.Compare(cu.Value, token.EQL, cv.Value)
}

// checksForOthers reports whether the unit reads back at b a variable it
// set at a to a constant only to compare it with constants: its own
// write would give it a known value, so the read serves only to see
// whether another goroutine wrote meanwhile (otter's maintenance closes
// the drain status with a CAS to idle, then tests Load() != required to
// run again when a writer asked for it). Nothing the unit computes takes
// the other goroutine's value for its own. A compare-and-swap from a
// constant is such a comparison too. A read-back whose value is
// returned, stored or computed with, or a CAS from a value the unit
// read, stays judged.
func (x *Index) checksForOthers(a, b Event) bool {
	vals := x.stored(a.Site)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if _, ok := unconvert(v).(*ssa.Const); !ok {
			return false
		}
	}
	// A compare-and-swap from a constant is that comparison, made
	// atomically: all it yields is whether the variable still held the
	// constant, and it writes only then (palm's reset stores 0, then
	// takes the runner flag back by CAS(0, 1) unless another runner
	// took it meanwhile).
	if exp, cas := x.casExpected(b.Site); cas != nil {
		_, ok := unconvert(exp).(*ssa.Const)
		return ok
	}
	reads := x.reads(b.Site, nil)
	if len(reads) == 0 {
		return false
	}
	for _, r := range reads {
		refs := r.Referrers()
		if refs == nil || len(*refs) == 0 {
			return false
		}
		for _, u := range *refs {
			op, ok := u.(*ssa.BinOp)
			if !ok || op.Op != token.EQL && op.Op != token.NEQ {
				return false
			}
			other := op.X
			if other == r {
				other = op.Y
			}
			if _, ok := other.(*ssa.Const); !ok {
				return false
			}
		}
	}
	return true
}
