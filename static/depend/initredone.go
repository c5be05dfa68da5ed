package depend

import (
	"go/token"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// initRedone reports whether r, another unit's read of a's variable
// between the unit's writes a and b, is a load in the double-checked
// initializer whose publication a is, and read what a stored: the
// reader would have done a's work itself, the same way, had it run
// first. lrita/cmap's getInode (cmap.go:128-144) loads m.inode
// atomically; on nil it takes m.lock, loads it again, and on nil still
// makes an inode of constants and publishes it (cmap.go:140); both
// paths return the inode. Another Store's getInode that finds the
// unit's inode (cmap.go:129) and then takes its bucket's length before
// the unit's insert (cmap.go:256, :257) sees the state after the
// unit's initialization and before its insert: half new, half old.
//
// The shape (initializer): a's site is one store of the variable V (a
// field or global; plain, or an atomic Store) in a function F made
// only of F's double-checked initialization: loads of V (plain or
// atomic, through conversions), their nil tests, a Lock and its
// Unlocks of a mutex that is a global or a field of V's owner, the
// object stored, a fresh allocation (new, a composite literal, make)
// whose fields are set to constants or to fresh allocations of constant
// size, and the phis, jumps and returns. The store is reached only on
// the nil branch of a test of a load of V made under that Lock, held to
// the store (the re-check); every return returns a load of V or the
// made object (a merge of them); nothing but Unlock runs after the
// store. r's loads are all loads of V in F, and the replayed schedule
// (r.Prior) says that the last write of V before r was a.
//
// Why it is sound: before a, V held nil (the unit's re-check under the
// lock said so; a write of V between that re-check and a, by a writer
// that holds no lock, would make the unit's check-then-act an instance
// of its own, judged there), and the schedule shows a as the write r
// read (r.Prior), so r saw a's object and nothing later. Had
// the reader run first, its load at r's site would have read that nil;
// it would have taken the lock, found nil again, made an object of
// the same constants (F reads nothing else: no parameter, no field but
// V) and stored it, and returned it, as it returns a's object now; the
// unit, run second, would have found the reader's object and returned
// it without storing. F does nothing else on either path (no write
// but the store, no call but the lock's). So the reader's view is the
// serial order with the reader first, up to which goroutine's object
// is the one both use: r's value carries nothing the unit did but the
// object's identity, and F's result is the same object for both. What
// the unit put into the object after a (a bucket's map, its keys) is
// other variables, whose reads are judged in their own instances
// (initUnseen: the bucket's lazily made map, cmap.go:172). A reader
// outside F that tests V for nil (it would not make the object),
// an initializer without the re-check under the lock (two callers both
// make an object and the second replaces the first's: a lost
// initialization), one that publishes the object before it sets its
// fields (a half-built object), or one that builds it from a parameter
// or another variable (another caller would make another object) stays
// judged.
func (x *Index) initRedone(a, r Event) bool {
	if !a.Write || a.Read || !r.Read || r.Write || r.Var != a.Var || len(r.Prior) == 0 || r.Prior[len(r.Prior)-1].Step != a.Step {
		return false
	}
	var st ssa.Instruction
	var addr, val ssa.Value
	for _, in := range x.instrs[a.Site] {
		p, v := storeOf(in)
		if p == nil {
			continue
		}
		if st != nil {
			return false
		}
		st, addr, val = in, p, v
	}
	if st == nil {
		return false
	}
	f := st.Parent()
	if !x.doubleInit(f, st, addr, val) {
		return false
	}
	n := 0
	for _, in := range x.instrs[r.Site] {
		v, ok := in.(ssa.Value)
		if !ok {
			continue
		}
		p := loadAddr(v)
		if p == nil {
			continue
		}
		if in.Parent() != f || !oneVar(p, addr) {
			return false
		}
		n++
	}
	return n > 0
}

// storeOf gives the address and value of a store: a plain store, or an
// atomic Store's (not a Swap's or a CAS's: they read too); nil else.
func storeOf(in ssa.Instruction) (addr, val ssa.Value) {
	switch in := in.(type) {
	case *ssa.Store:
		return in.Addr, in.Val
	case *ssa.Call:
		args := in.Common().Args
		if strings.HasPrefix(atomicName(in.Common().StaticCallee()), "Store") && len(args) == 2 {
			return args[0], args[1]
		}
	}
	return nil, nil
}

// loadAddr is the address v loads from: a plain load's, or an atomic
// Load's argument; nil else.
func loadAddr(v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return v.X
		}
	case *ssa.Call:
		args := v.Common().Args
		if strings.HasPrefix(atomicName(v.Common().StaticCallee()), "Load") && len(args) == 1 {
			return args[0]
		}
	}
	return nil
}

// doubleInit reports whether f is only the double-checked initializer
// whose publication st (storing val at addr) is (initRedone's shape).
func (x *Index) doubleInit(f *ssa.Function, st ssa.Instruction, addr, val ssa.Value) bool {
	// Only the receiver, or nothing: nothing a caller passes shapes the
	// object.
	switch _, global := addr.(*ssa.Global); {
	case global && len(f.Params) == 0:
	case !global && f.Signature.Recv() != nil && len(f.Params) == 1 && field(addr) != nil && root(addr) == f.Params[0]:
	default:
		return false
	}
	obj := unconvert(val)
	made := map[ssa.Value]bool{}
	if !madeOfConsts(obj, made) {
		return false
	}
	var loads []ssa.Value
	var tests []*ssa.If
	var lock ssa.Instruction
	for _, blk := range f.Blocks {
		for _, in := range blk.Instrs {
			switch in := in.(type) {
			case *ssa.DebugRef, *ssa.Jump, *ssa.Phi, *ssa.Return, *ssa.RunDefers:
			case *ssa.If:
				tests = append(tests, in)
			case *ssa.Convert, *ssa.ChangeType, *ssa.BinOp:
			case *ssa.FieldAddr:
				if in.X != root(addr) && !made[in.X] {
					return false
				}
			case *ssa.Store:
				if in != st && !made[in.Addr] {
					return false
				}
			case *ssa.Slice:
				if !made[in] {
					return false
				}
			case *ssa.Alloc, *ssa.MakeMap, *ssa.MakeSlice:
				if !made[in.(ssa.Value)] {
					return false
				}
			case *ssa.UnOp:
				if in.Op != token.MUL || !oneVar(in.X, addr) {
					return false
				}
				loads = append(loads, in)
			case *ssa.Call:
				fn := in.Common().StaticCallee()
				switch {
				case in == st:
				case loadAddr(in) != nil && oneVar(loadAddr(in), addr):
					loads = append(loads, in)
				case (isSyncMethod(fn, "Mutex", "Lock") || isSyncMethod(fn, "RWMutex", "Lock")) && lock == nil:
					lock = in
				case isSyncMethod(fn, "Mutex", "Unlock") || isSyncMethod(fn, "RWMutex", "Unlock"):
				default:
					return false
				}
			default:
				return false
			}
		}
	}
	if lock == nil || len(loads) < 2 {
		return false
	}
	// Every test is a nil test of a load of V; the re-check is one made
	// under the lock, its nil branch leading to the store.
	rechecked := false
	for _, iff := range tests {
		cmp, ok := iff.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			return false
		}
		ld := nilTested(cmp)
		if ld == nil || loadAddr(ld) == nil || !oneVar(loadAddr(ld), addr) {
			return false
		}
		then := iff.Block().Succs[0]
		if cmp.Op == token.NEQ {
			then = iff.Block().Succs[1]
		}
		if len(then.Preds) == 1 && then.Dominates(st.Block()) && !unlocksOn(ld.(ssa.Instruction), st, true) && heldLockOf(ld.(ssa.Instruction), root(addr), st) {
			rechecked = true
		}
	}
	if !rechecked {
		return false
	}
	if !returnsLatest(f, st, obj, false) || !returnsLatest(f, st, obj, true) {
		return false
	}
	// Nothing but Unlock after the store: no call, no store from it to
	// the returns.
	after := false
	for _, in := range st.Block().Instrs {
		if in == st {
			after = true
			continue
		}
		if after && !initQuiet(in) {
			return false
		}
	}
	for blk := range reach(st.Block(), func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs }) {
		if blk == st.Block() {
			continue
		}
		for _, in := range blk.Instrs {
			if !initQuiet(in) {
				return false
			}
		}
	}
	return true
}

// initQuiet reports whether in, after the initializer's store, neither
// writes nor calls anything but an Unlock.
func initQuiet(in ssa.Instruction) bool {
	switch in := in.(type) {
	case *ssa.DebugRef, *ssa.Jump, *ssa.Phi, *ssa.Return, *ssa.RunDefers, *ssa.FieldAddr, *ssa.Convert, *ssa.ChangeType:
		return true
	case *ssa.Call:
		fn := in.Common().StaticCallee()
		return isSyncMethod(fn, "Mutex", "Unlock") || isSyncMethod(fn, "RWMutex", "Unlock")
	}
	return false
}

// nilTested is the value cmp compares with nil (its conversions
// stripped), or nil.
func nilTested(cmp *ssa.BinOp) ssa.Value {
	isNil := func(v ssa.Value) bool {
		c, ok := v.(*ssa.Const)
		return ok && c.IsNil()
	}
	for _, p := range [][2]ssa.Value{{cmp.X, cmp.Y}, {cmp.Y, cmp.X}} {
		if isNil(p[1]) {
			return unconvert(p[0])
		}
	}
	return nil
}

// madeOfConsts reports whether v is a fresh allocation (new or a
// composite literal, a map or slice made with constant sizes) whose
// fields are set only to constants or to such allocations, adding it,
// its fields' addresses and its parts to made. Its uses other than
// those stores are left to doubleInit (the store, conversions, phis).
func madeOfConsts(v ssa.Value, made map[ssa.Value]bool) bool {
	switch v := v.(type) {
	case *ssa.Alloc:
		if !v.Heap {
			return false
		}
		made[v] = true
		for _, use := range *v.Referrers() {
			switch use := use.(type) {
			case *ssa.FieldAddr:
				made[use] = true
				for _, u := range *use.Referrers() {
					s, ok := u.(*ssa.Store)
					if !ok || s.Addr != use {
						if _, dbg := u.(*ssa.DebugRef); dbg {
							continue
						}
						return false
					}
					if _, c := s.Val.(*ssa.Const); c {
						continue
					}
					if !madeOfConsts(s.Val, made) {
						return false
					}
				}
			case *ssa.Slice:
				if use.Low != nil || !constOrNil(use.High) || !constOrNil(use.Max) {
					return false
				}
				made[use] = true
			}
		}
		return true
	case *ssa.Slice:
		if v.Low != nil || !constOrNil(v.High) || !constOrNil(v.Max) {
			return false
		}
		made[v] = true
		return madeOfConsts(v.X, made)
	case *ssa.MakeMap:
		made[v] = true
		return v.Reserve == nil || constOrNil(v.Reserve)
	case *ssa.MakeSlice:
		made[v] = true
		return constOrNil(v.Len) && constOrNil(v.Cap)
	}
	return false
}

// constOrNil reports whether v is absent or a constant.
func constOrNil(v ssa.Value) bool {
	if v == nil {
		return true
	}
	_, ok := v.(*ssa.Const)
	return ok
}

// returnsLatest walks f's paths from its entry (f has no loop; at most
// 64 paths), following a phi by the edge the path came in by, and
// reports whether each returns V's value as the path last saw it: the
// last load of V (f's only loads), or obj once st stored it. With fresh,
// it walks only the path that V nil at the start and no other writer
// gives (a nil test of a load goes the nil way until st has stored),
// which must store obj and return it: what a caller that runs alone on
// an uninitialized V does.
func returnsLatest(f *ssa.Function, st ssa.Instruction, obj ssa.Value, fresh bool) bool {
	paths := 0
	var walk func(blk, from *ssa.BasicBlock, env map[ssa.Value]ssa.Value, cur ssa.Value, stored bool, seen map[*ssa.BasicBlock]bool) bool
	walk = func(blk, from *ssa.BasicBlock, env map[ssa.Value]ssa.Value, cur ssa.Value, stored bool, seen map[*ssa.BasicBlock]bool) bool {
		if seen[blk] {
			return false // a loop
		}
		seen = maps.Clone(seen)
		seen[blk] = true
		env = maps.Clone(env)
		resolve := func(v ssa.Value) ssa.Value {
			v = unconvert(v)
			if w, ok := env[v]; ok {
				return w
			}
			return v
		}
		var phis []*ssa.Phi
		for _, in := range blk.Instrs {
			if p, ok := in.(*ssa.Phi); ok {
				phis = append(phis, p)
			}
		}
		if len(phis) > 0 {
			i := slices.Index(blk.Preds, from)
			if i < 0 {
				return false
			}
			got := map[ssa.Value]ssa.Value{}
			for _, p := range phis {
				got[p] = resolve(p.Edges[i])
			}
			maps.Copy(env, got)
		}
		for _, in := range blk.Instrs {
			switch in := in.(type) {
			case *ssa.Return:
				paths++
				if paths > 64 || len(in.Results) != 1 || cur == nil || resolve(in.Results[0]) != cur {
					return false
				}
				return !fresh || stored && cur == obj
			case *ssa.If:
				if !fresh {
					return walk(blk.Succs[0], blk, env, cur, stored, seen) && walk(blk.Succs[1], blk, env, cur, stored, seen)
				}
				cmp := in.Cond.(*ssa.BinOp)             // doubleInit: a nil test
				taken := resolve(nilTested(cmp)) != obj // nil: the true way of ==
				if cmp.Op == token.NEQ {
					taken = !taken
				}
				if taken {
					return walk(blk.Succs[0], blk, env, cur, stored, seen)
				}
				return walk(blk.Succs[1], blk, env, cur, stored, seen)
			case *ssa.Jump:
				return walk(blk.Succs[0], blk, env, cur, stored, seen)
			}
			if in == st {
				cur, stored = obj, true
				continue
			}
			if v, ok := in.(ssa.Value); ok && loadAddr(v) != nil {
				cur = v
				if fresh && stored {
					env[v] = obj
					cur = obj
				}
			}
		}
		return false
	}
	return walk(f.Blocks[0], nil, map[ssa.Value]ssa.Value{}, nil, false, map[*ssa.BasicBlock]bool{})
}
