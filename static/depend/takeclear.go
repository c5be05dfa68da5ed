package depend

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// takenBack reports whether the unit's read-back b of the variable it
// wrote at a finds it cleared by another goroutine's run of the very
// take-and-clear block that b's read tests: under one lock, `if v != nil
// { use v; v = nil }` (takeAndClear), in a function with no inputs but
// its receiver. Every write of the variable between a and b in the
// replayed schedule (Event.Prior) must be another goroutine's
// (Event.Writes) at that block's clear, whose last read of the variable
// before it, with no write between (Touch.Guard), is one whose value the
// block's act used: that read came after a, so the other goroutine took
// the unit's value and did the unit's work on it. The unit then reads
// the cleared value and skips the block, as the other goroutine would
// have had the unit run first: the two runs of the block traded places,
// and the value was used once. go-smtp's Conn.Close logs the session
// out and clears it under c.locker; Server.Close runs the same Close on
// every live connection, so the connection's own deferred Close finds
// nil (conn.go:166 av). A check and a clear in two critical sections
// (two Closes can both log out), a block that clears without using the
// value (nothing did the unit's work), a function whose inputs can make
// the two runs differ, a write between by the unit itself or of another
// shape, or no schedule stays judged.
func (x *Index) takenBack(a, b Event) bool {
	if !a.Write || !b.Read || b.Write || a.Var != b.Var || b.Prior == nil || b.Writes == nil {
		return false
	}
	other := map[int]Touch{}
	for _, w := range b.Writes {
		other[w.Step] = w
	}
	sawA, n := false, 0
	for _, w := range b.Prior {
		switch {
		case w.Step == a.Step:
			sawA = true
		case w.Step > a.Step:
			o, ok := other[w.Step]
			if !ok || !x.takeAndClear(b.Site, o.Site)[o.Guard] {
				return false
			}
			n++
		}
	}
	return sawA && n > 0
}

// takeAndClear returns the sites of the act's reads when the load at
// site read and the store at site clear form a take-and-clear block of
// one function with no parameters but its receiver and no free
// variables: a lock taken before the load and not released on any path
// from it to the store; the load compared (== or !=) with a constant k,
// the branch on it entering, when the value is not k, a region (the
// block the branch alone enters, and those it dominates) that holds the
// store, which writes k back to the same field of the same base, and a
// call that uses the value (the act: the load itself, or a load of the
// same field of the same base there, whose sites are returned); and the
// load used by nothing but that comparison and calls. Else nil.
func (x *Index) takeAndClear(read, clear string) map[string]bool {
	for _, in := range x.instrs[read] {
		v, ok := in.(*ssa.UnOp)
		if !ok || v.Op != token.MUL {
			continue
		}
		fa, ok := v.X.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		fn := v.Parent()
		recv := 0
		if fn.Signature.Recv() != nil {
			recv = 1
		}
		if len(fn.Params) != recv || len(fn.FreeVars) != 0 || !lockedBefore(fn, v) {
			continue
		}
		same := func(u ssa.Value) bool {
			if u == v {
				return true
			}
			l, ok := u.(*ssa.UnOp)
			if !ok || l.Op != token.MUL {
				return false
			}
			g, ok := l.X.(*ssa.FieldAddr)
			return ok && g.X == fa.X && g.Field == fa.Field
		}
		k, body := testedAgainst(v)
		if body == nil {
			continue
		}
		var st *ssa.Store
		for _, s := range x.instrs[clear] {
			s, ok := s.(*ssa.Store)
			if !ok || s.Parent() != fn {
				continue
			}
			g, ok := s.Addr.(*ssa.FieldAddr)
			c, isConst := unconvert(s.Val).(*ssa.Const)
			if ok && g.X == fa.X && g.Field == fa.Field && isConst && sameConst(k, c) && body.Dominates(s.Block()) {
				st = s
			}
		}
		if st == nil || unlocksOn(v, st, true) {
			continue
		}
		if acted := x.usesTaken(v, body, same); len(acted) > 0 {
			return acted
		}
	}
	return nil
}

// testedAgainst returns the constant the load v is compared with and the
// block entered only when v is not it, when v's only uses are that
// comparison (branched on at once) and calls; else nil, nil.
func testedAgainst(v *ssa.UnOp) (*ssa.Const, *ssa.BasicBlock) {
	var k *ssa.Const
	var body *ssa.BasicBlock
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef, ssa.CallInstruction:
		case *ssa.BinOp:
			if body != nil || r.Op != token.NEQ && r.Op != token.EQL {
				return nil, nil
			}
			c, ok := r.Y.(*ssa.Const)
			if r.X != v || !ok {
				return nil, nil
			}
			refs := *r.Referrers()
			if len(refs) != 1 {
				return nil, nil
			}
			f, ok := refs[0].(*ssa.If)
			if !ok {
				return nil, nil
			}
			s := f.Block().Succs[0]
			if r.Op == token.EQL {
				s = f.Block().Succs[1]
			}
			if len(s.Preds) != 1 {
				return nil, nil
			}
			k, body = c, s
		default:
			return nil, nil
		}
	}
	return k, body
}

// usesTaken returns the sites of the loads whose values a call in the
// region body dominates uses as the taken value (same reports a value
// that is it): as an interface method's receiver or as an argument.
func (x *Index) usesTaken(v *ssa.UnOp, body *ssa.BasicBlock, same func(ssa.Value) bool) map[string]bool {
	acted := map[string]bool{}
	for _, b := range v.Parent().Blocks {
		if !body.Dominates(b) {
			continue
		}
		for _, in := range b.Instrs {
			c, ok := in.(ssa.CallInstruction)
			if !ok || isBuiltin(c) {
				continue
			}
			com := c.Common()
			vals := com.Args
			if com.IsInvoke() {
				vals = append([]ssa.Value{com.Value}, vals...)
			}
			for _, u := range vals {
				if same(u) {
					acted[x.site(u.Pos())] = true
				}
			}
		}
	}
	return acted
}
