package depend

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Checked is one call the replayed schedule shows a write's activation
// making directly (one level down) after the last write of the write's
// variable before it (Event.Checked): Call is the call's region (the
// callee's declaration site), Reads the sites it read the variable at.
type Checked struct {
	Call  string
	Reads []string
}

// checkedAlike reports whether r, another unit's plain read between the
// unit's writes a and b of one variable, returns what it would with the
// unit wholly after it, because the unit asked the same question before
// a, on the value a overwrites, and went on to a on that answer.
//   - r's function F is a predicate of the variable: every one of F's
//     loads of it only computes F's result after it (pureAfter), and
//     every return of F gives one boolean R when all of them hold what a
//     stores.
//   - The unit's own activation g calls F once (no other call of it, nor
//     one the index cannot see), on a path that reaches a only when that
//     call returned R (a's store lies below the edge of the branch on
//     F's result that R takes).
//   - The schedule shows that call (a.Checked) after the last write of
//     the variable before a, so it read the value a overwrites, and no
//     call of F by g before that write (a.Unchecked); r's activation
//     read only what a stored (r.Prior ends at a; r.Steady: its other
//     reads saw the same write; when the schedule ends inside it, no
//     load of F's can follow the last it shows).
//
// So r's F returns R, as it would have run beside the unit's check,
// where the variable held the value on which F gave R: a serial order,
// whatever r's goroutine does with R. seaweedfs/raft's Start calls Init,
// which goes on only when `!s.Running()`, then stores `s.state =
// Initialized` (:543) before Start's setState(Follower); a peer's
// RequestVote calls Running() (`state != Stopped && state !=
// Initialized`) between: false, as before the Start. No claim for a
// reader whose result depends on anything else, a check whose answer
// a's value would change, a write between the check and a, or a check
// the write's activation does not make itself.
func (x *Index) checkedAlike(a, r Event) bool {
	if !a.Write || a.Read || r.Write || !r.Read || !r.Steady || len(a.Checked) == 0 || len(a.Frames) == 0 || len(r.Frames) == 0 {
		return false
	}
	if len(r.Prior) == 0 || r.Prior[len(r.Prior)-1].Step != a.Step {
		return false
	}
	fsite := r.Frames[len(r.Frames)-1].Site
	fn := x.function(fsite)
	if fn == nil || slices.Contains(a.Unchecked, fsite) {
		return false
	}
	var check *Checked
	for k := range a.Checked {
		if a.Checked[k].Call == fsite {
			check = &a.Checked[k]
		}
	}
	if check == nil {
		return false
	}
	g := x.function(a.Frames[len(a.Frames)-1].Site)
	if g == nil || g == fn {
		return false
	}
	// Every read the check made and r itself are F's own loads of one
	// field (or package variable).
	var loads []ssa.Value
	for _, site := range append([]string{r.Site}, check.Reads...) {
		rs := x.reads(site, nil)
		if len(rs) == 0 {
			return false
		}
		for _, v := range rs {
			if v.Parent() != fn {
				return false
			}
			sib, ok := siblingReads(v)
			if !ok {
				return false
			}
			if loads == nil {
				loads = sib
			} else if !sameSet(loads, sib) {
				return false
			}
		}
	}
	for _, v := range loads {
		in, ok := v.(ssa.Instruction)
		if !ok || in.Block() == nil || !pureAfter(in) {
			return false
		}
	}
	if r.Open != "" {
		// The schedule ends inside r's activation: no load of F's
		// can follow the last it shows.
		rs := x.reads(r.Open, nil)
		if len(rs) == 0 {
			return false
		}
		for _, v := range rs {
			if !slices.Contains(loads, v) || loadFollows(v.(ssa.Instruction), loads) {
				return false
			}
		}
	}
	mids := x.stored(a.Site)
	if len(mids) == 0 {
		return false
	}
	mid := joinAll(mids)
	if !mid.ok {
		return false
	}
	res, ok := predicateOn(fn, loads, mid)
	if !ok {
		return false
	}
	out, ok := x.decidedBy(g, fn, a.Site)
	return ok && out == res
}

// sameSet reports whether u and v hold the same values.
func sameSet(u, v []ssa.Value) bool {
	if len(u) != len(v) {
		return false
	}
	in := map[ssa.Value]bool{}
	for _, w := range u {
		in[w] = true
	}
	for _, w := range v {
		if !in[w] {
			return false
		}
	}
	return true
}

// predicateOn is fn's boolean result when every one of loads holds a
// value of h, if every return of fn gives that one result.
func predicateOn(fn *ssa.Function, loads []ssa.Value, h abstract) (bool, bool) {
	holes := map[ssa.Value]bool{}
	for _, v := range loads {
		holes[v] = true
	}
	var out abstract
	n := 0
	for _, blk := range fn.Blocks {
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 {
			return false, false
		}
		for _, res := range resultValues(fn, blk, ret.Results[0]) {
			e := &evaluator{holes: holes, h: h, on: map[ssa.Value]bool{}}
			v := e.eval(res, 0)
			if n == 0 {
				out = v
			} else {
				out = join(out, v)
			}
			n++
		}
	}
	if n == 0 || !out.ok || out.integer || len(out.set) != 1 || out.set[0].Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(out.set[0]), true
}

// decidedBy returns the result of g's one call of fn on which g goes on
// to the write at site: the call is g's only one of fn (in g's own
// activation: g and the closures it runs; none through an interface or
// a function value, fn never taken as a value), its block ends in a
// branch on its result (or the result's negation), and every store at
// site in g lies below one edge of that branch, entered only from it.
func (x *Index) decidedBy(g, fn *ssa.Function, site string) (bool, bool) {
	sc := x.scope(g)
	if x.usedAsValue(fn) || x.unseenCalls(sc, fn) {
		return false, false
	}
	calls := x.ownCalls(sc, fn)
	if len(calls) != 1 {
		return false, false
	}
	call, ok := calls[0].(*ssa.Call)
	if !ok || call.Parent() != g {
		return false, false
	}
	blk := call.Block()
	br, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
	if !ok {
		return false, false
	}
	var neg bool
	switch c := br.Cond.(type) {
	case *ssa.Call:
		if c != call {
			return false, false
		}
	case *ssa.UnOp:
		if c.Op != token.NOT || c.X != call {
			return false, false
		}
		neg = true
	default:
		return false, false
	}
	var stores []ssa.Instruction
	for _, in := range x.instrs[site] {
		if _, ok := in.(*ssa.Store); ok {
			if in.Parent() != g {
				return false, false
			}
			stores = append(stores, in)
		}
	}
	if len(stores) == 0 {
		return false, false
	}
	for k, s := range blk.Succs {
		if len(s.Preds) != 1 {
			continue
		}
		all := true
		for _, st := range stores {
			if !s.Dominates(st.Block()) {
				all = false
			}
		}
		if all {
			// Succs[0] is the true edge.
			return (k == 0) != neg, true
		}
	}
	return false, false
}

// resultValues are the values a return of v in blk can give: v, or,
// when v loads the function's own result slot (a function with defers
// returns through one), every value stored in the slot, and its zero
// value for the return of the recover block, which a panic before any
// store reaches.
func resultValues(fn *ssa.Function, blk *ssa.BasicBlock, v ssa.Value) []ssa.Value {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return []ssa.Value{v}
	}
	slot, ok := ld.X.(*ssa.Alloc)
	if !ok || slot.Heap || slot.Parent() != fn {
		return []ssa.Value{v}
	}
	var out []ssa.Value
	for _, ref := range *slot.Referrers() {
		switch r := ref.(type) {
		case *ssa.Store:
			if r.Addr != slot {
				return []ssa.Value{v}
			}
			out = append(out, r.Val)
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return []ssa.Value{v}
			}
		case *ssa.DebugRef:
		default:
			return []ssa.Value{v} // its address escapes: unknown
		}
	}
	if blk == fn.Recover {
		out = append(out, ssa.NewConst(zeroOf(ld.Type()), ld.Type()))
	}
	return out
}

// zeroOf is the zero constant of a basic type (nil otherwise: no value).
func zeroOf(t types.Type) constant.Value {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return nil
	}
	switch {
	case b.Info()&types.IsBoolean != 0:
		return constant.MakeBool(false)
	case b.Info()&types.IsString != 0:
		return constant.MakeString("")
	case b.Info()&types.IsNumeric != 0:
		return constant.MakeInt64(0)
	}
	return nil
}

// loadFollows reports whether one of loads can run after in in its
// function (in itself again included, round a loop).
func loadFollows(in ssa.Instruction, loads []ssa.Value) bool {
	is := func(i ssa.Instruction) bool {
		v, ok := i.(ssa.Value)
		return ok && slices.Contains(loads, v)
	}
	blk := in.Block()
	if slices.ContainsFunc(blk.Instrs[slices.Index(blk.Instrs, in)+1:], is) {
		return true
	}
	for b := range afterBlock(blk) {
		if slices.ContainsFunc(b.Instrs, is) {
			return true
		}
	}
	return false
}
