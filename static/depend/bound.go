package depend

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// boundKept reports whether the value a unit read at evs[i] decides
// nothing that the other units' writes of its variable in between could
// change: the unit only compares it with a bound (`x > max`), once,
// the path it took from there (Event.After) shows which way the test
// went, and each of those writes adds a constant whose sign keeps that
// outcome (a decrement keeps `x <= max`, an increment keeps `x >= min`).
// Had the unit read the variable after them, it would have taken the
// same branch and gone on as it did, so its later access depends on
// nothing stale. pond's worker reads the worker count in readTask
// (`workerCount > maxConcurrency`, not over), runs a task and, a round
// later, finds the queue empty and decrements the count; another
// worker's exit between them only lowered the count. A write of another
// kind (a store, an add of unknown or the other sign: dep.go's Teller,
// whose remote debit can make `balance < n` true), a value used
// otherwise than in that one test, unsigned counts (a decrement wraps),
// or a path that does not tell the branch stay judged.
func (x *Index) boundKept(evs []Event, i int, between []int) bool {
	a := evs[i]
	if !a.Read || a.Write || len(a.After) == 0 {
		return false
	}
	// The writes to ask about: every other goroutine's write of the
	// variable in the stretch when the schedule told them, else the
	// pattern's.
	sites := a.Others
	if sites == nil {
		for _, k := range between {
			if e := evs[k]; e.Write {
				if e.Var != a.Var {
					return false
				}
				sites = append(sites, e.Site)
			}
		}
	}
	for _, k := range between {
		if e := evs[k]; e.Write && e.Var != a.Var {
			return false
		}
	}
	var deltas []int
	for _, site := range sites {
		d, ok := x.delta(site)
		if !ok {
			return false
		}
		deltas = append(deltas, constant.Sign(d))
	}
	if len(deltas) == 0 {
		return false
	}
	inner := x.enclosing(a)
	if inner == nil {
		return false
	}
	reads := x.reads(a.Site, x.scope(inner))
	if len(reads) != 1 {
		return false
	}
	op, test, ok := boundTest(reads[0])
	if !ok {
		return false
	}
	taken, ok := x.branchTaken(test, a.After)
	if !ok {
		return false
	}
	if !taken {
		op = negate(op)
	}
	for _, d := range deltas {
		switch op {
		case token.LSS, token.LEQ: // an upper bound: kept by what lowers
			if d > 0 {
				return false
			}
		case token.GTR, token.GEQ: // a lower bound: kept by what raises
			if d < 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// boundTest follows v, a signed integer read, through conversions that
// keep its value (to a signed type at least as wide) to its one use: an
// ordering comparison with a value not computed from it, which only an
// If tests. op is the comparison with v on the left; test, the If.
func boundTest(v ssa.Value) (op token.Token, test *ssa.If, ok bool) {
	if !signedInt(v.Type()) {
		return 0, nil, false
	}
	for {
		use := soleUse(v)
		if use == nil {
			return 0, nil, false
		}
		switch u := use.(type) {
		case *ssa.Convert, *ssa.ChangeType:
			w := u.(ssa.Value)
			if !signedInt(w.Type()) || sizes.Sizeof(w.Type()) < sizes.Sizeof(v.Type()) {
				return 0, nil, false
			}
			v = w
			continue
		case *ssa.BinOp:
			op = u.Op
			switch op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
			default:
				return 0, nil, false
			}
			other := u.Y
			if u.Y == v {
				if u.X == v {
					return 0, nil, false
				}
				other, op = u.X, mirror(op)
			}
			if computedFrom(other, v) {
				return 0, nil, false
			}
			f, isIf := soleUse(u).(*ssa.If)
			if !isIf {
				return 0, nil, false
			}
			return op, f, true
		}
		return 0, nil, false
	}
}

// sizes are the sizes conversions are judged with: a 64-bit target's
// (int is as wide as int64).
var sizes = types.SizesFor("gc", "amd64")

func signedInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && b.Info()&types.IsUnsigned == 0
}

// soleUse is v's only referrer other than debug references, or nil.
func soleUse(v ssa.Value) ssa.Instruction {
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	var use ssa.Instruction
	for _, r := range *refs {
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		if use != nil {
			return nil
		}
		use = r
	}
	return use
}

// computedFrom reports whether w is computed from v (through the operands of
// the instructions defining it, phis included).
func computedFrom(w, v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var walk func(u ssa.Value) bool
	walk = func(u ssa.Value) bool {
		if u == v {
			return true
		}
		if u == nil || seen[u] {
			return false
		}
		seen[u] = true
		in, ok := u.(ssa.Instruction)
		if !ok {
			return false
		}
		for _, p := range in.Operands(nil) {
			if p != nil && walk(*p) {
				return true
			}
		}
		return false
	}
	return walk(w)
}

// mirror is op with its operands swapped: a < b is b > a.
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// negate is the comparison that holds when op does not.
func negate(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GEQ
	case token.LEQ:
		return token.GTR
	case token.GTR:
		return token.LEQ
	case token.GEQ:
		return token.LSS
	}
	return op
}

// branchTaken tells which way test went from the unit's path after the
// read (the sites of its later steps, in order): the first step at an
// instruction of test's function outside test's block must lie where
// only one of its branches leads (a successor entered from test's block
// alone, and dominating the step's block). ok is false when that step
// lies elsewhere (after the branches meet, or back before the test) or
// the path has no such step.
func (x *Index) branchTaken(test *ssa.If, after []string) (taken, ok bool) {
	fn := test.Parent()
	succs := test.Block().Succs
	for _, site := range after {
		var ins []ssa.Instruction
		for _, in := range x.instrs[site] {
			if in.Parent() == fn && in.Block() != test.Block() {
				ins = append(ins, in)
			}
		}
		if len(ins) == 0 {
			// Elsewhere, or the test's own block: the rest of the
			// condition (the bound's read), before the branch.
			continue
		}
		side := -1
		for _, in := range ins {
			s := -1
			for k, succ := range succs {
				if len(succ.Preds) == 1 && succ.Dominates(in.Block()) {
					s = k
				}
			}
			if s < 0 || side >= 0 && s != side {
				return false, false
			}
			side = s
		}
		return side == 0, true
	}
	return false, false
}
