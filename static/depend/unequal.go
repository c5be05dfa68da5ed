package depend

import (
	"go/token"
	"go/types"
	"iter"

	"golang.org/x/tools/go/ssa"
)

// comparedApart reports whether r, another unit's read between a unit's
// two writes a and b of one variable, reads a value that it only
// compares for equality with a value it can never equal: every value a
// stores has the other parity than what r's value is compared with (a
// known parity, as spinsOn's, or a field's: fieldParity), and a is a
// compare-and-swap whose expected value (the variable's before a) differs
// from every value b stores (the variable's after b). An equality with
// one value holds for at most one of the values before and after, so the
// test's outcome on the intermediate value, never equal, is its outcome
// on one of them: the reader acts as in one serial order of the writer's
// unit and its read. otter's MPSC (JCTools' MpscGrowableArrayQueue)
// marks a resize by CASing the producer index pIndex (even) to pIndex+1
// and ends it with a store of pIndex+2; TryPop compares its consumer
// index, even (its every store is an even value plus 2), with the
// producer index to see whether the queue is empty: the odd one says
// "not empty", as pIndex+2 does. A read whose value is used otherwise,
// compared with a value of unknown parity, or between a plain store and
// another (whose value before is unknown: a marker stored, then the
// value restored, differs from both orders) stays judged.
func (x *Index) comparedApart(a, b, r Event) bool {
	mids := x.stored(a.Site)
	afters := x.stored(b.Site)
	if len(mids) == 0 || len(afters) == 0 {
		return false
	}
	old, cas := x.casExpected(a.Site)
	if old == nil || !x.differ(old, cas, a, afters, b) {
		return false
	}
	reads := x.reads(r.Site, nil)
	if len(reads) == 0 {
		return false
	}
	for _, v := range reads {
		n := 0
		for _, ref := range *v.Referrers() {
			if _, ok := ref.(*ssa.DebugRef); ok {
				continue
			}
			cmp, ok := ref.(*ssa.BinOp)
			if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
				return false
			}
			other := cmp.X
			if other == v {
				other = cmp.Y
			}
			if other == v {
				return false
			}
			p, ok := x.parity(other, cmp, 0)
			if !ok {
				return false
			}
			for _, w := range mids {
				q, ok := x.parity(w, nil, 0)
				if !ok || q == p {
					return false
				}
			}
			n++
		}
		if n == 0 {
			return false
		}
	}
	return true
}

// casExpected returns the expected value of the compare-and-swap at
// site (the variable's value before it, when it swapped) and the call,
// or nil.
func (x *Index) casExpected(site string) (ssa.Value, ssa.Instruction) {
	var out ssa.Value
	var at ssa.Instruction
	for _, in := range x.instrs[site] {
		call, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		fn := call.Common().StaticCallee()
		if fn == nil || !isAtomicCAS(fn) || len(call.Common().Args) != 3 {
			continue
		}
		if out != nil {
			return nil, nil
		}
		out, at = call.Common().Args[1], call
	}
	return out, at
}

// differ reports whether u, the expected value of a's compare-and-swap
// cas, and each of vs, stored by b, differ in the activation a and b
// share: both are a constant apart from one value of it (through the
// parameters of the calls between, each called once there), by
// different constants, and no path from a (or the call leading to it)
// to b (or the call leading to it) defines that value again (a loop's
// next iteration).
func (x *Index) differ(u ssa.Value, cas ssa.Instruction, a Event, vs []ssa.Value, b Event) bool {
	c := common(a.Frames, b.Frames)
	if c == 0 {
		return false
	}
	ub, uo, ucall, ok := x.offsetIn(u, cas, a.Frames, c)
	if !ok {
		return false
	}
	for _, v := range vs {
		vb, vo, vcall, ok := x.offsetIn(v, x.writeAt(b.Site, v), b.Frames, c)
		if !ok || vb != ub || vo == uo || !notRedefined(ub, ucall, vcall) {
			return false
		}
	}
	return true
}

// writeAt is the instruction at site that stores v.
func (x *Index) writeAt(site string, v ssa.Value) ssa.Instruction {
	for _, in := range x.instrs[site] {
		for _, o := range in.Operands(nil) {
			if *o == v {
				return in
			}
		}
	}
	return nil
}

// offsetIn writes v, a value of the function of frames' innermost
// activation that instruction at uses, as base + off with base a value
// of frames[c-1]'s function, following parameters to the argument of the
// one call of their function in its caller's activation; call is the
// instruction in frames[c-1]'s function leading to the use: at, or the
// call of the activation it ran in.
func (x *Index) offsetIn(v ssa.Value, at ssa.Instruction, frames []Frame, c int) (base ssa.Value, off int64, call ssa.Instruction, ok bool) {
	call = at
	for i := len(frames) - 1; ; i-- {
		v, off = linear(v, off)
		if i < c {
			return v, off, call, call != nil
		}
		p, isParam := v.(*ssa.Parameter)
		fn, parent := x.function(frames[i].Site), x.function(frames[i-1].Site)
		if !isParam || fn == nil || parent == nil || p.Parent() != fn {
			return nil, 0, nil, false
		}
		idx := -1
		for k, q := range fn.Params {
			if q == p {
				idx = k
			}
		}
		var calls []ssa.CallInstruction
		for _, cs := range x.callSites(fn) {
			if cs.fn == parent {
				calls = append(calls, cs.in)
			}
		}
		if idx < 0 || len(calls) != 1 || calls[0].Common().IsInvoke() || len(calls[0].Common().Args) != len(fn.Params) {
			return nil, 0, nil, false
		}
		v, call = calls[0].Common().Args[idx], calls[0]
	}
}

// linear strips additions and subtractions of integer constants (and
// conversions) from v, adding them to off.
func linear(v ssa.Value, off int64) (ssa.Value, int64) {
	for {
		switch w := v.(type) {
		case *ssa.BinOp:
			k, ok := constOf(w.Y)
			if !ok || w.Op != token.ADD && w.Op != token.SUB {
				return v, off
			}
			if w.Op == token.ADD {
				off += int64(k)
			} else {
				off -= int64(k)
			}
			v = w.X
		case *ssa.ChangeType:
			v = w.X
		default:
			return v, off
		}
	}
}

// notRedefined reports whether no path from instruction from to
// instruction to (in one function) runs base's definition again: a
// parameter never is; a value defined in a block is when the path enters
// that block (other than where from sits, after base).
func notRedefined(base ssa.Value, from, to ssa.Instruction) bool {
	def, ok := base.(ssa.Instruction)
	if !ok {
		_, param := base.(*ssa.Parameter)
		return param
	}
	if from == nil || to == nil || from.Block() == nil || to.Block() == nil || from.Parent() != to.Parent() {
		return false
	}
	d := def.Block()
	index := func(in ssa.Instruction) int {
		for k, i := range in.Block().Instrs {
			if i == in {
				return k
			}
		}
		return -1
	}
	if from.Block() == to.Block() && index(from) < index(to) {
		return d != from.Block() || index(def) < index(from)
	}
	if d == from.Block() && index(def) > index(from) {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), from.Block().Succs...)
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[blk] {
			continue
		}
		seen[blk] = true
		if blk == to.Block() && (blk != d || index(def) > index(to)) {
			return true
		}
		if blk == d {
			continue // base defined anew on this path
		}
		work = append(work, blk.Succs...)
	}
	return false
}

// fieldParity returns the parity every value of struct field f has, when
// it is an invariant: the field is unexported, its zero value is even,
// and every write of it in the package (a store through its address, or
// sync/atomic's Store, Swap, CompareAndSwap or Add on it) writes an even
// value, or adds one, given that every read of it is even (an induction
// on the writes: otter's consumer index, only ever stored as a read of
// it plus 2). A field whose address goes anywhere else is not known.
func (x *Index) fieldParity(f *types.Var, depth int) (uint64, bool) {
	if f.Exported() {
		return 0, false
	}
	if x.fieldPar == nil {
		x.fieldPar = map[*types.Var]int{}
	}
	switch x.fieldPar[f] {
	case fieldEven, fieldAssumed:
		return 0, true
	case fieldUnknown:
		return 0, false
	}
	x.fieldPar[f] = fieldAssumed
	even := x.writesEven(f, depth)
	if x.assuming == 0 {
		// Decided without assuming another field's parity: keep it.
		x.fieldPar[f] = fieldUnknown
		if even {
			x.fieldPar[f] = fieldEven
		}
	} else {
		delete(x.fieldPar, f)
	}
	return 0, even
}

const (
	fieldUndecided = iota
	fieldAssumed
	fieldEven
	fieldUnknown
)

// writesEven checks fieldParity's induction step for f.
func (x *Index) writesEven(f *types.Var, depth int) bool {
	x.assuming++
	defer func() { x.assuming-- }()
	even := func(v ssa.Value, at ssa.Instruction) bool {
		p, ok := x.parity(v, at, depth+1)
		return ok && p == 0
	}
	for fa := range x.fieldAddrs(f) {
		for _, ref := range *fa.Referrers() {
			switch ref := ref.(type) {
			case *ssa.DebugRef:
			case *ssa.UnOp:
				if ref.Op != token.MUL {
					return false
				}
			case *ssa.Store:
				if ref.Addr != fa || !even(ref.Val, ref) {
					return false
				}
			case *ssa.Call:
				args := ref.Common().Args
				name := atomicName(ref.Common().StaticCallee())
				if len(args) == 0 || args[0] != fa {
					return false
				}
				switch {
				case len(name) >= 4 && name[:4] == "Load":
				case len(name) >= 5 && (name[:5] == "Store" || name[:4] == "Swap") || len(name) >= 3 && name[:3] == "Add":
					if len(args) != 2 || !even(args[1], ref) {
						return false
					}
				case len(name) >= 14 && name[:14] == "CompareAndSwap":
					if len(args) != 3 || !even(args[2], ref) {
						return false
					}
				default:
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// atomicName is the name of fn when it is one of sync/atomic's functions
// or methods, else "".
func atomicName(fn *ssa.Function) string {
	if fn == nil {
		return ""
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return ""
	}
	return obj.Name()
}

// fieldOf is the field (its generic origin) whose address fa takes.
func fieldOf(fa *ssa.FieldAddr) *types.Var {
	if f := field(fa); f != nil {
		return f.Origin()
	}
	return nil
}

// fieldAddrs yields every address of field f taken in the program, the
// places its writes and reads go through.
func (x *Index) fieldAddrs(f *types.Var) iter.Seq[*ssa.FieldAddr] {
	return func(yield func(*ssa.FieldAddr) bool) {
		for _, fn := range x.all {
			for _, blk := range fn.Blocks {
				for _, in := range blk.Instrs {
					if fa, ok := in.(*ssa.FieldAddr); ok && fieldOf(fa) == f && !yield(fa) {
						return
					}
				}
			}
		}
	}
}

// loadedField returns the field a read of v loads (a plain load through
// the field's address, or sync/atomic's Load of it), or nil.
func loadedField(v ssa.Value) *types.Var {
	f, _ := locationOf(v).(*types.Var)
	return f
}

// IsCAS reports whether the access at site is a compare-and-swap (a
// failed one is recorded as a load there).
func (x *Index) IsCAS(site string) bool {
	_, in := x.casExpected(site)
	return in != nil
}
