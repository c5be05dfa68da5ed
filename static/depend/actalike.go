package depend

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// ActAlike reports whether an acting violation (av/RRW: the unit's load
// a, another unit's load r at the same site and in the same calling
// context, then the unit's act b) leaves nothing a run without it would
// not, so that a failure its replay shows is not its own. It holds when
//   - a and r are a sync.Map Load of one key (directly, or through a
//     wrapper that returns its value and true only on a hit) and b the
//     LoadOrStore of that key that the unit's miss leads to, the miss
//     path before it pure (allocations and stores into them);
//   - in the function that decides the act, the block a hit enters and
//     the block LoadOrStore's loaded flag enters are alike, instruction
//     for instruction, the hit's value in the one standing for the
//     loaded value in the other, each ending in a return or a jump to
//     one block with alike phi edges.
//
// Then r's goroutine, which missed too and runs the same code, reaches
// the same LoadOrStore: whichever of the two stores first, the other one
// loads what it stored and does what a hit does with it. Its Load had no
// effect, so its run is one where the Load came after the store and hit,
// which is no interleaving at all: acting twice cannot happen, and the
// test's failure needs something else (ulule/limiter's Cache.Increment,
// whose test fails in plain runs by its timing). A loaded path that uses
// the unit's fresh value instead of the loaded one, or does anything else
// than the hit, stays judged by the replay.
func (x *Index) ActAlike(evs []Event) bool {
	if len(evs) != 3 {
		return false
	}
	a, r, b := evs[0], evs[1], evs[2]
	if a.Unit != b.Unit || a.Thread != b.Thread || r.Unit == a.Unit && r.Thread == a.Thread {
		return false
	}
	if !a.Read || a.Write || !r.Read || r.Write || !b.Write || a.Var != r.Var || a.Var != b.Var {
		return false
	}
	// One variable is one key: the recorder makes each (sync.Map, key)
	// pair a location of its own (dynamic/rt/syncmap.go); keys, when
	// known, must agree too.
	if r.Key != a.Key || b.Key != a.Key || a.Site != r.Site {
		return false
	}
	load := x.syncMapCall(a.Site, "Load")
	store := x.syncMapCall(b.Site, "LoadOrStore")
	if load == nil || store == nil {
		return false
	}
	// f decides the act: the innermost activation a and b share, whose
	// code r's goroutine runs too (the same frames from f on, by site).
	c := common(a.Frames, b.Frames)
	if c == 0 || len(r.Frames) < len(a.Frames)-c+1 {
		return false
	}
	tail := r.Frames[len(r.Frames)-(len(a.Frames)-c+1):]
	for k, fr := range a.Frames[c-1:] {
		if tail[k].Site != fr.Site {
			return false
		}
	}
	f := x.function(a.Frames[c-1].Site)
	if f == nil {
		return false
	}
	hitVal, hitOk, hitCall := x.mapResult(f, a.Frames[c:], load, false)
	ldVal, ldOk, ldCall := x.mapResult(f, b.Frames[c:], store, true)
	if hitCall == nil || ldCall == nil || hitCall.Block() == ldCall.Block() {
		return false
	}
	hit, miss := flagBlocks(hitOk)
	loaded, _ := flagBlocks(ldOk)
	if hit == nil || loaded == nil || miss != ldCall.Block() || !pureBefore(miss, ldCall) {
		return false
	}
	// From each call to the branch on its flag, in the call's block,
	// nothing that differs between a miss and a hit, or between a
	// goroutine that stored and one that loaded, is seen by others.
	if !quietAfter(hitCall, hitOk) || !quietAfter(ldCall, ldOk) {
		return false
	}
	// In the two blocks both flags are true.
	return alike(hit, loaded, map[ssa.Value]ssa.Value{hitVal: ldVal, hitOk: ldOk})
}

// syncMapCall returns the call of sync.Map's method name at site, or nil.
func (x *Index) syncMapCall(site, name string) *ssa.Call {
	for _, in := range x.instrs[site] {
		call, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		fn := call.Common().StaticCallee()
		if fn == nil || fn.Name() != name || fn.Signature.Recv() == nil {
			continue
		}
		if p, ok := fn.Signature.Recv().Type().(*types.Pointer); ok {
			if n, ok := p.Elem().(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == "Map" {
				return call
			}
		}
	}
	return nil
}

// mapResult returns, in f, the value and the flag that the sync.Map call
// s yields there, and the call in f that yields them: s itself when it is
// in f (frames empty), or the one call in f of the wrapper that the one
// frame names, which holds s and keeps its contract (wrapped). loaded
// says s is a LoadOrStore (its flag: loaded), else a Load (ok).
func (x *Index) mapResult(f *ssa.Function, frames []Frame, s *ssa.Call, loaded bool) (val, flag ssa.Value, call *ssa.Call) {
	switch len(frames) {
	case 0:
		if s.Parent() != f {
			return nil, nil, nil
		}
		call = s
	case 1:
		g := x.function(frames[0].Site)
		if g == nil || s.Parent() != g || !wrapped(g, s, loaded) {
			return nil, nil, nil
		}
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				if c, ok := in.(*ssa.Call); ok && c.Common().StaticCallee() == g {
					if call != nil {
						return nil, nil, nil
					}
					call = c
				}
			}
		}
		if call == nil {
			return nil, nil, nil
		}
	default:
		return nil, nil, nil
	}
	val, flag = extract(call, 0), extract(call, 1)
	if val == nil || flag == nil {
		return nil, nil, nil
	}
	return val, flag, call
}

// extract returns the one Extract of tuple index i of call, or nil.
func extract(call *ssa.Call, i int) ssa.Value {
	var out ssa.Value
	for _, r := range *call.Referrers() {
		if e, ok := r.(*ssa.Extract); ok && e.Index == i {
			if out != nil {
				return nil
			}
			out = e
		}
	}
	return out
}

// wrapped reports whether g, holding the sync.Map call s, returns (value,
// flag) with the flag true only with s's value: every return's flag is
// false, or s's own flag, or true in a block entered only when s's flag
// is true, and its value then is s's value (type-asserted or converted);
// and g does nothing else than s that another goroutine could see: no
// store, call, send, map update, go, defer or panic of its own.
func wrapped(g *ssa.Function, s *ssa.Call, loaded bool) bool {
	sv, sf := extract(s, 0), extract(s, 1)
	if sv == nil || sf == nil || g.Signature.Results().Len() != 2 {
		return false
	}
	onHit, _ := flagBlocks(sf)
	for _, b := range g.Blocks {
		for _, in := range b.Instrs {
			if in == s {
				continue
			}
			if !quiet(in) {
				return false
			}
			ret, ok := in.(*ssa.Return)
			if !ok {
				continue
			}
			flag := ret.Results[1]
			if boolConst(flag, false) {
				continue
			}
			if flag != sf && !(boolConst(flag, true) && onHit != nil && onHit.Dominates(b)) {
				return false
			}
			if strip(ret.Results[0]) != sv {
				return false
			}
		}
	}
	return true
}

// quiet reports whether in does nothing another goroutine could see or
// that could differ between two goroutines running it on one state.
func quiet(in ssa.Instruction) bool {
	switch in := in.(type) {
	case *ssa.Store, *ssa.Call, *ssa.Go, *ssa.Defer, *ssa.Send, *ssa.MapUpdate, *ssa.Panic, *ssa.Select, *ssa.RunDefers:
		return false
	case *ssa.UnOp:
		return in.Op != token.ARROW
	}
	return true
}

// strip returns v under type assertions and conversions.
func strip(v ssa.Value) ssa.Value {
	for {
		switch w := v.(type) {
		case *ssa.TypeAssert:
			if w.CommaOk {
				return v
			}
			v = w.X
		case *ssa.ChangeInterface:
			v = w.X
		case *ssa.ChangeType:
			v = w.X
		case *ssa.MakeInterface:
			v = w.X
		default:
			return v
		}
	}
}

func boolConst(v ssa.Value, want bool) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && constant.BoolVal(c.Value) == want
}

// flagBlocks returns the block entered only when flag is true and the one
// entered only when it is false, from the one branch on it (or on its
// negation); nil when there is none or more than one, or for a block
// entered by another way too.
func flagBlocks(flag ssa.Value) (onTrue, onFalse *ssa.BasicBlock) {
	n := 0
	take := func(cond ssa.Value, t int) {
		for _, r := range *cond.Referrers() {
			if f, ok := r.(*ssa.If); ok && f.Cond == cond {
				n++
				onTrue, onFalse = f.Block().Succs[t], f.Block().Succs[1-t]
			}
		}
	}
	take(flag, 0)
	for _, r := range *flag.Referrers() {
		if u, ok := r.(*ssa.UnOp); ok && u.Op == token.NOT {
			take(u, 1)
		}
	}
	if n != 1 {
		return nil, nil
	}
	// A block with another way in is not entered only on that outcome.
	if len(onTrue.Preds) != 1 {
		onTrue = nil
	}
	if len(onFalse.Preds) != 1 {
		onFalse = nil
	}
	return onTrue, onFalse
}

// quietAfter reports whether call's block ends in the branch on flag (or
// on its negation) and does nothing another goroutine could see between
// call and that branch.
func quietAfter(call *ssa.Call, flag ssa.Value) bool {
	b := call.Block()
	f, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	if u, ok := f.Cond.(*ssa.UnOp); f.Cond != flag && !(ok && u.Op == token.NOT && u.X == flag) {
		return false
	}
	after := false
	for _, in := range b.Instrs {
		if after && !quiet(in) {
			return false
		}
		after = after || in == call
	}
	return true
}

// pureBefore reports whether the instructions of b before call only make
// a fresh object (allocations, addresses in them, stores into them,
// conversions): nothing another goroutine sees before the call.
func pureBefore(b *ssa.BasicBlock, call *ssa.Call) bool {
	fresh := map[ssa.Value]bool{}
	for _, in := range b.Instrs {
		if in == call {
			return true
		}
		switch in := in.(type) {
		case *ssa.Alloc:
			fresh[in] = true
		case *ssa.FieldAddr:
			// An address computed is no access; a store through it
			// is one unless the object is fresh.
			fresh[in] = fresh[in.X]
		case *ssa.IndexAddr:
			fresh[in] = fresh[in.X]
		case *ssa.Store:
			if !fresh[in.Addr] {
				return false
			}
		case *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface, *ssa.Convert, *ssa.Extract, *ssa.BinOp, *ssa.DebugRef:
		default:
			return false
		}
	}
	return false
}

// alike reports whether blocks h and l do the same, instruction for
// instruction, with the values of m (h's for l's) standing for each
// other; each ends in a return or in a jump to one block whose phis take
// alike values from the two.
func alike(h, l *ssa.BasicBlock, m map[ssa.Value]ssa.Value) bool {
	if len(h.Instrs) != len(l.Instrs) {
		return false
	}
	same := func(p, q ssa.Value) bool {
		if p == q {
			_, phi := p.(*ssa.Phi)
			return !phi
		}
		if m[p] == q && q != nil {
			return true
		}
		cp, ok1 := p.(*ssa.Const)
		cq, ok2 := q.(*ssa.Const)
		return ok1 && ok2 && types.Identical(cp.Type(), cq.Type()) && (cp.Value == nil) == (cq.Value == nil) && (cp.Value == nil || constant.Compare(cp.Value, token.EQL, cq.Value))
	}
	for i, ih := range h.Instrs {
		il := l.Instrs[i]
		if !sameShape(ih, il) {
			return false
		}
		oh, ol := ih.Operands(nil), il.Operands(nil)
		if len(oh) != len(ol) {
			return false
		}
		for k := range oh {
			if (*oh[k] == nil) != (*ol[k] == nil) || *oh[k] != nil && !same(*oh[k], *ol[k]) {
				return false
			}
		}
		if vh, ok := ih.(ssa.Value); ok {
			m[vh] = il.(ssa.Value)
		}
	}
	switch h.Instrs[len(h.Instrs)-1].(type) {
	case *ssa.Return:
		return true
	case *ssa.Jump:
		t := h.Succs[0]
		if l.Succs[0] != t {
			return false
		}
		hi, li := -1, -1
		for k, p := range t.Preds {
			if p == h {
				hi = k
			}
			if p == l {
				li = k
			}
		}
		if hi < 0 || li < 0 {
			return false
		}
		for _, in := range t.Instrs {
			phi, ok := in.(*ssa.Phi)
			if !ok {
				break
			}
			if !same(phi.Edges[hi], phi.Edges[li]) {
				return false
			}
		}
		return true
	default:
		return false
	}
}

// sameShape reports whether two instructions are the same operation, apart
// from their operands: the same kind, type, operator, field, index,
// callee or method.
func sameShape(p, q ssa.Instruction) bool {
	switch p := p.(type) {
	case *ssa.Call:
		q, ok := q.(*ssa.Call)
		return ok && p.Common().Method == q.Common().Method && types.Identical(p.Type(), q.Type())
	case *ssa.BinOp:
		q, ok := q.(*ssa.BinOp)
		return ok && p.Op == q.Op && types.Identical(p.Type(), q.Type())
	case *ssa.UnOp:
		q, ok := q.(*ssa.UnOp)
		return ok && p.Op == q.Op && p.CommaOk == q.CommaOk && types.Identical(p.Type(), q.Type())
	case *ssa.FieldAddr:
		q, ok := q.(*ssa.FieldAddr)
		return ok && p.Field == q.Field && types.Identical(p.Type(), q.Type())
	case *ssa.Field:
		q, ok := q.(*ssa.Field)
		return ok && p.Field == q.Field && types.Identical(p.Type(), q.Type())
	case *ssa.Extract:
		q, ok := q.(*ssa.Extract)
		return ok && p.Index == q.Index && types.Identical(p.Type(), q.Type())
	case *ssa.TypeAssert:
		q, ok := q.(*ssa.TypeAssert)
		return ok && p.CommaOk == q.CommaOk && types.Identical(p.AssertedType, q.AssertedType)
	case *ssa.Convert:
		q, ok := q.(*ssa.Convert)
		return ok && types.Identical(p.Type(), q.Type())
	case *ssa.ChangeType:
		q, ok := q.(*ssa.ChangeType)
		return ok && types.Identical(p.Type(), q.Type())
	case *ssa.MakeInterface:
		q, ok := q.(*ssa.MakeInterface)
		return ok && types.Identical(p.Type(), q.Type())
	case *ssa.IndexAddr:
		q, ok := q.(*ssa.IndexAddr)
		return ok && types.Identical(p.Type(), q.Type())
	case *ssa.Store:
		_, ok := q.(*ssa.Store)
		return ok
	case *ssa.Return:
		_, ok := q.(*ssa.Return)
		return ok
	case *ssa.Jump:
		_, ok := q.(*ssa.Jump)
		return ok
	case *ssa.DebugRef:
		_, ok := q.(*ssa.DebugRef)
		return ok
	}
	// Anything else (allocations, phis, branches, sends, …) is not
	// compared: the blocks are not taken for alike.
	return false
}
