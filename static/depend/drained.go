package depend

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// drainedEntry reports whether an inconsistent snapshot's two reads, r1
// a range over the map the writer deletes from at b (or over the slice
// it sets to nil there) and r2 an atomic swap
// of the variable the writer wrote at a, read a state the reader acts on
// as on a consistent one: the writer stored a constant c at a (its swap
// drained a flag), the reader's swap stores the same c and read what a
// left (Event.Prior: every write of it between stores c too), and in the method
// the range's body calls for the entry the swap returning c leaves nothing
// else done, as the body does nothing else (tally's final report of a
// closing root scope and its report loop's last tick: both range over the
// gauges, and the second `Swap(&g.updated, 0)` gets 0 and reports
// nothing, stats.go:129 asv).
//
// The reader then does for that entry what the serial order running the
// writer first has it do: nothing (it finds no entry, or one whose swap
// gets c), and its swap writes c over c. An entry whose swap got another
// value (an Update between), a body that counts or sends the entries, or
// a method that acts on the swap's c stays judged.
func (x *Index) drainedEntry(a, b, r1, r2 Event) bool {
	if r1.Var != b.Var || r2.Var != a.Var || a.Var == b.Var || !a.Write || !b.Write || !r2.Read || !r2.Write || r2.Prior == nil {
		return false
	}
	// The writer empties what the reader ranges over: deletes from the
	// map, or stores nil into the slice (tally's cachedReport ranges over
	// gaugesSlice, which clearMetrics sets to nil, stats.go:135 asv).
	mapped := x.deletes(b.Site) && x.mapIteration(r1.Site)
	if !mapped && !(x.storesZero(b.Site) && x.sliceLoad(r1.Site) != nil) {
		return false
	}
	c := x.storedConst(a.Site)
	if c == nil || !constEq(c, x.storedConst(r2.Site)) {
		return false
	}
	// What r2 read: a's c, or c again (tally's tick reports the root
	// scope once per registry bucket, each report swapping the flag).
	sawA := false
	for _, w := range r2.Prior {
		switch {
		case w.Step == a.Step:
			sawA = true
		case w.Step > a.Step && !constEq(c, x.storedConst(w.Site)):
			return false
		}
	}
	if !sawA {
		return false
	}
	n := len(r1.Frames)
	if n == 0 || len(r2.Frames) != n+1 || common(r1.Frames, r2.Frames) != n {
		return false
	}
	f, outer := x.function(r2.Frames[n].Site), x.function(r1.Frames[n-1].Site)
	if f == nil || outer == nil {
		return false
	}
	if !x.idleWhenSwapped(f, r2.Site, c) {
		return false
	}
	if mapped {
		return x.bodyOnlyCalls(outer, r1.Site, f)
	}
	return x.sliceBodyOnlyCalls(outer, r1.Site, f)
}

// storesZero reports whether every write at site is a plain store of a
// type's zero value (a nil slice).
func (x *Index) storesZero(site string) bool {
	c := x.constStored(site)
	if c == nil || c.Value != nil {
		return false
	}
	for _, in := range x.instrs[site] {
		if _, ok := in.(ssa.CallInstruction); ok {
			return false
		}
	}
	return true
}

// sliceLoad returns the load of a slice at site (s.items), or nil.
func (x *Index) sliceLoad(site string) *ssa.UnOp {
	var out *ssa.UnOp
	for _, in := range x.instrs[site] {
		u, ok := in.(*ssa.UnOp)
		if !ok || u.Op != token.MUL {
			continue
		}
		if _, ok := u.Type().Underlying().(*types.Slice); !ok || out != nil {
			return nil
		}
		out = u
	}
	return out
}

// sliceBodyOnlyCalls is bodyOnlyCalls for a range over the slice loaded
// at site in outer: the loop's body (the blocks from its rangeindex.body
// block back to its header) does nothing for an element but load it,
// call f with it (its result unused), and idle code; it tests nothing
// and carries nothing from one element to the next.
func (x *Index) sliceBodyOnlyCalls(outer *ssa.Function, site string, f *ssa.Function) bool {
	ld := x.sliceLoad(site)
	if ld == nil || ld.Parent() != outer || ld.Referrers() == nil {
		return false
	}
	var start *ssa.BasicBlock
	for _, r := range *ld.Referrers() {
		switch r := r.(type) {
		case *ssa.IndexAddr:
			if r.Block().Comment != "rangeindex.body" || start != nil && start != r.Block() {
				return false
			}
			start = r.Block()
		case *ssa.Call:
			if !loopBound(r) {
				return false // the slice measured for something else
			}
		case *ssa.DebugRef:
		default:
			return false // the slice handed on, or ranged twice
		}
	}
	if start == nil || len(start.Preds) != 1 || start.Preds[0].Comment != "rangeindex.loop" {
		return false
	}
	header := start.Preds[0]
	// The header holds the index's phi, its increment and the bound's
	// test; another phi carries a value from one element to the next (a
	// local count of the elements, handed on past the loop).
	for _, in := range header.Instrs {
		if phi, ok := in.(*ssa.Phi); ok && phi.Comment != "rangeindex" {
			return false
		}
	}
	calls := 0
	fns := map[*ssa.Function]bool{}
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if blk == header || seen[blk] {
			continue
		}
		seen[blk] = true
		for _, in := range blk.Instrs {
			switch in := in.(type) {
			case *ssa.Return, *ssa.Phi, *ssa.If:
				// Leaves the loop at an element, carries a value on,
				// or tests the element.
				return false
			case *ssa.IndexAddr:
				if in.X != ld {
					return false
				}
				continue
			}
			if call, ok := in.(*ssa.Call); ok && callee(call) == f {
				if hasUse(call) {
					return false
				}
				calls++
				continue
			}
			if !x.idleCode(in, fns, 0) {
				return false
			}
		}
		work = append(work, blk.Succs...)
	}
	return calls > 0
}

// storedConst returns the constant every write at site stores (an
// atomic Store or Swap, a plain store), or nil.
func (x *Index) storedConst(site string) *ssa.Const {
	var c *ssa.Const
	for _, v := range x.stored(site) {
		k, ok := unconvert(v).(*ssa.Const)
		if !ok || k.Value == nil || c != nil && !constEq(c, k) {
			return nil
		}
		c = k
	}
	return c
}

// constEq reports whether k is a constant equal to c.
func constEq(c, k *ssa.Const) bool {
	return c != nil && k != nil && sameValue(c, k)
}

// idleWhenSwapped reports whether f, its atomic swap at site returning c,
// does nothing else another goroutine can see: the swap's result is only
// compared with constants, and the paths through f that those
// comparisons leave open when it is c hold only loads, control, lock
// operations and calls of functions made of these.
func (x *Index) idleWhenSwapped(f *ssa.Function, site string, c *ssa.Const) bool {
	var swap *ssa.Call
	for _, in := range x.instrs[site] {
		call, ok := in.(*ssa.Call)
		if !ok || call.Parent() != f {
			continue
		}
		fn := call.Common().StaticCallee()
		if fn == nil || !isAtomicWrite(fn) || isAtomicCAS(fn) || !strings.HasPrefix(nameOf(fn), "Swap") {
			return false
		}
		swap = call
	}
	if swap == nil || swap.Referrers() == nil {
		return false
	}
	// known: the If a comparison of the swap's result decides, and the
	// successor it takes when the result is c.
	known := map[*ssa.If]int{}
	for _, r := range *swap.Referrers() {
		op, ok := r.(*ssa.BinOp)
		if !ok || op.Op != token.EQL && op.Op != token.NEQ || op.Referrers() == nil {
			return false
		}
		k, ok := op.Y.(*ssa.Const)
		if op.Y == swap {
			k, ok = op.X.(*ssa.Const)
		}
		if !ok || k.Value == nil {
			return false
		}
		eq := constant.Compare(c.Value, token.EQL, k.Value)
		for _, u := range *op.Referrers() {
			iff, ok := u.(*ssa.If)
			if !ok {
				if _, dbg := u.(*ssa.DebugRef); dbg {
					continue
				}
				return false
			}
			if eq == (op.Op == token.EQL) {
				known[iff] = 0
			} else {
				known[iff] = 1
			}
		}
	}
	seen := map[*ssa.BasicBlock]bool{}
	fns := map[*ssa.Function]bool{}
	work := []*ssa.BasicBlock{f.Blocks[0]}
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[blk] {
			continue
		}
		seen[blk] = true
		for _, in := range blk.Instrs {
			if in == ssa.Instruction(swap) {
				continue
			}
			if r, ok := in.(*ssa.Return); ok && len(r.Results) > 0 {
				return false // a result the caller may act on
			}
			if !x.idleCode(in, fns, 0) {
				return false
			}
		}
		if iff, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If); ok {
			if s, ok := known[iff]; ok {
				work = append(work, blk.Succs[s])
				continue
			}
		}
		work = append(work, blk.Succs...)
	}
	return true
}

// bodyOnlyCalls reports whether the body of the range over a map at site
// in outer does nothing for an entry but call f (its result unused) and
// idle code: loads, control, lock operations, calls of functions made of
// these (a name's concatenation).
func (x *Index) bodyOnlyCalls(outer *ssa.Function, site string, f *ssa.Function) bool {
	var rng *ssa.Range
	for _, in := range x.instrs[site] {
		if r, ok := in.(*ssa.Range); ok && r.Parent() == outer {
			rng = r
		}
	}
	if rng == nil || rng.Referrers() == nil {
		return false
	}
	body, ok := x.rangeBody(rng)
	if !ok {
		return false
	}
	calls := 0
	fns := map[*ssa.Function]bool{}
	for blk := range body {
		for _, in := range blk.Instrs {
			switch in := in.(type) {
			case *ssa.Return:
				return false // leaves the loop at an entry
			case *ssa.Phi:
				// A value carried from one entry to the next (a local
				// count of the entries) is handed on past the loop.
				return false
			case *ssa.If:
				// Only the iteration's own test: a body that tests
				// the entry may break or act on what it finds.
				if e, ok := in.Cond.(*ssa.Extract); !ok || !isNext(e.Tuple, rng) {
					return false
				}
				continue
			}
			if call, ok := in.(*ssa.Call); ok && callee(call) == f {
				if hasUse(call) {
					return false
				}
				calls++
				continue
			}
			if _, ok := in.(*ssa.Next); ok {
				continue // the iteration's own read of the map
			}
			if !x.idleCode(in, fns, 0) {
				return false
			}
		}
	}
	return calls > 0
}

// idleCode reports whether in changes nothing another goroutine can see
// and hands nothing on: control, loads, arithmetic, a sync.Mutex's or
// sync.RWMutex's lock and unlock, and static calls of functions made only
// of these, a few calls deep.
func (x *Index) idleCode(in ssa.Instruction, fns map[*ssa.Function]bool, depth int) bool {
	switch in := in.(type) {
	case *ssa.Jump, *ssa.If, *ssa.DebugRef, *ssa.RunDefers, *ssa.FieldAddr, *ssa.Field, *ssa.Extract, *ssa.Phi, *ssa.ChangeType, *ssa.Convert, *ssa.BinOp, *ssa.Return:
		return true
	case *ssa.UnOp:
		return in.Op == token.MUL || in.Op == token.NOT || in.Op == token.SUB || in.Op == token.XOR
	case *ssa.Call, *ssa.Defer:
		call := in.(ssa.CallInstruction)
		if call.Common().IsInvoke() {
			return false
		}
		if bi, ok := call.Common().Value.(*ssa.Builtin); ok {
			return bi.Name() == "len" || bi.Name() == "cap"
		}
		g := callee(call)
		if g == nil {
			return false
		}
		if isLockOp(g) {
			return true
		}
		if g.Blocks == nil || depth >= 3 || len(g.FreeVars) > 0 {
			return false
		}
		if fns[g] {
			return true
		}
		fns[g] = true
		for _, blk := range g.Blocks {
			for _, gin := range blk.Instrs {
				if !x.idleCode(gin, fns, depth+1) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// nameOf is fn's name, a generic method's by its origin.
func nameOf(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn.Name()
}

// isNext reports whether v is a Next of the range r.
func isNext(v ssa.Value, r *ssa.Range) bool {
	n, ok := v.(*ssa.Next)
	return ok && n.Iter == r
}

// loopBound reports whether call is a len whose only use is a range
// loop's test (the rangeindex.loop block's comparison).
func loopBound(call *ssa.Call) bool {
	bi, ok := call.Call.Value.(*ssa.Builtin)
	if !ok || bi.Name() != "len" || call.Referrers() == nil {
		return false
	}
	for _, u := range *call.Referrers() {
		if op, ok := u.(*ssa.BinOp); !ok || op.Block().Comment != "rangeindex.loop" {
			return false
		}
	}
	return true
}

// rangeBody returns the blocks of the loop that ranges with rng: those
// control dependent on a block holding one of its Next instructions,
// transitively. ok is false when rng is used otherwise than by Next.
func (x *Index) rangeBody(rng *ssa.Range) (body map[*ssa.BasicBlock]bool, ok bool) {
	outer := rng.Parent()
	cd := x.controlDeps(outer)
	body = map[*ssa.BasicBlock]bool{}
	var add func(b *ssa.BasicBlock)
	add = func(b *ssa.BasicBlock) {
		if len(b.Succs) < 2 {
			return
		}
		for _, y := range cd.dep[b.Index] {
			if blk := outer.Blocks[y]; !body[blk] {
				body[blk] = true
				add(blk)
			}
		}
	}
	for _, r := range *rng.Referrers() {
		nx, ok := r.(*ssa.Next)
		if !ok {
			return nil, false
		}
		add(nx.Block())
	}
	return body, true
}
