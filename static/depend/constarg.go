package depend

import (
	"slices"

	"golang.org/x/tools/go/ssa"
)

// constOf returns the constant the write e stores: constStored's, or,
// when the write at e's site stores a parameter of the method e ran in
// (a setter: `r.leaderAddr = leaderAddr`), the one constant every call
// of that method in the activation that called it passes there
// (e.Frames: the calling activation is the frame above; its own calls
// of the setter, plain functions and closures it runs included, are the
// only way into an activation of the setter directly below it). No
// claim (nil) when the calling activation can reach the setter in a way
// the index does not see: through an interface method of the setter's
// name, or a call of a function value that is no closure of its own; or
// when the setter is taken as a value anywhere (a method value handed
// to code that may call it back with no frame between).
// hashicorp/raft's runFollower calls setLeader("", "") and setState's
// setLeader("", "") follows: both store the empty leader.
func (x *Index) constOf(e Event) *ssa.Const {
	if c := x.constStored(e.Site); c != nil {
		return c
	}
	n := len(e.Frames)
	if n < 2 || !e.Write {
		return nil
	}
	fn, caller := x.function(e.Frames[n-1].Site), x.function(e.Frames[n-2].Site)
	if fn == nil || caller == nil {
		return nil
	}
	vals := x.stored(e.Site)
	if len(vals) == 0 {
		return nil
	}
	var c *ssa.Const
	for _, v := range vals {
		k := x.constArg(unconvert(v), fn, caller)
		if k == nil || c != nil && !sameConst(c, k) {
			return nil
		}
		c = k
	}
	return c
}

// constArg returns v when it is a constant, or the constant every call
// of fn in caller's own activation passes as v, a parameter of fn's;
// else nil.
func (x *Index) constArg(v ssa.Value, fn, caller *ssa.Function) *ssa.Const {
	if k, ok := v.(*ssa.Const); ok {
		return k
	}
	p, ok := v.(*ssa.Parameter)
	if !ok || p.Parent() != fn {
		return nil
	}
	idx := slices.Index(fn.Params, p)
	if idx < 0 {
		return nil
	}
	sc := x.scope(caller)
	if x.usedAsValue(fn) || x.unseenCalls(sc, fn) {
		return nil
	}
	calls := x.ownCalls(sc, fn)
	if len(calls) == 0 {
		return nil
	}
	var c *ssa.Const
	for _, call := range calls {
		com := call.Common()
		if com.IsInvoke() || idx >= len(com.Args) {
			return nil
		}
		k, ok := unconvert(com.Args[idx]).(*ssa.Const)
		if !ok || c != nil && !sameConst(c, k) {
			return nil
		}
		c = k
	}
	return c
}

// unseenCalls reports whether sc's own functions may call fn in a way
// the index's static calls do not list: an interface method call of
// fn's name, or a call of a function value other than a closure of sc.
func (x *Index) unseenCalls(sc *scope, fn *ssa.Function) bool {
	for f := range sc.own {
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				call, ok := in.(ssa.CallInstruction)
				if !ok {
					continue
				}
				com := call.Common()
				switch {
				case com.IsInvoke():
					if com.Method.Name() == fn.Name() {
						return true
					}
				case com.StaticCallee() != nil:
				default:
					if mc, ok := com.Value.(*ssa.MakeClosure); ok {
						if g, ok := mc.Fn.(*ssa.Function); ok && sc.fns[g] {
							continue
						}
					}
					if _, ok := com.Value.(*ssa.Builtin); ok {
						continue
					}
					return true
				}
			}
		}
	}
	return false
}

// constTouch returns the constant the write w of variable v stores: the
// pattern's own event at w's step when there is one (its frames resolve
// a setter's parameter: constOf), else what its site stores.
func (x *Index) constTouch(evs []Event, w Touch, v int) *ssa.Const {
	for _, e := range evs {
		if e.Write && e.Var == v && e.Step == w.Step && e.Site == w.Site {
			return x.constOf(e)
		}
	}
	return x.constStored(w.Site)
}

// sameStored reports whether the value another goroutine's read r finds
// between the unit's writes a and b of one variable is the one b leaves:
// a and b store one constant c (constOf: a setter called twice with the
// same constant, hashicorp/raft's runFollower clearing the leader with
// setLeader("", "") and then setState's setLeader("", "")), and every
// write of the variable the replayed schedule shows from a up to r
// (Event.Prior) stores c too. r then reads c, the value it reads with
// the whole unit before it: a serial order, whatever r does with it. The
// unit's other writes are other variables, judged in their own
// instances; a write between by r's own goroutine (raft's Shutdown
// clearing the leader too) is judged where the unit reads it back
// (constBack). A write between of another value, one whose value is not
// known, or no schedule, stays judged.
func (x *Index) sameStored(evs []Event, i, r, j int) bool {
	a, b, rd := evs[i], evs[j], evs[r]
	if rd.Prior == nil || rd.Write {
		return false
	}
	c := x.constOf(a)
	if c == nil || !sameConst(c, x.constOf(b)) {
		return false
	}
	return x.storedSince(evs, a, c, rd.Prior)
}

// usedAsValue reports whether fn is taken as a value in the syntax
// packages: an operand other than a call's callee, or a method value
// (the bound wrapper of fn's method) or thunk made of it.
func (x *Index) usedAsValue(fn *ssa.Function) bool {
	if v, ok := x.valued[fn]; ok {
		return v
	}
	if x.valued == nil {
		x.valued = map[*ssa.Function]bool{}
	}
	used := false
	for _, f := range x.all {
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				var callee ssa.Value
				if c, ok := in.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
					callee = c.Common().Value
				}
				for _, op := range in.Operands(nil) {
					g, ok := (*op).(*ssa.Function)
					if !ok || *op == callee && g == fn {
						continue
					}
					if g == fn || g.Synthetic != "" && fn.Object() != nil && g.Object() == fn.Object() {
						used = true
					}
				}
			}
		}
	}
	x.valued[fn] = used
	return used
}
