package depend

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// completionWait reports whether a, a lock-free read of a flag, decides
// only a wait on a completion channel that b reads under a lock, in a way
// that makes the unit behave as if the flag's writer ran first
// (go-datastructures' Selectable: GetResult loads filled, and if 0 does
// <-f.wchan(), whose wchan reads f.wait under f.m, making a channel when
// nil; Fill, under f.m, sets filled, stores the package's closed channel
// into wait and closes the channel it replaced). It holds when
//   - a loads an unexported field (the flag) in the activation b's method
//     g is called from, and b loads an unexported channel field (the
//     wait channel) in g;
//   - g is a wait getter (waitGetter): every access of the field in g is
//     of its receiver's, under its receiver's mutex; its loads are only
//     compared with nil or returned, its only store a channel made right
//     there when a nil check under that lock found nil;
//   - every call of g in a's activation only receives from the result,
//     dropping the value (a wait, no send, no store);
//   - every write of the flag anywhere in the package is in a critical
//     section of the same mutex field, of the same object, that also
//     replaces the wait channel (finalizes), and every store of the wait
//     channel is the lazy make above or such a replacement: a load of
//     the channel field, then a store of a package-level channel closed
//     before any other code runs (closedGlobal), and the loaded channel
//     closed on every path on which it is not nil.
//
// The stale flag then matters only when the writer's critical section
// falls between a and b: g finds the closed channel (non-nil, so it makes
// none) and the receive returns at once. The unit has read one channel
// field and waited on nothing, as if it had seen the flag set; what it
// reads after the receive is ordered after the writer by the close. A
// slow path that sends on, appends to or stores the channel, a writer
// that stores a fresh channel or does not close the one it replaces, or
// a package channel that is never closed, stays judged: there the stale
// flag makes the unit act on state the writer finalized (an item sent
// to a queue nobody drains), or wait forever.
func (x *Index) completionWait(a, b Event) bool {
	if !a.Read || !b.Read || b.Write || a.Var == b.Var {
		return false
	}
	c := common(a.Frames, b.Frames)
	if c == 0 || len(a.Frames) != c || len(b.Frames) != c+1 {
		return false
	}
	shared, g := x.function(a.Frames[c-1].Site), x.function(b.Frames[c].Site)
	if shared == nil || g == nil {
		return false
	}
	var flag *types.Var
	for _, in := range x.instrs[a.Site] {
		v, ok := in.(ssa.Value)
		if !ok || in.Parent() != shared {
			continue
		}
		f := loadedField(v)
		if f == nil {
			continue // the load's address, not its value
		}
		if flag != nil && f != flag {
			return false
		}
		flag = f
	}
	var wait *types.Var
	for _, in := range x.instrs[b.Site] {
		u, ok := in.(*ssa.UnOp)
		if !ok || u.Op != token.MUL || in.Parent() != g {
			continue
		}
		f := field(u.X)
		if f == nil || wait != nil && f.Origin() != wait {
			return false
		}
		wait = f.Origin()
	}
	if flag == nil || wait == nil || flag == wait || flag.Exported() || wait.Exported() || !isChan(wait.Type()) {
		return false
	}
	mu := waitGetter(g, wait)
	if mu == nil {
		return false
	}
	calls := directCalls(shared, g)
	if len(calls) == 0 {
		return false
	}
	for _, call := range calls {
		if !onlyReceived(call) {
			return false
		}
	}
	return x.finalizes(flag, wait, mu)
}

func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// waitGetter returns the mutex field under which g, a method returning
// one channel, reads its receiver's field wait, compares it with nil or
// returns it, and stores into it only a channel made there when it found
// it nil (nilChecked); else nil.
func waitGetter(g *ssa.Function, wait *types.Var) *types.Var {
	if len(g.Params) == 0 || g.Signature.Recv() == nil || g.Signature.Results().Len() != 1 {
		return nil
	}
	recv := g.Params[0]
	var mu *types.Var
	held := func(in ssa.Instruction) bool {
		m := lockHeld(in, recv)
		if m == nil || mu != nil && m != mu {
			return false
		}
		mu = m
		return true
	}
	n := 0
	for _, blk := range g.Blocks {
		for _, in := range blk.Instrs {
			fa, ok := in.(*ssa.FieldAddr)
			if !ok || fieldOf(fa) != wait {
				continue
			}
			if fa.X != recv {
				return nil
			}
			for _, ref := range *fa.Referrers() {
				switch ref := ref.(type) {
				case *ssa.DebugRef:
				case *ssa.UnOp:
					if ref.Op != token.MUL || !held(ref) || !comparedOrReturned(ref) {
						return nil
					}
					n++
				case *ssa.Store:
					mc, ok := ref.Val.(*ssa.MakeChan)
					if !ok || ref.Addr != fa || len(*mc.Referrers()) != 1 || !nilChecked(ref) || !held(ref) {
						return nil
					}
				default:
					return nil
				}
			}
		}
	}
	if n == 0 {
		return nil
	}
	return mu
}

// comparedOrReturned reports whether the loaded channel u is only
// compared with nil or returned.
func comparedOrReturned(u *ssa.UnOp) bool {
	for _, r := range *u.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef, *ssa.Return:
		case *ssa.ChangeType: // to the result's receive-only type
			for _, rr := range *r.Referrers() {
				if _, ok := rr.(*ssa.Return); !ok {
					return false
				}
			}
		case *ssa.BinOp:
			if (r.Op != token.EQL && r.Op != token.NEQ) || nilCompared(r) != u {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// lockHeld returns the field of base holding a sync.Mutex whose Lock
// comes before in on every path with no Unlock possible between; else
// nil.
func lockHeld(in ssa.Instruction, base ssa.Value) *types.Var {
	if call := lockOf(in, base, nil); call != nil {
		return fieldOf(call.Call.Args[0].(*ssa.FieldAddr))
	}
	return nil
}

// onlyReceived reports whether the channel call returns is only received
// from, the value received dropped.
func onlyReceived(call *ssa.Call) bool {
	refs := call.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		u, ok := r.(*ssa.UnOp)
		if !ok || u.Op != token.ARROW || u.CommaOk {
			return false
		}
		if rr := u.Referrers(); rr != nil && len(*rr) > 0 {
			return false
		}
	}
	return true
}

// finalizes reports whether every write of flag in the package is in a
// critical section of mu (of the same object) that replaces wait by a
// closed channel (replacesClosed), and every other store of wait is the
// lazy make under a nil check; the fields' addresses go nowhere else.
func (x *Index) finalizes(flag, wait, mu *types.Var) bool {
	writes := 0
	for _, fn := range x.all {
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				fa, ok := in.(*ssa.FieldAddr)
				if !ok || fieldOf(fa) != flag && fieldOf(fa) != wait {
					continue
				}
				for _, ref := range *fa.Referrers() {
					var write ssa.Instruction
					switch ref := ref.(type) {
					case *ssa.DebugRef:
						continue
					case *ssa.UnOp:
						if ref.Op != token.MUL {
							return false
						}
						continue
					case *ssa.Store:
						if ref.Addr != fa {
							return false
						}
						write = ref
					case *ssa.Call:
						args := ref.Call.Args
						name := atomicName(ref.Call.StaticCallee())
						if name == "" || len(args) == 0 || args[0] != fa {
							return false
						}
						if strings.HasPrefix(name, "Load") {
							continue
						}
						write = ref
					default:
						return false
					}
					if fieldOf(fa) == wait {
						st, ok := write.(*ssa.Store)
						if !ok {
							return false
						}
						if mc, ok := st.Val.(*ssa.MakeChan); ok && len(*mc.Referrers()) == 1 && nilChecked(st) {
							continue
						}
						if x.replacesClosed(st, mu) == nil {
							return false
						}
						continue
					}
					lock := lockOf(write, fa.X, mu)
					if lock == nil || !x.sectionReplaces(lock, fa.X, wait, mu) {
						return false
					}
					writes++
				}
			}
		}
	}
	return writes > 0
}

// lockOf returns the Lock call of base's mutex field mu (nil: any) that
// is held at in (before it on every path, no Unlock between), or nil.
func lockOf(in ssa.Instruction, base ssa.Value, mu *types.Var) *ssa.Call {
	return lockOfKind(in, base, mu, false)
}

// writeLockOf is lockOf, taking an RWMutex's write lock as well: it
// excludes every other holder, readers too, as a Mutex's Lock does
// (marusama/semaphore's swaps of broadcastCh hold the RWMutex its
// Acquire read-locks: swapsFresh).
func writeLockOf(in ssa.Instruction, base ssa.Value, mu *types.Var) *ssa.Call {
	return lockOfKind(in, base, mu, true)
}

func lockOfKind(in ssa.Instruction, base ssa.Value, mu *types.Var, rw bool) *ssa.Call {
	for _, blk := range in.Parent().Blocks {
		if !blk.Dominates(in.Block()) {
			continue
		}
		for _, l := range blk.Instrs {
			if l == in {
				break
			}
			call, ok := l.(*ssa.Call)
			if !ok || len(call.Call.Args) != 1 {
				continue
			}
			if fn := call.Call.StaticCallee(); !isSyncMethod(fn, "Mutex", "Lock") && !(rw && isSyncMethod(fn, "RWMutex", "Lock")) {
				continue
			}
			fa, ok := call.Call.Args[0].(*ssa.FieldAddr)
			if ok && fa.X == base && (mu == nil || fieldOf(fa) == mu) && !unlocksOn(call, in, true) {
				return call
			}
		}
	}
	return nil
}

// sectionReplaces reports whether the critical section lock begins
// holds a store into base's wait that replaces it by a closed channel.
func (x *Index) sectionReplaces(lock *ssa.Call, base ssa.Value, wait, mu *types.Var) bool {
	for _, blk := range lock.Parent().Blocks {
		for _, in := range blk.Instrs {
			st, ok := in.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || fa.X != base || fieldOf(fa) != wait {
				continue
			}
			if l := x.replacesClosed(st, mu); l == lock {
				return true
			}
		}
	}
	return false
}

// replacesClosed returns the Lock call of the critical section (of the
// mutex field mu of the same object) in which st stores a closed package
// channel (closedGlobal) into a channel field, after loading the field in
// that section, and closes the loaded channel on every path on which it
// is not nil; else nil.
func (x *Index) replacesClosed(st *ssa.Store, mu *types.Var) *ssa.Call {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	val, ok := st.Val.(*ssa.UnOp)
	if !ok || val.Op != token.MUL {
		return nil
	}
	glob, ok := val.X.(*ssa.Global)
	if !ok || !x.closedGlobal(glob) {
		return nil
	}
	lock := lockOf(st, fa.X, mu)
	if lock == nil {
		return nil
	}
	for _, blk := range st.Parent().Blocks {
		for _, in := range blk.Instrs {
			old, ok := in.(*ssa.UnOp)
			if !ok || old.Op != token.MUL || !oneVar(old.X, st.Addr) || !before(old, st) || lockOf(old, fa.X, mu) != lock {
				continue
			}
			if closesAfter(st, old) {
				return lock
			}
		}
	}
	return nil
}

// closesAfter reports whether every path from st to the function's end
// closes ch, except where a nil test of ch found it nil.
func closesAfter(st ssa.Instruction, ch ssa.Value) bool {
	closes := func(in ssa.Instruction) bool {
		call, ok := in.(*ssa.Call)
		if !ok {
			return false
		}
		bi, ok := call.Call.Value.(*ssa.Builtin)
		return ok && bi.Name() == "close" && len(call.Call.Args) == 1 && call.Call.Args[0] == ch
	}
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(blk *ssa.BasicBlock, from int) bool
	walk = func(blk *ssa.BasicBlock, from int) bool {
		for _, in := range blk.Instrs[from:] {
			if closes(in) {
				return true
			}
		}
		if len(blk.Succs) == 0 {
			return false
		}
		succs := blk.Succs
		if iff, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If); ok {
			if cmp, ok := iff.Cond.(*ssa.BinOp); ok && len(succs) == 2 && isNilTest(cmp, ch) {
				// Only the branch on which ch is not nil.
				if cmp.Op == token.NEQ {
					succs = succs[:1]
				} else {
					succs = succs[1:]
				}
			}
		}
		for _, s := range succs {
			if seen[s] {
				continue // a loop round: judged on its way out
			}
			seen[s] = true
			if !walk(s, 0) {
				return false
			}
		}
		return true
	}
	blk := st.Block()
	i := 0
	for i < len(blk.Instrs) && blk.Instrs[i] != st {
		i++
	}
	return walk(blk, i)
}

// isNilTest reports whether cmp compares v with nil.
func isNilTest(cmp *ssa.BinOp, v ssa.Value) bool {
	if cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return false
	}
	isNil := func(w ssa.Value) bool {
		c, ok := w.(*ssa.Const)
		return ok && c.IsNil()
	}
	return cmp.X == v && isNil(cmp.Y) || cmp.Y == v && isNil(cmp.X)
}

// closedGlobal reports whether g is an unexported package channel that
// is closed before any code outside its package's initialization runs:
// its only store is a channel made in the package initializer, and an
// init function of its package closes it on every path; the rest of
// the package only reads it.
func (x *Index) closedGlobal(g *ssa.Global) bool {
	if g.Object() == nil || g.Object().Exported() {
		return false
	}
	if p, ok := g.Type().(*types.Pointer); !ok || !isChan(p.Elem()) {
		return false
	}
	made, closed := 0, false
	for _, fn := range x.all {
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				switch in := in.(type) {
				case *ssa.Store:
					if in.Val == ssa.Value(g) {
						return false
					}
					if in.Addr != g {
						continue
					}
					mc, ok := in.Val.(*ssa.MakeChan)
					if !ok || fn.Synthetic == "" || fn.Name() != "init" || fn.Pkg != g.Pkg || len(*mc.Referrers()) != 1 {
						return false
					}
					made++
				case *ssa.UnOp:
					if in.X != g || in.Op != token.MUL {
						continue
					}
					if fn.Pkg == g.Pkg && strings.HasPrefix(fn.Name(), "init#") && fn.Parent() == nil && closedUnconditionally(in) {
						closed = true
					}
				default:
					for _, op := range in.Operands(nil) {
						if *op == ssa.Value(g) {
							return false // its address taken otherwise
						}
					}
				}
			}
		}
	}
	return made == 1 && closed
}

// closedUnconditionally reports whether ch is closed by a call that runs
// on every path through its function.
func closedUnconditionally(ch *ssa.UnOp) bool {
	fn := ch.Parent()
	for _, r := range *ch.Referrers() {
		call, ok := r.(*ssa.Call)
		if !ok {
			continue
		}
		bi, ok := call.Call.Value.(*ssa.Builtin)
		if !ok || bi.Name() != "close" {
			continue
		}
		all := true
		for _, blk := range fn.Blocks {
			if len(blk.Instrs) > 0 {
				if _, ret := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ret && !call.Block().Dominates(blk) {
					all = false
				}
			}
		}
		if all {
			return true
		}
	}
	return false
}
