package depend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// appendedPrefix reports whether a reader that read the state between
// the writer's writes a and b saw there nothing but what it sees just
// before a: a only appends to its slice (every store at a's site is
// `x.f = append(x.f, …)` of the very variable it loads, which changes
// no element below the old length, in place or in the copy a growth
// makes), and the reader's read ra of that slice is used only to load
// elements by index: not its length, capacity or range, not sliced,
// passed, returned, compared or stored. Its read rb of b's variable
// comes before b, and the replay shows no write of either variable
// from a to the reader's read of it but a itself: it read b's
// variable as before a too. An element below the old length
// is the one the reader would load before a; an index at or past it
// would fail Go's bounds check there, a panic of the order with the
// reader first, which the interleaving hides rather than makes.
// seaweedfs/raft's commitInfo reads commitIndex and
// entries[commitIndex-1-startIndex] under one read lock between the
// leader's appendEntry and its setCommitIndex (log.go:542 asv): the
// entry it returns is the last committed one, as before the append. A
// reader that takes the slice's length, as the entries' count beside
// the commit index, sees the appended entry: it stays judged.
func (x *Index) appendedPrefix(a, ra, rb Event) bool {
	if !a.Write || !ra.Read || !rb.Read || ra.Var != a.Var || rb.Var == a.Var || ra.Writes == nil || rb.Writes == nil {
		return false
	}
	for _, w := range ra.Writes {
		if w.Step < ra.Step && w.Step != a.Step {
			return false
		}
	}
	for _, w := range rb.Writes {
		if w.Step < rb.Step {
			return false
		}
	}
	stores := 0
	for _, in := range x.instrs[a.Site] {
		st, ok := in.(*ssa.Store)
		if !ok {
			continue
		}
		if !selfAppend(st) {
			return false
		}
		stores++
	}
	if stores == 0 {
		return false
	}
	vals := x.reads(ra.Site, nil)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !indexedOnly(v) {
			return false
		}
	}
	return true
}

// selfAppend reports whether st stores append(*addr, …) into addr.
func selfAppend(st *ssa.Store) bool {
	call, ok := st.Val.(*ssa.Call)
	if !ok {
		return false
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" || len(call.Call.Args) == 0 {
		return false
	}
	load, ok := call.Call.Args[0].(*ssa.UnOp)
	return ok && load.Op == token.MUL && sameAddr(load.X, st.Addr)
}

// indexedOnly reports whether v, a slice, is used only as the base of
// element loads: v[i], read and nothing else done with the element's
// address.
func indexedOnly(v ssa.Value) bool {
	if _, ok := v.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	used := false
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.IndexAddr:
			if r.X != v || r.Referrers() == nil {
				return false
			}
			for _, u := range *r.Referrers() {
				switch u := u.(type) {
				case *ssa.DebugRef:
				case *ssa.UnOp:
					if u.Op != token.MUL {
						return false
					}
					used = true
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return used
}
