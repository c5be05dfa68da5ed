package depend

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// wakeRetried reports whether b, the write a's value decided, is a
// broadcast that no waiter can tell from a wake-up it did not need:
//   - b stores a channel made in its function into an unexported channel
//     field (the wake channel), under its receiver's mutex, after loading
//     the field in that critical section, and closes the loaded channel
//     on every path after (swapsFresh); the function does nothing else
//     (pureBroadcast), and its activation began after a, so a decided
//     nothing in it but the broadcast;
//   - every other access of the field in the package is such a swap, a
//     store of a fresh channel into a freshly allocated object (its
//     constructor), or a fetch whose channel is only received from,
//     directly or returned by a getter, in a loop whose receive goes
//     straight back to the loop's head, which carries no value from one
//     round to the next (restarts).
//
// A broadcast run on a stale check then only closes the channel current
// when it runs, which no one else closes (each channel leaves the field
// through one swap, closed by it), and stores one that nobody held. A
// waiter it wakes starts its loop over with what it had on entry, as a
// caller entering the loop at that moment would: an extra wake-up is a
// retry, and no waiter's channel is lost. go-trylock's RUnlock reads the
// reader count 0 and broadcasts; another reader locks and unlocks between
// and broadcasts first (trylock.go:151 asv): both orders close every
// channel a waiter holds, and each woken waiter tries its CAS again.
// A waiter that leaves its loop on the wake-up (it takes the wake-up for
// the condition), counts its rounds, or receives a value; a broadcast
// that does more, stores a channel others hold, or does not close the
// one it replaces; another close or store of the field: stays judged.
//
// b may also run in a's own activation (or one enclosing it), when a's
// value reaches b only through whether b runs: b stores, through a
// parameter of its function, a channel made there with a constant
// capacity (onlyRuns). marusama/semaphore's Release CASes the state and
// then swaps in its own activation (issue 26, semaphore.go:176 asv); a
// waiter's acquire or another Release's CAS and swap between make the
// CAS's value stale at the swap. The swap, whatever state decided it,
// closes the channel current at it and stores one nobody holds, so the
// argument above holds; what else a decides in that activation is
// judged as a pair of its own.
func (x *Index) wakeRetried(a, b Event) bool {
	if !b.Write || len(b.Frames) == 0 {
		return false
	}
	inline := common(a.Frames, b.Frames) >= len(b.Frames)
	g := x.function(b.Frames[len(b.Frames)-1].Site)
	if g == nil {
		return false
	}
	var wait *types.Var
	for _, in := range x.instrs[b.Site] {
		if _, ok := in.(ssa.CallInstruction); ok {
			return false
		}
		st, ok := in.(*ssa.Store)
		if !ok {
			continue
		}
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok || st.Parent() != g || swapsFresh(st) == nil || inline && !onlyRuns(st) {
			return false
		}
		f := fieldOf(fa)
		if wait != nil && f != wait {
			return false
		}
		wait = f
	}
	if wait == nil || wait.Exported() || !isChan(wait.Type()) || !inline && !pureBroadcast(g, wait) {
		return false
	}
	return x.onlyWoken(wait)
}

// onlyRuns reports whether nothing of the swap st but whether it runs can
// carry a value read before it: it stores through a parameter of its
// function (the receiver) a channel made with no capacity or a constant
// one.
func onlyRuns(st *ssa.Store) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	if _, ok := fa.X.(*ssa.Parameter); !ok {
		return false
	}
	mc, ok := st.Val.(*ssa.MakeChan)
	if !ok {
		return false
	}
	_, ok = mc.Size.(*ssa.Const)
	return ok
}

// swapsFresh returns the load of st's field, in the critical section of
// the receiver's mutex in which st stores a channel made in its function
// and used nowhere else, when every path after st closes the loaded
// channel (except where a nil test found it nil) and the loaded channel
// is only closed or compared with nil; else nil.
func swapsFresh(st *ssa.Store) *ssa.UnOp {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	mc, ok := st.Val.(*ssa.MakeChan)
	if !ok || len(*mc.Referrers()) != 1 {
		return nil
	}
	lock := writeLockOf(st, fa.X, nil)
	if lock == nil {
		return nil
	}
	mu := fieldOf(lock.Call.Args[0].(*ssa.FieldAddr))
	for _, blk := range st.Parent().Blocks {
		for _, in := range blk.Instrs {
			old, ok := in.(*ssa.UnOp)
			if !ok || old.Op != token.MUL || !oneVar(old.X, st.Addr) || !before(old, st) || writeLockOf(old, fa.X, mu) != lock {
				continue
			}
			if onlyClosed(old) && closesAfter(st, old) {
				return old
			}
		}
	}
	return nil
}

// onlyClosed reports whether the channel ch is only closed or compared
// with nil.
func onlyClosed(ch ssa.Value) bool {
	for _, r := range *ch.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			bi, ok := r.Call.Value.(*ssa.Builtin)
			if !ok || bi.Name() != "close" {
				return false
			}
		case *ssa.BinOp:
			if !isNilTest(r, ch) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// pureBroadcast reports whether g does nothing but swap wait: it makes
// channels, takes and releases its receiver's mutexes, loads and stores
// wait (every store a swapsFresh), closes, tests for nil, and returns
// nothing.
func pureBroadcast(g *ssa.Function, wait *types.Var) bool {
	if g.Signature.Results().Len() != 0 || len(g.Params) == 0 || g.Signature.Recv() == nil {
		return false
	}
	recv := g.Params[0]
	for _, blk := range g.Blocks {
		for _, in := range blk.Instrs {
			switch in := in.(type) {
			case *ssa.DebugRef, *ssa.MakeChan, *ssa.Jump, *ssa.Return, *ssa.If:
			case *ssa.FieldAddr:
				if in.X != recv {
					return false
				}
			case *ssa.UnOp:
				fa, ok := in.X.(*ssa.FieldAddr)
				if in.Op != token.MUL || !ok || fieldOf(fa) != wait {
					return false
				}
			case *ssa.Store:
				if fa, ok := in.Addr.(*ssa.FieldAddr); !ok || fieldOf(fa) != wait || swapsFresh(in) == nil {
					return false
				}
			case *ssa.BinOp:
				if in.Op != token.EQL && in.Op != token.NEQ || nilCompared(in) == nil {
					return false
				}
			case *ssa.Call:
				if bi, ok := in.Call.Value.(*ssa.Builtin); ok && bi.Name() == "close" {
					continue
				}
				fn := in.Call.StaticCallee()
				if !isSyncMethod(fn, "Mutex", "Lock") && !isSyncMethod(fn, "Mutex", "Unlock") {
					return false
				}
				if fa, ok := in.Call.Args[0].(*ssa.FieldAddr); !ok || fa.X != recv {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// onlyWoken reports whether every access of the channel field wait in the
// package is a swap (swapsFresh: its store, or the load it closes), a
// fresh channel stored into a freshly allocated object, or a load whose
// channel is only received from in a loop that restarts (received), or
// only returned by a getter each of whose calls is such a load; and no
// copy of the struct has the field read from it.
func (x *Index) onlyWoken(wait *types.Var) bool {
	swaps := 0
	for _, fn := range x.all {
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				if f, ok := in.(*ssa.Field); ok && structField(f) == wait {
					return false // read from a copy of the struct
				}
				fa, ok := in.(*ssa.FieldAddr)
				if !ok || fieldOf(fa) != wait {
					continue
				}
				for _, ref := range *fa.Referrers() {
					switch ref := ref.(type) {
					case *ssa.DebugRef:
					case *ssa.Store:
						if ref.Addr != fa {
							return false
						}
						if swapsFresh(ref) != nil {
							swaps++
							continue
						}
						mc, ok := ref.Val.(*ssa.MakeChan)
						if _, fresh := fa.X.(*ssa.Alloc); !ok || !fresh || len(*mc.Referrers()) != 1 {
							return false
						}
					case *ssa.UnOp:
						if ref.Op != token.MUL {
							return false
						}
						if !x.swapLoad(ref) && !x.received(ref, 0) {
							return false
						}
					default:
						return false
					}
				}
			}
		}
	}
	return swaps > 0
}

// swapLoad reports whether the load ld is the one a swap of its
// function closes.
func (x *Index) swapLoad(ld *ssa.UnOp) bool {
	for _, blk := range ld.Parent().Blocks {
		for _, in := range blk.Instrs {
			if st, ok := in.(*ssa.Store); ok && oneVar(st.Addr, ld.X) && swapsFresh(st) == ld {
				return true
			}
		}
	}
	return false
}

// received reports whether the channel v is only received from, the
// value dropped, in a loop that restarts after the receive (restarts),
// or returned by its function, an unexported method or function called
// only statically, whose every call's result is so received.
func (x *Index) received(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 || depth > 2 {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if r.Op != token.ARROW || r.CommaOk || len(*r.Referrers()) > 0 || !restartsAfter(r) {
				return false
			}
		case *ssa.Select:
			if !selectRestarts(r, v) {
				return false
			}
		case *ssa.Return:
			fn := r.Parent()
			if len(r.Results) != 1 || fn.Object() == nil || fn.Object().Exported() || fn.Parent() != nil {
				return false
			}
			if fn.Signature.Recv() != nil && len(x.invokes[fn.Name()]) > 0 {
				return false
			}
			calls := x.calls[fn]
			if len(calls) == 0 || x.valueUsed(fn) {
				return false
			}
			for _, cs := range calls {
				call, ok := cs.in.(*ssa.Call)
				if !ok || !x.received(call, depth+1) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// valueUsed reports whether fn is used other than as the callee of a
// static call: a function value, a method value or expression (a bound
// or thunk wrapper of the same method), or an argument.
func (x *Index) valueUsed(fn *ssa.Function) bool {
	is := func(v ssa.Value) bool {
		f, ok := v.(*ssa.Function)
		return ok && (f == fn || fn.Object() != nil && f.Object() == fn.Object())
	}
	for _, f := range x.all {
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				if c, ok := in.(ssa.CallInstruction); ok {
					com := c.Common()
					if com.Value != ssa.Value(fn) && is(com.Value) {
						return true
					}
					for _, arg := range com.Args {
						if is(arg) {
							return true
						}
					}
					continue
				}
				for _, op := range in.Operands(nil) {
					if op != nil && *op != nil && is(*op) {
						return true
					}
				}
			}
		}
	}
	return false
}

// selectRestarts reports whether every receive from ch in sel drops its
// value and its case restarts the loop (restarts), with no send on ch.
func selectRestarts(sel *ssa.Select, ch ssa.Value) bool {
	found := false
	recv := 0
	for i, s := range sel.States {
		if s.Dir != types.RecvOnly {
			if s.Chan == ch {
				return false
			}
			continue
		}
		if s.Chan == ch {
			if !recvDropped(sel, recv) || !caseRestarts(sel, i) {
				return false
			}
			found = true
		}
		recv++
	}
	return found
}

// recvDropped reports whether the value of sel's n-th receive is unused.
func recvDropped(sel *ssa.Select, n int) bool {
	for _, r := range *sel.Referrers() {
		if e, ok := r.(*ssa.Extract); ok && e.Index == 2+n {
			for _, rr := range *e.Referrers() {
				if _, dbg := rr.(*ssa.DebugRef); !dbg {
					return false
				}
			}
		}
	}
	return true
}

// caseRestarts reports whether the body of sel's case i restarts its
// loop: the test `index == i` on the select's index, whose true branch
// reaches the loop's head through empty blocks.
func caseRestarts(sel *ssa.Select, i int) bool {
	for _, r := range *sel.Referrers() {
		e, ok := r.(*ssa.Extract)
		if !ok || e.Index != 0 {
			continue
		}
		for _, rr := range *e.Referrers() {
			cmp, ok := rr.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL || cmp.X != ssa.Value(e) {
				continue
			}
			c, ok := cmp.Y.(*ssa.Const)
			if !ok || c.Value == nil || !constant.Compare(c.Value, token.EQL, constant.MakeInt64(int64(i))) {
				continue
			}
			for _, u := range *cmp.Referrers() {
				// Case 0's test is in the select's block; go/ssa tests
				// each later case in a block of its own that the
				// previous test's false branch leads to.
				if iff, ok := u.(*ssa.If); ok && sel.Block().Dominates(iff.Block()) {
					return restarts(iff.Block().Succs[0], sel.Block())
				}
			}
		}
	}
	return false
}

// restartsAfter reports whether nothing follows the receive rcv in its
// block but the jump that restarts its loop (restarts).
func restartsAfter(rcv *ssa.UnOp) bool {
	blk := rcv.Block()
	after := false
	for _, in := range blk.Instrs {
		if in == ssa.Instruction(rcv) {
			after = true
			continue
		}
		if !after {
			continue
		}
		switch in.(type) {
		case *ssa.DebugRef:
		case *ssa.Jump:
			return restarts(blk.Succs[0], blk)
		default:
			return false
		}
	}
	return false
}

// restarts reports whether blk, entered after a wake-up in block from,
// reaches through blocks holding only a jump a loop head that dominates
// from and has no phi but one that keeps its own value along every edge
// from inside the loop (keepsOwn): the loop starts over with what it had
// on entry. No store in the loop into a local cell may carry a value
// either.
func restarts(blk, from *ssa.BasicBlock) bool {
	for n := 0; n < 8; n++ {
		if blk.Dominates(from) {
			for _, in := range blk.Instrs {
				if phi, ok := in.(*ssa.Phi); ok && !keepsOwn(phi) {
					return false
				}
			}
			return !localStores(blk)
		}
		if len(blk.Instrs) != 1 || len(blk.Succs) != 1 {
			return false
		}
		if _, ok := blk.Instrs[0].(*ssa.Jump); !ok {
			return false
		}
		blk = blk.Succs[0]
	}
	return false
}

// keepsOwn reports whether the loop head's φ takes itself along every
// edge from a block the head dominates (the loop's back edges): a value
// set before the loop and kept through it, as marusama/semaphore's
// Acquire keeps ctx.Done(), which go/ssa's jump threading makes a φ of
// the loop's head.
func keepsOwn(phi *ssa.Phi) bool {
	head := phi.Block()
	for i, pred := range head.Preds {
		if head.Dominates(pred) && phi.Edges[i] != ssa.Value(phi) {
			return false
		}
	}
	return true
}

// localStores reports whether a block dominated by head stores into a
// local variable of its function that lives in a cell (an Alloc), which
// could carry a value from one round of head's loop to the next.
func localStores(head *ssa.BasicBlock) bool {
	for _, blk := range head.Parent().Blocks {
		if !head.Dominates(blk) {
			continue
		}
		for _, in := range blk.Instrs {
			st, ok := in.(*ssa.Store)
			if !ok {
				continue
			}
			if _, ok := cellRoot(st.Addr).(*ssa.Alloc); ok {
				return true
			}
		}
	}
	return false
}

// cellRoot is the variable an address is a part of: through fields and
// elements to the base.
func cellRoot(v ssa.Value) ssa.Value {
	for {
		switch a := v.(type) {
		case *ssa.FieldAddr:
			v = a.X
		case *ssa.IndexAddr:
			v = a.X
		default:
			return v
		}
	}
}

// structField is the field a Field instruction reads from a struct value.
func structField(f *ssa.Field) *types.Var {
	st, ok := f.X.Type().Underlying().(*types.Struct)
	if !ok || f.Field >= st.NumFields() {
		return nil
	}
	return st.Field(f.Field).Origin()
}

// wokenFetch reports whether a is the fetch of a wake channel whose value
// decides nothing but when its goroutine starts its loop over: a load of
// an unexported channel field for which onlyWoken holds (every store of
// it a swap that closes the channel it replaces, under the receiver's
// write lock, or a constructor's), whose channel is only received from,
// the value dropped, in a loop that restarts after the receive carrying
// nothing (received). marusama/semaphore's Acquire fetches broadcastCh
// under the read lock, re-loads the state, and waits on the channel
// (issue 26, :197 asv-14): a SetLimit's or Release's swap between the
// fetch and the re-load makes the fetched channel stale ("the value read
// at semaphore.go:111 decides the read at semaphore.go:116"). But the
// swap that replaced a stale channel closes it: the receive returns at
// once, or at that close, and the loop starts over with what it had on
// entry, as a caller entering the loop then would; a current channel is
// closed by the next swap, as a serial order's would be. So the fetch's
// value, stale or not, changes no value any later access reads or
// writes; only the time of a retry. A fetch whose channel is kept,
// returned to a caller that does more, or received from in a loop that
// leaves or counts on the wake-up, and a field stored otherwise, stay
// judged (onlyWoken, received).
func (x *Index) wokenFetch(a Event) bool {
	if !a.Read || a.Write {
		return false
	}
	var wait *types.Var
	loads := 0
	for _, in := range x.instrs[a.Site] {
		var fa *ssa.FieldAddr
		switch in := in.(type) {
		case *ssa.DebugRef:
			continue
		case *ssa.FieldAddr:
			fa = in
		case *ssa.UnOp:
			f, ok := in.X.(*ssa.FieldAddr)
			if in.Op != token.MUL || !ok || !x.received(in, 0) {
				return false
			}
			fa = f
			loads++
		default:
			return false
		}
		f := fieldOf(fa)
		if f == nil || wait != nil && f != wait {
			return false
		}
		wait = f
	}
	if loads == 0 || wait == nil || wait.Exported() || !isChan(wait.Type()) {
		return false
	}
	return x.onlyWoken(wait)
}
