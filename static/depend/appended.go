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
	var addr ssa.Value
	for _, in := range x.instrs[a.Site] {
		st, ok := in.(*ssa.Store)
		if !ok {
			continue
		}
		if !selfAppend(st) {
			return false
		}
		addr = st.Addr
	}
	if addr == nil {
		return false
	}
	vals := x.reads(ra.Site, nil)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !indexedOnly(v, addr) {
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
// address, each index computed from nothing that may hold the slice's
// length after the append (independent: `s.x[len(s.x)-1]` loads the
// appended element).
func indexedOnly(v, slice ssa.Value) bool {
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
			if r.X != v || r.Referrers() == nil || !independent(r.Index, slice, map[ssa.Value]bool{}) {
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

// independent reports whether the index i is computed, within its
// function, only from constants, parameters and loads of other variables
// than slice (a field of another name, or another global): no load of
// slice, no call (a len, or a method that reads it), nothing else.
func independent(i, slice ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[i] {
		return true
	}
	seen[i] = true
	switch i := i.(type) {
	case *ssa.Const, *ssa.Parameter:
		return true
	case *ssa.Convert:
		return independent(i.X, slice, seen)
	case *ssa.BinOp:
		return independent(i.X, slice, seen) && independent(i.Y, slice, seen)
	case *ssa.UnOp:
		if i.Op != token.MUL {
			return independent(i.X, slice, seen)
		}
		return otherVar(i.X, slice)
	case *ssa.Phi:
		for _, e := range i.Edges {
			if !independent(e, slice, seen) {
				return false
			}
		}
		return true
	}
	return false
}

// otherVar reports whether the address p is of another variable than
// slice's: a field of another name, or another global.
func otherVar(p, slice ssa.Value) bool {
	switch s := slice.(type) {
	case *ssa.FieldAddr:
		f, ok := p.(*ssa.FieldAddr)
		if !ok {
			_, ok = p.(*ssa.Global)
			return ok
		}
		return f.Field != s.Field || !types.Identical(f.X.Type(), s.X.Type())
	case *ssa.Global:
		switch p := p.(type) {
		case *ssa.FieldAddr:
			return true
		case *ssa.Global:
			return p != s
		}
	}
	return false
}
