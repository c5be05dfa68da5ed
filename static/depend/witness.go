package depend

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// witnessKept reports whether b = evs[j], the unit's read-back of the
// variable its event evs[i] wrote, took the branch its own value would
// have taken, as an earlier read at the same site shows (Event.Witnesses,
// from the replay's own trace). The value read back reaches only an
// ordering test against a plain field load (the bound: `x >= bound`),
// through returns alone (getters, called statically) up the unit's
// activations, and every write of the variable in the program is an
// atomic add of a constant, so the replay's adds give each read's value
// relative to the unit's own (its write and its own adds, without the
// others' adds between). A witness read the same bound object, unwritten
// from its read to the unit's, took the same branch on a value between
// the unit's own and the bound (for an outcome `x < bound` a value at
// least the unit's own, for `x >= bound` at most): on its own value the
// unit would have gone as it did. golang-queue's schedule, run by a
// worker after its decrement, reads the busy count back and sends a
// wake-up when it is below workerCount; the start loop's schedule read
// the count the worker's own value gives (or more) and sent too.
//
// Without a witness nothing is known of the bound, and the rule stays
// out: a sign rule (boundKept's) would be unsound here, since undoing
// another's decrement raises the unit's value and can cross the bound,
// the "last one out" bug. An equality test (retryloop's `==`), a value
// used otherwise, a plain or non-constant write of the variable anywhere,
// a bound stored between, or a path that does not tell the branch stay
// judged.
func (x *Index) witnessKept(evs []Event, i, j int) bool {
	b := evs[j]
	if b.Bound == "" || len(b.Witnesses) == 0 {
		return false
	}
	op, test, ok := x.boundBack(b)
	if !ok {
		return false
	}
	taken, ok := x.branchTaken(test, b.Site, b.BoundAfter)
	if !ok {
		return false
	}
	if !taken {
		op = negate(op)
	}
	dir, _ := bounded(op)
	for _, w := range b.Witnesses {
		if w.Of != i {
			continue
		}
		wt, ok := x.branchTaken(test, b.Site, w.After)
		if !ok || wt != taken {
			continue
		}
		// Delta is the unit's own value minus the witness's.
		if dir > 0 && w.Delta <= 0 || dir < 0 && w.Delta >= 0 {
			return true
		}
	}
	return false
}

// boundBack follows the value read at b's site in b's innermost
// activation up its activations (Event.Frames) through returns alone,
// each in the read's (or the call's) own block, to an ordering test
// (boundTest) in the same block against a plain field load at b.Bound,
// after the read (or the call) in that block:
// the test's comparison (the read on the left) and its If. The read must
// be of a field that is only ever added to by constants (addsOnly). Each
// caller must hold one call that can run the activation below it, a
// static call (callOf).
func (x *Index) boundBack(b Event) (token.Token, *ssa.If, bool) {
	n := len(b.Frames)
	if n == 0 {
		return 0, nil, false
	}
	fn := x.function(b.Frames[n-1].Site)
	if fn == nil {
		return 0, nil, false
	}
	var v ssa.Value
	for _, r := range x.reads(b.Site, nil) {
		if in, ok := r.(ssa.Instruction); ok && in.Parent() == fn {
			if v != nil {
				return 0, nil, false
			}
			v = r
		}
	}
	if v == nil {
		return 0, nil, false
	}
	if f, _ := fieldAt(v); f == nil || !x.addsOnly(f) {
		return 0, nil, false
	}
	for k := n - 1; ; k-- {
		in, ok := v.(ssa.Instruction)
		if !ok {
			return 0, nil, false
		}
		if op, test, bound, ok := boundTest(v); ok {
			if in.Block() != test.Block() || !x.loadsAt(bound, b.Bound) || !after(in, unconvert(bound)) {
				return 0, nil, false
			}
			return op, test, true
		}
		ret, isRet := soleUse(v).(*ssa.Return)
		if !isRet || len(ret.Results) != 1 || ret.Block() != in.Block() || k == 0 {
			return 0, nil, false
		}
		caller := x.function(b.Frames[k-1].Site)
		if caller == nil {
			return 0, nil, false
		}
		call := callOf(caller, fn)
		if call == nil {
			return 0, nil, false
		}
		v, fn = call, caller
	}
}

// loadsAt reports whether bound is a plain load of a field at site (the
// load or the field's address there).
func (x *Index) loadsAt(bound ssa.Value, site string) bool {
	if f, _ := loadedFieldAt(bound); f == nil {
		return false
	}
	ld := unconvert(bound).(*ssa.UnOp)
	for _, in := range x.instrs[site] {
		if v, ok := in.(ssa.Value); ok && (v == ld || v == ld.X) {
			return true
		}
	}
	return false
}

// after reports whether v is an instruction of in's block that comes
// after in: every run that reaches v has just run in (the bound's load
// after the call that reads the count, so the last read of the count
// before a read of the bound at its site, with only region ends between,
// is that call's).
func after(in ssa.Instruction, v ssa.Value) bool {
	w, ok := v.(ssa.Instruction)
	if !ok || w.Block() != in.Block() {
		return false
	}
	instrs := in.Block().Instrs
	return slices.Index(instrs, w) > slices.Index(instrs, in)
}

// callOf returns caller's one call that can run fn, a static call of
// it; nil when there is none, or another call that might run fn (an
// interface method call whose interface fn's receiver implements, or a
// call of a function value). The taint that finds the read-back's use
// (usesAs, lift) goes up static calls alone too.
func callOf(caller, fn *ssa.Function) *ssa.Call {
	var out *ssa.Call
	for _, blk := range caller.Blocks {
		for _, in := range blk.Instrs {
			ci, ok := in.(ssa.CallInstruction)
			if !ok {
				continue
			}
			com := ci.Common()
			if _, isBuiltin := com.Value.(*ssa.Builtin); !com.IsInvoke() && callee(ci) == nil && !isBuiltin {
				return nil
			}
			if !calls(ci, fn) {
				continue
			}
			c, isCall := ci.(*ssa.Call)
			if !isCall || callee(ci) != fn || out != nil {
				return nil
			}
			out = c
		}
	}
	return out
}

// addsOnly reports whether every use of field f's address in the index
// is a plain load or an atomic Load or Add of a signed constant: its
// every write an add of a known constant. An exported field, which code
// outside the index may write, is not.
func (x *Index) addsOnly(f *types.Var) bool {
	if f.Exported() {
		return false
	}
	for fa := range x.fieldAddrs(f) {
		if fa.Referrers() == nil {
			continue
		}
		for _, r := range *fa.Referrers() {
			if !loadOrAdd(r, fa) {
				return false
			}
		}
	}
	return true
}

// loadOrAdd reports whether r, a use of address a, only loads through it
// (plainly or atomically) or adds a signed constant to it atomically.
func loadOrAdd(r ssa.Instruction, a ssa.Value) bool {
	switch r := r.(type) {
	case *ssa.DebugRef:
		return true
	case *ssa.UnOp:
		return r.Op == token.MUL
	case *ssa.Call:
		com := r.Common()
		name := atomicName(com.StaticCallee())
		if len(com.Args) == 0 || com.Args[0] != a {
			return false
		}
		switch {
		case strings.HasPrefix(name, "Load") && len(com.Args) == 1:
			return true
		case strings.HasPrefix(name, "Add") && len(com.Args) == 2:
			k, ok := unconvert(com.Args[1]).(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
				return false
			}
			bt, ok := k.Type().Underlying().(*types.Basic)
			return ok && bt.Info()&types.IsUnsigned == 0
		}
	}
	return false
}
