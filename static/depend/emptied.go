package depend

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// testsEmpty reports whether the unit appended at least one element to
// a slice at a and reads it back at b only to compare its length with 0:
// its own append would leave the slice non-empty, so the comparison's
// outcome is known and the read serves only to see whether another
// goroutine took the elements meanwhile (benbjohnson/clock's Timer
// appends the new timer, then runNextTimer returns when the list is
// empty: another goroutine's Add had fired and removed it). As with
// checksForOthers, nothing the unit computes takes the other goroutine's
// value for its own. A read-back whose elements or length are used
// otherwise (an index taken as the unit's own entry's), or an append of
// a slice that may be empty (append(s, xs...)), stays judged.
func (x *Index) testsEmpty(a, b Event) bool {
	vals := x.stored(a.Site)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !appendsSome(v) {
			return false
		}
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
			call, ok := u.(*ssa.Call)
			if !ok || !builtinNamed(call.Call.Value, "len") {
				return false
			}
			lrefs := call.Referrers()
			if lrefs == nil || len(*lrefs) == 0 {
				return false
			}
			for _, lu := range *lrefs {
				op, ok := lu.(*ssa.BinOp)
				if !ok {
					return false
				}
				other := op.X
				if other == ssa.Value(call) {
					other = op.Y
				}
				c, ok := other.(*ssa.Const)
				if !ok || c.Value == nil || c.Value.Kind() != constant.Int || constant.Sign(c.Value) != 0 {
					return false
				}
			}
		}
	}
	return true
}

// appendsSome reports whether v is append(s, e1, …, en) with n ≥ 1
// elements listed: its result is never empty.
func appendsSome(v ssa.Value) bool {
	call, ok := unconvert(v).(*ssa.Call)
	if !ok || !builtinNamed(call.Call.Value, "append") || len(call.Call.Args) != 2 {
		return false
	}
	// The listed elements are stored into a fresh array, sliced whole.
	sl, ok := call.Call.Args[1].(*ssa.Slice)
	if !ok || sl.Low != nil || sl.High != nil || sl.Max != nil {
		return false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	ptr, ok := alloc.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	arr, ok := ptr.Elem().Underlying().(*types.Array)
	return ok && arr.Len() >= 1
}

// builtinNamed reports whether v is the built-in function name.
func builtinNamed(v ssa.Value, name string) bool {
	b, ok := v.(*ssa.Builtin)
	return ok && b.Name() == name
}
