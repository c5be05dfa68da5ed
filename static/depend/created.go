package depend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// createdSeen reports whether an inconsistent snapshot's reader (r1 of
// a's variable, then r2 of b's) saw only what its own get-or-create
// would have made: a is the create branch of a get-or-create (getOrCreate)
// that appends a fresh element made from a key v, and returns the last
// element instead when its key equals v; the replay shows the reader's
// goroutine, after a and with no other write of a's variable up to r1
// (Prior), run that function's found branch (its length, test and
// returned element read in that order, Looks), so its own key equals
// the element's and it wrote nothing; and r2's variable was written by
// no one before r2 (Untouched). Then the serial order running the
// reader first is equivalent: its get-or-create appends the same fresh
// element for the same key, it reads that element as made, and the
// writer's get-or-create finds it and writes into it. go-metrics' Data
// calls getInterval before copying the current interval, between
// AddSample's getInterval and its add. A reader whose get-or-create ran
// before a (an older window), or appended an element of its own, or
// read an element something wrote, stays judged: its snapshot is
// neither order's.
func (x *Index) createdSeen(a, r1, r2 Event) bool {
	if r1.Var != a.Var || r2.Var == a.Var || !r2.Untouched || len(r1.Prior) != 1 || r1.Prior[0].Step != a.Step || r1.Prior[0].Site != a.Site {
		return false
	}
	g := x.getOrCreate(a)
	if g == nil || x.inFunc(r1.Site, g.fn) || x.inFunc(r2.Site, g.fn) {
		return false
	}
	for _, fr := range append(r1.Frames, r2.Frames...) {
		if x.function(fr.Site) == g.fn {
			return false
		}
	}
	for _, f := range g.found {
		// The loads of one call run once each (getOrCreate: no loop, no
		// call back into it), so reads at the three sites in order after
		// a are one call's, after a.
		k := 0
		for _, l := range r1.Looks {
			if l.Step > a.Step && k < 3 && x.loadAt(l.Site, f[k]) {
				k++
			}
		}
		if k == 3 {
			return true
		}
	}
	return false
}

// inFunc reports whether an instruction at site is in fn.
func (x *Index) inFunc(site string, fn *ssa.Function) bool {
	for _, in := range x.instrs[site] {
		if in.Parent() == fn {
			return true
		}
	}
	return false
}

// loadAt reports whether site is the load l's, or its address's or a
// direct use's of its value (the trace names an access by one of them),
// and no other load of l's field is there.
func (x *Index) loadAt(site string, l *ssa.UnOp) bool {
	for _, in := range x.instrs[site] {
		if u, ok := in.(*ssa.UnOp); ok && u != l && u.Op == token.MUL && sameVar(u.X, l.X) {
			return false // two loads of the field at one site: which one ran?
		}
	}
	for _, in := range x.instrs[site] {
		if in == ssa.Instruction(l) {
			return true
		}
		if v, ok := l.X.(ssa.Instruction); ok && in == v {
			return true
		}
		if refs := l.Referrers(); refs != nil {
			for _, r := range *refs {
				if r == in {
					return true
				}
			}
		}
	}
	return false
}

// created is a get-or-create function: fn, and for each of its found
// branches the loads of the slice field that its length, its key test
// and its returned element read.
type created struct {
	fn    *ssa.Function
	found [][3]*ssa.UnOp
}

// getOrCreate returns a's function when a appends to a field f the
// result of one call N(v) of a pure maker (made: v stored in a field K of
// a fresh object, the other fields fresh maps, channels or slices), and
// every return of the function returns either that element or the last
// element of f, f[n-1] with n one len(f), on the true branch of a test
// that the same last element's K equals v (==, or time.Time's Equal),
// and one such test, its loads under a Lock held to the append, is the
// one whose miss the append follows.
// The function has no loop, calls nothing but builtins, sync's and
// time's functions and N, and stores only into f and its own locals, so
// its create branch makes the same state from the same key and state.
func (x *Index) getOrCreate(a Event) *created {
	if !a.Write || a.Read {
		return nil
	}
	var fn *ssa.Function
	var st *ssa.Store
	var addr ssa.Value
	var elem *ssa.Call
	for _, in := range x.instrs[a.Site] {
		s, ok := in.(*ssa.Store)
		if !ok {
			continue
		}
		c := appended(s)
		if c == nil || st != nil {
			return nil
		}
		fn, st, addr, elem = s.Parent(), s, s.Addr, c
	}
	if fn == nil || field(addr) == nil || len(elem.Call.Args) != 1 {
		return nil
	}
	n := elem.Call.StaticCallee()
	key := made(n)
	if key < 0 {
		return nil
	}
	v := elem.Call.Args[0]
	if !plainBody(fn, addr, n) {
		return nil
	}
	out, locked := &created{fn: fn}, false
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			ret, ok := in.(*ssa.Return)
			if !ok || b == fn.Recover {
				continue // the recover block: only a deferred recover, none here (plainBody), reaches it
			}
			r := returned(ret)
			if r == nil {
				return nil
			}
			if r == elem {
				continue
			}
			f, test, ok := foundBranch(ret, r, addr, key, v)
			if !ok {
				return nil
			}
			out.found = append(out.found, f)
			// The create runs only when a test under the lock held to
			// the append missed: the state the append extends is the
			// one that test saw.
			locked = locked || test.Succs[1].Dominates(st.Block()) && lockedAt(f[0], st) && lockedAt(f[1], st)
		}
	}
	if len(out.found) == 0 || !locked {
		return nil
	}
	return out
}

// appended returns c when st stores append(*f, c) into f, c a static call.
func appended(st *ssa.Store) *ssa.Call {
	ap, ok := st.Val.(*ssa.Call)
	if !ok || !builtinNamed(ap.Call.Value, "append") || len(ap.Call.Args) != 2 {
		return nil
	}
	if l, ok := ap.Call.Args[0].(*ssa.UnOp); !ok || l.Op != token.MUL || !oneVar(l.X, st.Addr) {
		return nil
	}
	sl, ok := ap.Call.Args[1].(*ssa.Slice)
	if !ok {
		return nil
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok || arr.Comment != "varargs" {
		return nil
	}
	var c *ssa.Call
	for _, r := range *arr.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, u := range *ia.Referrers() {
			s, ok := u.(*ssa.Store)
			if !ok {
				continue
			}
			call, ok := s.Val.(*ssa.Call)
			if !ok || call.Call.StaticCallee() == nil || c != nil {
				return nil
			}
			c = call
		}
	}
	return c
}

// made returns the field index a maker n stores its only parameter into,
// when n allocates one object, stores into its fields only that
// parameter and fresh maps, channels and slices, calls nothing and
// returns the object; else -1.
func made(n *ssa.Function) int {
	if n == nil || n.Blocks == nil || len(n.Params) != 1 || n.Signature.Recv() != nil || len(n.FreeVars) != 0 {
		return -1
	}
	var obj *ssa.Alloc
	key := -1
	for _, b := range n.Blocks {
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Alloc:
				if obj != nil {
					return -1
				}
				obj = in
			case *ssa.FieldAddr, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeSlice, *ssa.DebugRef:
			case *ssa.Store:
				fa, ok := in.Addr.(*ssa.FieldAddr)
				if !ok || fa.X != obj {
					return -1
				}
				switch in.Val.(type) {
				case *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeSlice:
				case *ssa.Parameter:
					if key >= 0 {
						return -1
					}
					key = fa.Field
				default:
					return -1
				}
			case *ssa.Return:
				if len(in.Results) != 1 || in.Results[0] != obj {
					return -1
				}
			default:
				return -1
			}
		}
	}
	if obj == nil || !obj.Heap {
		return -1
	}
	return key
}

// plainBody reports whether fn has no loop, calls only builtins, the
// locks of sync's mutexes, time's value functions (timeValue) and the maker n (nothing that could call fn
// again or write elsewhere), and stores only into the field addr and
// into its own local arrays.
func plainBody(fn *ssa.Function, addr ssa.Value, n *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			if s.Dominates(b) {
				return false // a loop
			}
		}
		for _, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.Go, *ssa.Send, *ssa.MapUpdate, *ssa.Select:
				return false
			case *ssa.Store:
				if oneVar(in.Addr, addr) || ownCell(in.Addr) {
					continue
				}
				ia, ok := in.Addr.(*ssa.IndexAddr)
				if !ok || !ownCell(ia.X) {
					return false
				}
			case ssa.CallInstruction:
				com := in.Common()
				if com.IsInvoke() {
					return false
				}
				if _, ok := com.Value.(*ssa.Builtin); ok {
					continue
				}
				g := com.StaticCallee()
				if g == nil {
					return false
				}
				if g == n {
					continue
				}
				if !isSyncMethod(g, "Mutex", "Lock") && !isSyncMethod(g, "Mutex", "Unlock") && !isSyncMethod(g, "RWMutex", "Lock") && !isSyncMethod(g, "RWMutex", "Unlock") && !isSyncMethod(g, "RWMutex", "RLock") && !isSyncMethod(g, "RWMutex", "RUnlock") && !timeValue(g) {
					return false
				}
			}
		}
	}
	return true
}

// foundBranch returns the loads of f's length, key test and element for
// a return of f[n-1] reached only on the true branch of a test that
// f[n-1]'s field key equals v, both n one len(f).
func foundBranch(ret *ssa.Return, r ssa.Value, addr ssa.Value, key int, v ssa.Value) ([3]*ssa.UnOp, *ssa.BasicBlock, bool) {
	var none [3]*ssa.UnOp
	lr, n, ok := lastElem(r, addr)
	if !ok {
		return none, nil, false
	}
	for _, b := range ret.Parent().Blocks {
		if len(b.Instrs) == 0 || len(b.Succs) != 2 || b.Succs[0] == b.Succs[1] || !b.Succs[0].Dominates(ret.Block()) {
			continue
		}
		iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		var k ssa.Value
		switch c := iff.Cond.(type) {
		case *ssa.BinOp:
			if c.Op != token.EQL {
				continue
			}
			switch v {
			case c.X:
				k = c.Y
			case c.Y:
				k = c.X
			}
		case *ssa.Call:
			g := c.Call.StaticCallee()
			if g == nil || g.Name() != "Equal" || g.Object() == nil || g.Object().Pkg() == nil || g.Object().Pkg().Path() != "time" || len(c.Call.Args) != 2 || c.Call.Args[1] != v {
				continue
			}
			k = c.Call.Args[0]
		}
		kl, ok := k.(*ssa.UnOp)
		if !ok || kl.Op != token.MUL {
			continue
		}
		fa, ok := kl.X.(*ssa.FieldAddr)
		if !ok || fa.Field != key {
			continue
		}
		lt, n2, ok := lastElem(fa.X, addr)
		if ok && n2 == n {
			ln := n.Call.Args[0].(*ssa.UnOp)
			return [3]*ssa.UnOp{ln, lt, lr}, b, true
		}
	}
	return none, nil, false
}

// lastElem returns, for e = *(&(*f)[n-1]) with n = len(*f) (a call of
// the builtin len of a load of f), the load of f e indexes and n.
func lastElem(e ssa.Value, addr ssa.Value) (*ssa.UnOp, *ssa.Call, bool) {
	l, ok := e.(*ssa.UnOp)
	if !ok || l.Op != token.MUL {
		return nil, nil, false
	}
	ia, ok := l.X.(*ssa.IndexAddr)
	if !ok {
		return nil, nil, false
	}
	sl, ok := ia.X.(*ssa.UnOp)
	if !ok || sl.Op != token.MUL || !oneVar(sl.X, addr) {
		return nil, nil, false
	}
	idx, ok := ia.Index.(*ssa.BinOp)
	if !ok || idx.Op != token.SUB {
		return nil, nil, false
	}
	if c, ok := idx.Y.(*ssa.Const); !ok || c.Int64() != 1 {
		return nil, nil, false
	}
	n, ok := idx.X.(*ssa.Call)
	if !ok || !builtinNamed(n.Call.Value, "len") || len(n.Call.Args) != 1 {
		return nil, nil, false
	}
	nl, ok := n.Call.Args[0].(*ssa.UnOp)
	if !ok || nl.Op != token.MUL || !oneVar(nl.X, addr) {
		return nil, nil, false
	}
	return sl, n, true
}

// timeValue reports whether g is one of time's functions that only
// compute a value (no callback, no timer).
func timeValue(g *ssa.Function) bool {
	o := g.Object()
	if o == nil || o.Pkg() == nil || o.Pkg().Path() != "time" {
		return false
	}
	switch g.Name() {
	case "Now", "Truncate", "Round", "Add", "Equal", "Unix", "UnixNano", "UTC":
		return true
	}
	return false
}

// ownCell reports whether v is the function's own cell: a local, or an
// append's varargs array.
func ownCell(v ssa.Value) bool {
	al, ok := v.(*ssa.Alloc)
	return ok && (!al.Heap || al.Comment == "varargs")
}

// returned is the value a return of one result gives back: the result
// itself, or, when it is loaded from a local result cell (a function with
// defers), the value stored into the cell last in the return's block.
func returned(ret *ssa.Return) ssa.Value {
	if len(ret.Results) != 1 {
		return nil
	}
	r := ret.Results[0]
	l, ok := r.(*ssa.UnOp)
	if !ok || l.Op != token.MUL {
		return r
	}
	if al, ok := l.X.(*ssa.Alloc); !ok || al.Heap {
		return r
	}
	ins := ret.Block().Instrs
	for i := len(ins) - 1; i >= 0; i-- {
		if st, ok := ins[i].(*ssa.Store); ok && st.Addr == l.X {
			return st.Val
		}
	}
	return nil
}
