package depend

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// stopFlag reports whether a and b, the unit's events i and j, are
// accesses of a stop flag that the other units' writes between only set
// to its stopping value: miekg/dns's Server.started, which Shutdown
// clears (server.go:418) to end serveUDP's loop, which checks it at its
// head and on a read error (isStarted, :272), and which readUDP checks to
// skip setting a read deadline (:712). The unit's own read-back of its
// start (:388, then :272) or its second read of the flag in a round (:272,
// then :712) sees the stop where the stopper meant it to be seen: a serve
// loop cut short by its stopper is no unit that a serial order holds
// (serially ActivateAndServe never returns), and every read of the flag
// is a place the loop is written to stop at.
//
// It holds when
//   - a and b access one variable, b is a plain read, a a plain read or a
//     write of a constant;
//   - every other unit's write of the variable between them (and every
//     other goroutine's write the replayed schedule shows over the
//     pattern, Event.Writes) stores one constant c, the stop, which a's
//     write does not;
//   - each read's value, followed through the results of the activations
//     it ran in, only decides branches, and each branch's arm for c either
//     leaves, never to come back, and returns with no work on the way (no
//     call, store or send), or skips work: it goes straight to a block the
//     other arm joins, with no value merged there; what an activation
//     that left returns is only returned above it;
//   - b (and a, when a read) runs in a loop of the unit, on a cycle
//     through a branch on the flag that leaves on c: the unit is that
//     loop.
//
// A check-then-act on the flag stays judged: b a write (a second start
// taking the flag another start took), b another variable (an append
// after the stopper's clear), a read whose value for c does work, is
// kept or handed on, a writer of both values, a stop outside any loop
// (a one-shot method that checks twice and drops what it took).
func (x *Index) stopFlag(evs []Event, i, j int, between []int) bool {
	a, b := evs[i], evs[j]
	if a.Var != b.Var || !b.Read || b.Write || a.Read == a.Write {
		return false
	}
	key := x.flagKey(b.Site)
	if key == nil || a.Read && x.flagKey(a.Site) != key {
		return false
	}
	// The stop: what every other write between stores.
	stop := &oneStop{x: x}
	stores := stop.stores
	for _, k := range between {
		if e := evs[k]; e.Write && e.Var == a.Var && !stores(e.Site) {
			return false
		}
	}
	for _, e := range []Event{a, b} {
		if e.Read {
			for _, w := range e.Writes {
				if !stores(w.Site) {
					return false
				}
			}
		}
	}
	c := stop.c
	if c == nil {
		return false
	}
	if a.Write {
		if k := x.constStored(a.Site); k == nil || sameConst(c, k) {
			return false
		}
	}
	for _, e := range []Event{a, b} {
		if e.Read && (!x.stopsOn(e, key, c.Value) || !x.inStopLoop(e, key, c.Value)) {
			return false
		}
	}
	return true
}

// flagKey identifies the variable read at site: a struct field (plain, or
// through sync/atomic) or a package variable; nil for anything else.
func (x *Index) flagKey(site string) any {
	var key any
	for _, v := range x.reads(site, nil) {
		k := varOf(v)
		if k == nil || key != nil && k != key {
			return nil
		}
		key = k
	}
	return key
}

// varOf returns the field or global that the load v reads, or nil.
func varOf(v ssa.Value) any {
	var addr ssa.Value
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return nil
		}
		addr = v.X
	case *ssa.Call:
		fn := v.Common().StaticCallee()
		if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync/atomic" || len(v.Common().Args) == 0 {
			return nil
		}
		if o := fn.Origin(); o != nil {
			fn = o
		}
		if n := fn.Name(); len(n) < 4 || n[:4] != "Load" {
			return nil
		}
		addr = v.Common().Args[0]
	default:
		return nil
	}
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		if f := field(a); f != nil {
			return f
		}
	case *ssa.Global:
		return a
	}
	return nil
}

// flagLoads returns the loads of key in sc, and the calls there of
// methods that return its value unchanged or negated (a getter under a
// read lock, isStarted), each with its value when the flag holds c.
func (x *Index) flagLoads(sc *scope, key any, c constant.Value) map[ssa.Value]constant.Value {
	out := map[ssa.Value]constant.Value{}
	getters := map[*ssa.Function]constant.Value{}
	for fn := range sc.fns {
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				v, ok := in.(ssa.Value)
				if !ok {
					continue
				}
				if varOf(v) == key {
					out[v] = c
					continue
				}
				call, ok := in.(*ssa.Call)
				if !ok {
					continue
				}
				g := callee(call)
				if g == nil || !x.frame[g] || g == fn {
					continue
				}
				r, seen := getters[g]
				if !seen {
					r = x.getterOf(g, key, c)
					getters[g] = r
				}
				if r != nil {
					out[v] = r
				}
			}
		}
	}
	return out
}

// getterOf returns what g returns when key holds c, if g returns the
// flag's value (or a value computed from it alone) on every path, and
// does nothing else with it; nil otherwise.
func (x *Index) getterOf(g *ssa.Function, key any, c constant.Value) constant.Value {
	if g.Signature.Results().Len() != 1 {
		return nil
	}
	seeds := map[ssa.Value]constant.Value{}
	for _, blk := range g.Blocks {
		for _, in := range blk.Instrs {
			if v, ok := in.(ssa.Value); ok && varOf(v) == key {
				seeds[v] = c
			}
		}
	}
	if len(seeds) == 0 {
		return nil
	}
	own := map[*ssa.Function]bool{g: true}
	sc := &scope{root: g, fns: own, own: own}
	u := x.followFlag(sc, seeds)
	if !u.ok || u.exits || u.result == nil {
		return nil
	}
	return u.result
}

// flagUse is what a flag's value does in one activation.
type flagUse struct {
	ok     bool              // only branches that leave or skip, and returns
	result constant.Value    // the activation returns this (a getter)
	exits  bool              // a branch leaves to return
	leaves []*ssa.BasicBlock // the blocks of the branches that leave
	gone   []*ssa.BasicBlock // and the arms they leave by
}

// followFlag follows the values vals (each a constant the flag gives) in
// sc: through negations, comparisons with constants and type changes,
// into branches and returns. It goes on past a use it cannot take (ok
// false), to find every branch that leaves (inStopLoop).
func (x *Index) followFlag(sc *scope, vals map[ssa.Value]constant.Value) flagUse {
	u := flagUse{ok: true}
	work := make([]ssa.Value, 0, len(vals))
	for v := range vals {
		work = append(work, v)
	}
	set := func(v ssa.Value, k constant.Value) {
		if k == nil || k.Kind() == constant.Unknown {
			u.ok = false
			return
		}
		if _, ok := vals[v]; !ok {
			vals[v] = k
			work = append(work, v)
		}
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		k := vals[v]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if !sc.fns[r.Parent()] {
				continue
			}
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.UnOp:
				if r.Op != token.NOT || k.Kind() != constant.Bool {
					u.ok = false
					break
				}
				set(r, constant.MakeBool(!constant.BoolVal(k)))
			case *ssa.ChangeType:
				set(r, k)
			case *ssa.BinOp:
				other, ok := r.Y.(*ssa.Const)
				left := r.X == v
				if !left {
					other, ok = r.X.(*ssa.Const)
				}
				if !ok || other.Value == nil || r.X == r.Y {
					u.ok = false
					break
				}
				switch r.Op {
				case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				default:
					u.ok = false
				}
				if !u.ok {
					break
				}
				if left {
					set(r, constant.MakeBool(constant.Compare(k, r.Op, other.Value)))
				} else {
					set(r, constant.MakeBool(constant.Compare(other.Value, r.Op, k)))
				}
			case *ssa.If:
				if k.Kind() != constant.Bool {
					u.ok = false
					break
				}
				blk := r.Block()
				taken, other := blk.Succs[0], blk.Succs[1]
				if !constant.BoolVal(k) {
					taken, other = other, taken
				}
				switch {
				case blk.Parent() == sc.root && leaves(blk, taken):
					u.exits = true
					u.leaves = append(u.leaves, blk)
					u.gone = append(u.gone, taken)
				case skips(blk, taken, other):
				default:
					u.ok = false
				}
			case *ssa.Return:
				if r.Parent() != sc.root || len(r.Results) != 1 || u.result != nil && constant.Compare(u.result, token.NEQ, k) {
					u.ok = false
					break
				}
				u.result = k
			default:
				u.ok = false
			}
		}
	}
	if u.ok && u.result != nil {
		// A getter: every return yields the flag's value.
		for _, blk := range sc.root.Blocks {
			if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok {
				if _, ok := vals[ret.Results[0]]; !ok {
					u.ok = false
				}
			}
		}
		u.ok = u.ok && !u.exits
	}
	return u
}

// leaves reports whether the arm taken out of blk leaves for good: it
// never comes back to blk, and only returns, with nothing on the way
// that calls, stores or sends (the loop's stop: serveUDP's `return nil`
// after its loop, or on a read error once stopped, where the other arm
// returns the error).
func leaves(blk, taken *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{taken}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		if u == blk {
			return false
		}
		if seen[u] {
			continue
		}
		seen[u] = true
		for _, in := range u.Instrs {
			if !unseen(in) {
				return false
			}
		}
		work = append(work, u.Succs...)
	}
	return true
}

// unseen reports whether in does nothing others can see: no call, send,
// spawn or store but to a local; a return, a jump, a branch, the deferred
// calls' run (the cleanup every exit of the function does) and pure
// values.
func unseen(in ssa.Instruction) bool {
	switch in := in.(type) {
	case *ssa.Jump, *ssa.If, *ssa.Return, *ssa.RunDefers, *ssa.DebugRef, *ssa.Phi,
		*ssa.BinOp, *ssa.Extract, *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface,
		*ssa.ChangeInterface, *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Field, *ssa.Index, *ssa.Slice, *ssa.TypeAssert:
		return true
	case *ssa.UnOp:
		return in.Op != token.ARROW
	case *ssa.Store:
		// The result kept in a local for the deferred calls (`*t1 =
		// nil:error` before rundefers).
		return local(in.Addr) != nil
	}
	return false
}

// skips reports whether the arm taken out of blk skips the other arm's
// work: the other arm reaches taken without coming back through blk, and
// taken merges no value by which way it was entered.
func skips(blk, taken, other *ssa.BasicBlock) bool {
	if taken == other || taken == blk {
		return false
	}
	for _, in := range taken.Instrs {
		if _, ok := in.(*ssa.Phi); ok {
			return false
		}
	}
	return reachesAvoiding(other, taken, blk)
}

// reachesAvoiding reports whether to can be reached from from (from
// itself included) without passing through avoid.
func reachesAvoiding(from, to, avoid *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		if u == to {
			return true
		}
		if seen[u] || u == avoid {
			continue
		}
		seen[u] = true
		work = append(work, u.Succs...)
	}
	return false
}

// stopsOn reports whether the value e read, when it is c, only leaves or
// skips (followFlag), in e's activation and those above it that its
// value reaches through results; an activation whose branch left on it
// hands its result only to returns above.
func (x *Index) stopsOn(e Event, key any, c constant.Value) bool {
	inner := x.enclosing(e)
	if inner == nil || len(e.Frames) == 0 {
		return false
	}
	sc := x.scope(inner)
	vals := map[ssa.Value]constant.Value{}
	for _, v := range x.reads(e.Site, sc) {
		if varOf(v) != key {
			return false
		}
		vals[v] = c
	}
	if len(vals) == 0 {
		return false
	}
	fn := inner
	for i := len(e.Frames) - 1; ; i-- {
		u := x.followFlag(sc, vals)
		if !u.ok {
			return false
		}
		if u.result == nil && !u.exits {
			return true // nothing returned depends on it
		}
		if i < 1 {
			return true // the unit's result
		}
		parent := x.function(e.Frames[i-1].Site)
		if parent == nil {
			return false
		}
		up := x.scope(parent)
		calls := x.callsIn(up, fn)
		if len(calls) == 0 {
			return false
		}
		if u.exits {
			// The result says the activation stopped: above, it may
			// only be returned on.
			return x.onlyReturned(up, calls, e.Frames[:i])
		}
		vals = map[ssa.Value]constant.Value{}
		for _, cs := range calls {
			if v := cs.Value(); v != nil {
				vals[v] = u.result
			}
		}
		fn, sc = parent, up
	}
}

// onlyReturned reports whether the values of calls (in sc, the activation
// of frames' last) are only returned, by it and by each activation above
// (frames, outermost first) in turn, to the unit's result.
func (x *Index) onlyReturned(sc *scope, calls []ssa.CallInstruction, frames []Frame) bool {
	for i := len(frames) - 1; ; i-- {
		for _, cs := range calls {
			if v := cs.Value(); v != nil && !returnedOnly(v, sc.root, 0) {
				return false
			}
		}
		if i < 1 {
			return true
		}
		parent := x.function(frames[i-1].Site)
		if parent == nil {
			return false
		}
		up := x.scope(parent)
		calls = x.callsIn(up, sc.root)
		sc = up
	}
}

// inStopLoop reports whether e runs in a loop that a branch on the flag
// leaves when it is c: in one of the activations e ran in, every
// instruction leading to e runs only after such a branch, itself on a
// cycle, took its other arm (the branch dominates it, and the arm that
// leaves never reaches it): within the loop, not after it. A check in
// straight code is on no cycle.
func (x *Index) inStopLoop(e Event, key any, c constant.Value) bool {
	for lvl := len(e.Frames) - 1; lvl >= 0; lvl-- {
		fn := x.function(e.Frames[lvl].Site)
		if fn == nil {
			return false
		}
		sc := x.scope(fn)
		ins := x.liftTo(fn, x.leadsTo(e, lvl+1, sc))
		if len(ins) == 0 {
			continue
		}
		u := x.followFlag(sc, x.flagLoads(sc, key, c))
		if len(u.leaves) == 0 {
			continue
		}
		all := true
		for _, in := range ins {
			inLoop := false
			for k, blk := range u.leaves {
				if onCycle(blk) && blk.Dominates(in.Block()) && !reachesAvoiding(u.gone[k], in.Block(), nil) {
					inLoop = true
					break
				}
			}
			all = all && inLoop
		}
		if all {
			return true
		}
	}
	return false
}

// returnedOnly reports whether v is only returned by root: directly, or
// kept in a local result variable (a function with deferred calls stores
// its result there before it runs them) whose loads are only returned.
func returnedOnly(v ssa.Value, root *ssa.Function, depth int) bool {
	if v.Referrers() == nil || depth > 4 {
		return v.Referrers() == nil
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Return:
			if r.Parent() != root {
				return false
			}
		case *ssa.Store:
			a, ok := r.Addr.(*ssa.Alloc)
			if !ok || r.Val != v || a.Referrers() == nil {
				return false
			}
			for _, ar := range *a.Referrers() {
				switch ar := ar.(type) {
				case *ssa.Store, *ssa.DebugRef:
				case *ssa.UnOp:
					if ar.Op != token.MUL || !returnedOnly(ar, root, depth+1) {
						return false
					}
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// onCycle reports whether blk can run again after itself: it lies in a
// loop (a check in straight code, leading to e in its own block, is in
// none).
func onCycle(blk *ssa.BasicBlock) bool {
	for _, s := range blk.Succs {
		if reachesAvoiding(s, blk, nil) {
			return true
		}
	}
	return false
}
