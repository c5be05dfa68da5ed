package depend

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// bumpRechecked reports whether b, the unit's read-back of the variable
// its atomic add a bumped, only checks whether other goroutines moved the
// variable: b's load comes after the add in the same round of the same
// activation, and its value, through pure functions (ristretto's
// parse), reaches nothing but equality tests against the same function
// of the add's own result, whose "differs" side goes back to the add on
// every path (a retry). Reading the unit's own value back would make each
// test equal; on that side the unit does what it would with no other
// write between, and on the other it starts a fresh round. Ristretto's
// Allocate bumps compIdx, and the goroutine that overflows the buffer
// locks, loads compIdx again and retries when parse(newPos)'s buffer
// index differs from parse(pos)'s. A read-back compared with a constant
// (two callers get one number), used otherwise, or whose differing
// outcome returns or goes on stays judged.
func (x *Index) bumpRechecked(a, b Event) bool {
	if !a.Read || !a.Write || !b.Read || b.Write || !slices.Equal(a.Frames, b.Frames) {
		return false
	}
	var adds []*ssa.Call
	for _, in := range x.instrs[a.Site] {
		if c, ok := in.(*ssa.Call); ok && strings.HasPrefix(atomicName(c.Common().StaticCallee()), "Add") && len(c.Common().Args) > 0 {
			adds = append(adds, c)
		}
	}
	found := false
	for _, in := range x.instrs[b.Site] {
		l, ok := in.(ssa.Value)
		if !ok {
			continue
		}
		loc := loadLocation(l)
		if loc == nil {
			continue
		}
		var add *ssa.Call
		for _, c := range adds {
			if c.Parent() == in.Parent() && addrLocation(unconvert(c.Common().Args[0])) == loc && c.Block().Dominates(in.Block()) && (c.Block() != in.Block() || slices.Index(c.Block().Instrs, ssa.Instruction(c)) < slices.Index(c.Block().Instrs, in)) {
				add = c
			}
		}
		if add == nil {
			return false
		}
		tested := false
		if !mirrorsOnly(l, add, add.Block(), &tested) || !tested {
			return false
		}
		found = true
	}
	return found
}

// mirrorsOnly reports whether every use of v, derived from the re-read,
// is an equality test against mv, the same derivation of the add's
// result, whose differing side reaches only back (the add's block), or a
// pure function applied alike to both (one argument differing), its
// results then mirrored in turn. tested records that a test was found.
func mirrorsOnly(v, mv ssa.Value, back *ssa.BasicBlock, tested *bool) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, u := range *refs {
		switch u := u.(type) {
		case *ssa.DebugRef:
		case *ssa.BinOp:
			if u.Op != token.EQL && u.Op != token.NEQ || u.X != mv && u.Y != mv {
				return false
			}
			differs := 1 // the If's else side when the test is ==
			if u.Op == token.NEQ {
				differs = 0
			}
			if u.Referrers() == nil || len(*u.Referrers()) == 0 {
				return false
			}
			for _, r := range *u.Referrers() {
				if _, ok := r.(*ssa.DebugRef); ok {
					continue
				}
				iff, ok := r.(*ssa.If)
				if !ok || !reachesOnly(iff.Block().Succs[differs], back) {
					return false
				}
			}
			*tested = true
		case *ssa.Call:
			m := mirrorCall(u, v, mv)
			if m == nil {
				return false
			}
			if !mirrorsResults(u, m, back, tested) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// mirrorsResults follows the results of call, mirrored by m.
func mirrorsResults(call, m *ssa.Call, back *ssa.BasicBlock, tested *bool) bool {
	if call.Type() == nil || call.Referrers() == nil {
		return false
	}
	if _, tuple := call.Type().(*types.Tuple); !tuple {
		return mirrorsOnly(call, m, back, tested)
	}
	for _, r := range *call.Referrers() {
		e, ok := r.(*ssa.Extract)
		if !ok {
			return false
		}
		var me *ssa.Extract
		for _, mr := range *m.Referrers() {
			if x, ok := mr.(*ssa.Extract); ok && x.Index == e.Index {
				me = x
			}
		}
		if me == nil || !mirrorsOnly(e, me, back, tested) {
			return false
		}
	}
	return true
}

// mirrorCall finds, among mv's uses, a call of call's pure static callee
// with mv where call has v and the same other arguments.
func mirrorCall(call *ssa.Call, v, mv ssa.Value) *ssa.Call {
	fn := call.Common().StaticCallee()
	if fn == nil || !pureArith(fn) || mv.Referrers() == nil {
		return nil
	}
	for _, r := range *mv.Referrers() {
		m, ok := r.(*ssa.Call)
		if !ok || m.Common().StaticCallee() != fn || len(m.Common().Args) != len(call.Common().Args) {
			continue
		}
		same := true
		for i, arg := range call.Common().Args {
			if arg == v {
				same = same && m.Common().Args[i] == mv
			} else {
				same = same && m.Common().Args[i] == arg
			}
		}
		if same {
			return m
		}
	}
	return nil
}

// pureArith reports whether fn only computes on its arguments: no loads,
// stores, calls or channel operations, so equal arguments give equal
// results and nothing of them is kept.
func pureArith(fn *ssa.Function) bool {
	if len(fn.Blocks) == 0 || len(fn.FreeVars) > 0 {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			switch in := in.(type) {
			case *ssa.BinOp, *ssa.Convert, *ssa.ChangeType, *ssa.Return, *ssa.Jump, *ssa.If, *ssa.Phi, *ssa.Extract, *ssa.DebugRef:
			case *ssa.UnOp:
				if in.Op == token.MUL || in.Op == token.ARROW {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}
