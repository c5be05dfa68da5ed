package depend

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// spinsOn reports whether r, another unit's read between two writes of a
// unit (the first at a), only waits on the value a wrote: r's value
// reaches a branch that, for every value a stores, takes the edge going
// straight back to r's read (a spin), so that value is used nowhere
// else. otter's MPSC (JCTools' MpscGrowableArrayQueue) marks a resize by
// CASing the producer index from an even pIndex to pIndex+1; a producer
// that loads an odd index does `if pIndex&1 == 1 { continue }` and loads
// it again until the resizer stores the next even one. What a reader
// uses past the branch is a later value, not the intermediate one.
//
// The branch's outcome is decided from what a stores: a constant, or
// the parity of a sum or an or with a constant, of a parameter whose
// every caller passes a value of known parity (a branch on the same
// test dominating the call) to an unexported function. A spin whose loop uses the value before
// reading again, or a test the stored value may pass, stays judged.
func (x *Index) spinsOn(a, r Event) bool {
	vals := x.stored(a.Site)
	if len(vals) == 0 {
		return false
	}
	reads := x.reads(r.Site, nil)
	if len(reads) == 0 {
		return false
	}
	for _, v := range reads {
		rin, ok := v.(ssa.Instruction)
		if !ok || !x.spinsAt(v, rin, vals) {
			return false
		}
	}
	return true
}

// spinsAt reports whether v, read by rin, reaches a branch whose spin
// edge back to rin every stored value takes, and nothing else uses v
// before that branch.
func (x *Index) spinsAt(v ssa.Value, rin ssa.Instruction, vals []ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		op, ok := ref.(*ssa.BinOp)
		if !ok || len(*op.Referrers()) == 0 {
			continue
		}
		for _, u := range *op.Referrers() {
			cmp, ok := u.(*ssa.BinOp)
			if !ok {
				continue
			}
			for _, cu := range *cmp.Referrers() {
				br, ok := cu.(*ssa.If)
				if !ok || br.Cond != cmp {
					continue
				}
				// The edge the stored values take: all must agree.
				edge := -1
				for _, w := range vals {
					taken, known := evalTest(cmp, op, w, x, 0)
					if !known {
						return false
					}
					e := 1
					if taken {
						e = 0
					}
					if edge >= 0 && e != edge {
						return false
					}
					edge = e
				}
				if edge >= 0 && backTo(br.Block().Succs[edge], rin, v) && onlyPast(v, op, br.Block().Succs[1-edge]) {
					return true
				}
			}
		}
	}
	return false
}

// onlyPast reports whether every use of v other than the test op runs
// only past the branch, on its edge into pass (a phi's use on the edge
// from a block pass dominates).
func onlyPast(v ssa.Value, op *ssa.BinOp, pass *ssa.BasicBlock) bool {
	if len(pass.Preds) != 1 {
		return false
	}
	for _, ref := range *v.Referrers() {
		if ref == op {
			continue
		}
		if phi, ok := ref.(*ssa.Phi); ok {
			for i, e := range phi.Edges {
				if e == v && !pass.Dominates(phi.Block().Preds[i]) {
					return false
				}
			}
			continue
		}
		if ref.Block() == nil || !pass.Dominates(ref.Block()) {
			return false
		}
	}
	return len(*op.Referrers()) == 1
}

// backTo reports whether the path from blk goes, through blocks that
// only jump on, to rin's block and reaches rin, without using v.
func backTo(blk *ssa.BasicBlock, rin ssa.Instruction, v ssa.Value) bool {
	seen := map[*ssa.BasicBlock]bool{}
	for !seen[blk] {
		seen[blk] = true
		for _, in := range blk.Instrs {
			if in == rin {
				return true
			}
			for _, o := range in.Operands(nil) {
				if *o == v {
					return false
				}
			}
		}
		if len(blk.Succs) != 1 {
			return false
		}
		blk = blk.Succs[0]
	}
	return false
}

// evalTest decides the comparison cmp (of op, computed from the read
// value) for the stored value w in place of the read: op is the read
// itself compared with a constant, or the read masked with 1 (its
// parity). known is false when it cannot tell.
func evalTest(cmp, op *ssa.BinOp, w ssa.Value, x *Index, depth int) (taken, known bool) {
	if cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return false, false
	}
	k, ok := constOf(cmp.Y)
	if !ok || cmp.X != op {
		return false, false
	}
	if op.Op != token.AND {
		return false, false
	}
	mask, ok := constOf(op.Y)
	if !ok || mask != 1 {
		return false, false
	}
	p, ok := x.parity(w, nil, depth)
	if !ok {
		return false, false
	}
	eq := p == k
	if cmp.Op == token.NEQ {
		eq = !eq
	}
	return eq, true
}

// constOf returns v's value if it is an integer constant.
func constOf(v ssa.Value) (uint64, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	if n, exact := constant.Uint64Val(c.Value); exact {
		return n, true
	}
	if n, exact := constant.Int64Val(c.Value); exact {
		return uint64(n), true
	}
	return 0, false
}

// parity returns v's lowest bit, when it is known: of a constant, of a
// sum, difference or or with a constant, of a value a dominating branch
// tested (v&1 == k), of a parameter every caller passes known alike, of
// a field's load whose parity is an invariant (fieldParity). at
// is where v is used (nil: v's own definition's reach).
func (x *Index) parity(v ssa.Value, at ssa.Instruction, depth int) (uint64, bool) {
	if depth > 4 {
		return 0, false
	}
	if n, ok := constOf(v); ok {
		return n & 1, true
	}
	switch v := v.(type) {
	case *ssa.BinOp:
		switch v.Op {
		case token.ADD, token.SUB:
			p, ok1 := x.parity(v.X, v, depth+1)
			q, ok2 := x.parity(v.Y, v, depth+1)
			if ok1 && ok2 {
				return p ^ q, true
			}
		case token.OR:
			if n, ok := constOf(v.Y); ok && n&1 == 1 {
				return 1, true
			}
		}
	case *ssa.Convert:
		return x.parity(v.X, at, depth+1)
	case *ssa.UnOp, *ssa.Call:
		if f := loadedField(v); f != nil {
			if p, ok := x.fieldParity(f, depth); ok {
				return p, true
			}
		}
	case *ssa.Parameter:
		if p, ok := tested(v, at); ok {
			return p, true
		}
		fn := v.Parent()
		decl := fn
		if o := fn.Origin(); o != nil {
			decl = o
		}
		if obj := decl.Object(); obj == nil || obj.Exported() {
			// Callers outside the package, or through a func value,
			// that the static calls do not show.
			return 0, false
		}
		idx := -1
		for i, p := range fn.Params {
			if p == v {
				idx = i
			}
		}
		sites := x.callSites(fn)
		if idx < 0 || len(sites) == 0 {
			return 0, false
		}
		res, set := uint64(0), false
		for _, cs := range sites {
			args := cs.in.Common().Args
			if cs.in.Common().IsInvoke() || len(args) != len(fn.Params) {
				return 0, false
			}
			p, ok := x.parity(args[idx], cs.in, depth+1)
			if !ok || set && p != res {
				return 0, false
			}
			res, set = p, true
		}
		return res, set
	}
	return tested(v, at)
}

// tested returns v's parity as a branch on v&1 == k (or !=) dominating
// at decided it.
func tested(v ssa.Value, at ssa.Instruction) (uint64, bool) {
	if at == nil || at.Block() == nil {
		return 0, false
	}
	for _, ref := range *v.Referrers() {
		and, ok := ref.(*ssa.BinOp)
		if !ok || and.Op != token.AND || and.X != v {
			continue
		}
		if n, ok := constOf(and.Y); !ok || n != 1 {
			continue
		}
		for _, u := range *and.Referrers() {
			cmp, ok := u.(*ssa.BinOp)
			if !ok || cmp.X != and || cmp.Op != token.EQL && cmp.Op != token.NEQ {
				continue
			}
			k, ok := constOf(cmp.Y)
			if !ok {
				continue
			}
			for _, cu := range *cmp.Referrers() {
				br, ok := cu.(*ssa.If)
				if !ok {
					continue
				}
				for e, s := range br.Block().Succs {
					if len(s.Preds) != 1 || !s.Dominates(at.Block()) {
						continue
					}
					// Edge 0 is taken when cmp holds.
					holds := e == 0
					if cmp.Op == token.NEQ {
						holds = !holds
					}
					if holds {
						return k & 1, true
					}
					return (k & 1) ^ 1, true
				}
			}
		}
	}
	return 0, false
}

// callSites returns fn's static call sites, also those that call it as
// an instance of the same generic function (a generic type's method
// called from another of its methods is an instance over the type's own
// parameters).
func (x *Index) callSites(fn *ssa.Function) []callSite {
	origin := fn
	if o := fn.Origin(); o != nil {
		origin = o
	}
	var out []callSite
	for g, cs := range x.calls {
		if g == fn || g.Origin() == origin {
			out = append(out, cs...)
		}
	}
	return out
}
