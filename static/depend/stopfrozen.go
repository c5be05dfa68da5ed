package depend

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// stopFrozen reports whether a, a unit's read of a stop flag on its fast
// path, is stale at b, its later read of a structure, only because a
// stopper set the flag and then emptied the structure under a lock,
// after which the structure stays empty: every write that can grow it,
// anywhere in the program, runs in a critical section of that lock and
// only after a read of the flag there found it unset. ants's Submit
// checks IsClosed (ants.go:380), Release CASes the state to CLOSED and
// resets the worker stack under p.lock (worker_stack.go:102), then
// Submit's retrieveWorker reads the stack under p.lock
// (worker_stack.go:39): it finds it empty, as it stays, and starts a
// worker for the task, which re-checks IsClosed under p.lock before it
// puts itself back (revertWorker, ants.go:562) and ends instead. The
// unit's act on the structure after a stop is a no-op, and nothing that
// the stale "open" lets it put there can outlive the stop: the check is
// a fast path, not the structure's guard.
//
// It holds when
//   - a is a plain read of a flag (a field, plain or atomic, read
//     directly or through a getter), b a plain read of a slice field;
//   - every other unit's write of the flag between, and every other
//     goroutine's write of it the schedule shows over the pattern
//     (Event.Writes), stores one constant c, the stop, and a's value
//     on c only leaves, doing nothing (stopsOn);
//   - between a and b another unit, after its write of the flag,
//     empties the slice (stores nil or s[:0]) under a write lock L,
//     and every other write of the slice between, or shown over the
//     pattern after that emptying, only shortens it (a slice of itself
//     bounded by its own length);
//   - every store to the slice field in the program that is not such a
//     shortening or an emptying (an append: a grow) is reached only
//     past a read of the flag, under L held since before that read,
//     that found it other than c, in the store's function or, for every
//     call leading to it, in the caller's (a call on an object its
//     caller allocated itself, a test's fixture, grows no shared
//     structure).
//
// A Submit that appends its task to a queue its Close has drained (no
// re-check under the lock), a worker that puts itself back without the
// re-check (ants before its issue 113: the worker leaks), a stopper that
// empties the structure without the lock or before it sets the flag,
// and a stop that only shortens the structure stay judged.
func (x *Index) stopFrozen(evs []Event, i, j int, between []int) bool {
	a, b := evs[i], evs[j]
	if a.Var == b.Var || !a.Read || a.Write || !b.Read || b.Write {
		return false
	}
	key := x.flagKey(a.Site)
	if key == nil {
		return false
	}
	y, ok := x.flagKey(b.Site).(*types.Var)
	if !ok {
		return false
	}
	if _, ok := y.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	// The stop: what every other write of the flag stores.
	stop := &oneStop{x: x}
	stores := stop.stores
	flagWritten := map[int]bool{} // the threads that wrote the flag so far
	drained := -1                 // the step of the emptying
	var locks map[*types.Var]bool
	for _, k := range between {
		e := evs[k]
		switch {
		case !e.Write:
		case e.Var == a.Var:
			if !stores(e.Site) {
				return false
			}
			flagWritten[e.Thread] = true
		case e.Var == b.Var:
			switch x.sliceStore(e.Site, y) {
			case sliceEmptied:
				l := x.lockedAt(e)
				if len(l) == 0 || !flagWritten[e.Thread] || locks != nil {
					return false
				}
				locks, drained = l, e.Step
			case sliceShortened:
			default:
				return false
			}
		}
	}
	for _, w := range a.Writes {
		if !stores(w.Site) {
			return false
		}
	}
	c := stop.c
	if c == nil || locks == nil {
		return false
	}
	for _, w := range b.Writes {
		if w.Step > drained && x.sliceStore(w.Site, y) == sliceGrown {
			return false
		}
	}
	if !x.stopsOn(a, key, c.Value) {
		return false
	}
	// Every grow of the slice re-checks the flag under the lock.
	for _, fn := range x.all {
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				st, ok := in.(*ssa.Store)
				if !ok {
					continue
				}
				f, obj := addrField(st.Addr)
				if f != y || shrinks(st, y) != sliceGrown {
					continue
				}
				if unpublished(obj, st) {
					continue // a composite literal's: the object is new
				}
				if !x.recheckedAt(st, key, c.Value, locks, 0) {
					return false
				}
			}
		}
	}
	return true
}

// What a store to a slice field does to its length.
const (
	sliceGrown = iota
	sliceShortened
	sliceEmptied
)

// sliceStore says what every store at site to field y does: empties it,
// shortens it, or may grow it (sliceGrown, also for no store there).
func (x *Index) sliceStore(site string, y *types.Var) int {
	out, found := sliceEmptied, false
	for _, in := range x.instrs[site] {
		st, ok := in.(*ssa.Store)
		if !ok {
			continue
		}
		if f, _ := addrField(st.Addr); f != y {
			if ia, ok := st.Addr.(*ssa.IndexAddr); ok && loadOf(ia.X, y) {
				// An element within the length: the length stays.
				found, out = true, min(out, sliceShortened)
				continue
			}
			return sliceGrown
		}
		found = true
		out = min(out, shrinks(st, y))
	}
	if !found {
		return sliceGrown
	}
	return out
}

// shrinks says what st, a store to field y, does to its length: nil or
// the field's own value sliced to 0 empties it; the field's own value
// sliced to no more than its length (s[lo:], s[:len(s)-k], s[:copy(s,
// …)], s[:n] with n a call of a method returning len(s)) shortens it;
// anything else may grow it.
func shrinks(st *ssa.Store, y *types.Var) int {
	if k, ok := unconvert(st.Val).(*ssa.Const); ok && k.IsNil() {
		return sliceEmptied
	}
	sl, ok := st.Val.(*ssa.Slice)
	if !ok || sl.Max != nil {
		return sliceGrown
	}
	ld, ok := sl.X.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return sliceGrown
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	sfa, ok2 := st.Addr.(*ssa.FieldAddr)
	if !ok || !ok2 || fieldOf(fa) != y || fa.X != sfa.X {
		return sliceGrown
	}
	if k, ok := sl.High.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.Int && constant.Sign(k.Value) == 0 {
		return sliceEmptied
	}
	if sl.High == nil || withinLen(sl.High, fa.X, y, 0) {
		return sliceShortened
	}
	return sliceGrown
}

// withinLen reports whether v is at most the length of field y of obj:
// len of a load of it, a method of obj returning that, a copy into it,
// or one of those less a non-negative constant.
func withinLen(v, obj ssa.Value, y *types.Var, depth int) bool {
	if depth > 3 {
		return false
	}
	isY := func(s ssa.Value) bool {
		if sl, ok := s.(*ssa.Slice); ok && sl.Low == nil {
			s = sl.X
		}
		ld, ok := s.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return false
		}
		fa, ok := ld.X.(*ssa.FieldAddr)
		return ok && fieldOf(fa) == y && fa.X == obj
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		k, ok := v.Y.(*ssa.Const)
		return v.Op == token.SUB && ok && k.Value != nil && k.Value.Kind() == constant.Int && constant.Sign(k.Value) >= 0 && withinLen(v.X, obj, y, depth+1)
	case *ssa.Call:
		com := v.Common()
		if bi, ok := com.Value.(*ssa.Builtin); ok {
			switch bi.Name() {
			case "len":
				return len(com.Args) == 1 && isY(com.Args[0])
			case "copy":
				return len(com.Args) == 2 && isY(com.Args[0])
			}
			return false
		}
		g := com.StaticCallee()
		if g == nil || g.Blocks == nil || len(com.Args) == 0 || com.Args[0] != obj || len(g.Params) == 0 {
			return false
		}
		recv := g.Params[0]
		return eachReturn(g, func(r ssa.Value, _ *ssa.Return) bool { return withinLen(r, recv, y, depth+1) })
	}
	return false
}

// lockedAt returns the lock fields that e, a write, ran under: in one
// of its activations, every instruction leading to it comes after a
// Lock of each (a sync.Mutex or RWMutex's write lock, or a
// sync.Locker's) with no Unlock of it between; nil when there are none.
func (x *Index) lockedAt(e Event) map[*types.Var]bool {
	for c := len(e.Frames); c >= 0; c-- {
		var sc *scope
		if c > 0 {
			fn := x.function(e.Frames[c-1].Site)
			if fn == nil {
				return nil
			}
			sc = x.scope(fn)
		} else if len(e.Frames) > 0 {
			break
		}
		var held map[*types.Var]bool
		for n, in := range x.leadsTo(e, c, sc) {
			h := locksHeld(in)
			if n == 0 {
				held = h
				continue
			}
			for f := range held {
				if !h[f] {
					delete(held, f)
				}
			}
		}
		if len(held) > 0 {
			return held
		}
	}
	return nil
}

// locksHeld returns the lock fields whose Lock, in in's function, comes
// before in on every path (dominates it) with no Unlock of it on a path
// from the Lock to in.
func locksHeld(in ssa.Instruction) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	for _, blk := range in.Parent().Blocks {
		for _, i := range blk.Instrs {
			if call, ok := i.(*ssa.Call); ok {
				if f, op := lockOp(call); op == "Lock" && before(call, in) && lockedThrough(call, in, f) {
					out[f] = true
				}
			}
		}
	}
	return out
}

// lockOp returns the field a call locks or unlocks, and which ("Lock" or
// "Unlock"): a method of a sync.Mutex or RWMutex field, or an interface
// call (a sync.Locker field). Read locks are neither.
func lockOp(call *ssa.Call) (*types.Var, string) {
	com := call.Common()
	var name string
	var recv ssa.Value
	if com.IsInvoke() {
		name, recv = com.Method.Name(), com.Value
		ld, ok := recv.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return nil, ""
		}
		recv = ld.X
	} else {
		g := com.StaticCallee()
		if g == nil || g.Pkg == nil || g.Pkg.Pkg.Path() != "sync" || g.Signature.Recv() == nil || len(com.Args) == 0 {
			return nil, ""
		}
		t := g.Signature.Recv().Type().String()
		if t != "*sync.Mutex" && t != "*sync.RWMutex" {
			return nil, ""
		}
		name, recv = g.Name(), com.Args[0]
	}
	if name != "Lock" && name != "Unlock" {
		return nil, ""
	}
	fa, ok := recv.(*ssa.FieldAddr)
	if !ok {
		return nil, ""
	}
	f := fieldOf(fa)
	if f == nil {
		return nil, ""
	}
	return f, name
}

// recheckedAt reports whether in, a grow of the structure, runs only
// past a read of the flag key, under lock held since before it, that
// found it other than c: in in's function, or, for every call leading
// to that function (static, or through an interface by the method's
// name), at the call in its caller; a call on an object its caller
// allocated itself is left out, and a function no call leads to is not
// rechecked.
func (x *Index) recheckedAt(in ssa.Instruction, key any, c constant.Value, locks map[*types.Var]bool, depth int) bool {
	fn := in.Parent()
	if x.flagGuards(in, key, c, locks) {
		return true
	}
	if depth > 4 {
		return false
	}
	var sites []callSite
	sites = append(sites, x.calls[fn]...)
	if fn.Signature.Recv() != nil {
		for _, cs := range x.invokes[fn.Name()] {
			if calls(cs.in, fn) {
				sites = append(sites, cs)
			}
		}
	}
	n := 0
	for _, cs := range sites {
		if com := cs.in.Common(); len(com.Args) > 0 && !com.IsInvoke() && fn.Signature.Recv() != nil && madeHere(com.Args[0], 3) || com.IsInvoke() && madeHere(com.Value, 3) {
			continue
		}
		if _, ok := cs.in.(*ssa.Call); !ok {
			return false // a go or defer statement: it runs later
		}
		if !x.recheckedAt(cs.in, key, c, locks, depth+1) {
			return false
		}
		n++
	}
	return n > 0
}

// madeHere reports whether v is an object the function made: a heap
// allocation, or a call (depth levels deep) whose every return is one,
// nil, or one in an interface.
func madeHere(v ssa.Value, depth int) bool {
	switch v := v.(type) {
	case *ssa.Alloc:
		return v.Heap
	case *ssa.MakeInterface:
		return madeHere(v.X, depth)
	case *ssa.Const:
		return v.IsNil()
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		if fn == nil || fn.Blocks == nil || depth == 0 {
			return false
		}
		return eachReturn(fn, func(r ssa.Value, _ *ssa.Return) bool { return madeHere(r, depth-1) })
	}
	return false
}

// flagGuards reports whether in, in its function, runs only past a
// branch on a read of the flag key (a load, or a getter's call) taken
// under lock, held from before the read to in, on the arm for values
// other than c: the branch dominates in, is on no cycle, and its arm
// for c never reaches in.
func (x *Index) flagGuards(in ssa.Instruction, key any, c constant.Value, locks map[*types.Var]bool) bool {
	fn := in.Parent()
	held := locksHeld(in)
	own := map[*ssa.Function]bool{fn: true}
	sc := &scope{root: fn, fns: own, own: own}
	vals := x.flagLoads(sc, key, c)
	for v, k := range vals {
		vi, ok := v.(ssa.Instruction)
		if !ok {
			continue
		}
		under := false
		for l := range locksHeld(vi) {
			under = under || locks[l] && held[l] && lockedThrough(vi, in, l)
		}
		if !under {
			continue
		}
		for _, br := range flagBranches(v, k) {
			blk := br.Block()
			taken, other := blk.Succs[0], blk.Succs[1]
			if !constant.BoolVal(br.k) {
				taken, other = other, taken
			}
			if onCycle(blk) || !blk.Dominates(in.Block()) || reachesAvoiding(taken, in.Block(), nil) || !reachesAvoiding(other, in.Block(), blk) {
				continue
			}
			return true
		}
	}
	return false
}

// lockedThrough reports whether no Unlock of lock lies on a path from r
// to in.
func lockedThrough(r, in ssa.Instruction, lock *types.Var) bool {
	for _, blk := range in.Parent().Blocks {
		for _, i := range blk.Instrs {
			if call, ok := i.(*ssa.Call); ok {
				if f, op := lockOp(call); f == lock && op == "Unlock" && reaches(r, call) && reaches(call, in) {
					return false
				}
			}
		}
	}
	return true
}

// flagBranch is an If on a value computed from the flag, with the value
// the condition has when the flag holds the stop.
type flagBranch struct {
	*ssa.If
	k constant.Value
}

// flagBranches returns the Ifs that v, the flag's value (k when it holds
// the stop), decides through negations, comparisons with constants and
// type changes.
func flagBranches(v ssa.Value, k constant.Value) []flagBranch {
	var out []flagBranch
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, k constant.Value, depth int)
	walk = func(v ssa.Value, k constant.Value, depth int) {
		if seen[v] || depth > 4 || k == nil || v.Referrers() == nil {
			return
		}
		seen[v] = true
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.If:
				if k.Kind() == constant.Bool {
					out = append(out, flagBranch{r, k})
				}
			case *ssa.UnOp:
				if r.Op == token.NOT && k.Kind() == constant.Bool {
					walk(r, constant.MakeBool(!constant.BoolVal(k)), depth+1)
				}
			case *ssa.ChangeType:
				walk(r, k, depth+1)
			case *ssa.BinOp:
				other, ok := r.Y.(*ssa.Const)
				left := r.X == v
				if !left {
					other, ok = r.X.(*ssa.Const)
				}
				if !ok || other.Value == nil || r.X == r.Y {
					continue
				}
				switch r.Op {
				case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				default:
					continue
				}
				if left {
					walk(r, constant.MakeBool(constant.Compare(k, r.Op, other.Value)), depth+1)
				} else {
					walk(r, constant.MakeBool(constant.Compare(other.Value, r.Op, k)), depth+1)
				}
			}
		}
	}
	walk(v, k, 0)
	return out
}

// loadOf reports whether v is a load of field y.
func loadOf(v ssa.Value, y *types.Var) bool {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	return ok && fieldOf(fa) == y
}

// unpublished reports whether obj is an allocation in st's block that
// nothing between it and st, a store to one of its fields, can have
// handed on: no call, spawn, send, or store of obj (a composite
// literal's field).
func unpublished(obj ssa.Value, st *ssa.Store) bool {
	al, ok := obj.(*ssa.Alloc)
	if !ok || al.Block() != st.Block() {
		return false
	}
	in := false
	for _, i := range st.Block().Instrs {
		switch {
		case i == al:
			in = true
			continue
		case i == st:
			return in
		case !in:
			continue
		}
		switch i := i.(type) {
		case ssa.CallInstruction, *ssa.Send, *ssa.MapUpdate:
			return false
		case *ssa.Store:
			if i.Val == al {
				return false
			}
		}
	}
	return false
}
