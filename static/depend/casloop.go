package depend

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// retryRead reports whether b, a read-back of a variable the unit wrote,
// is a read of a compare-and-swap retry loop on that variable: the load
// whose value a CAS of the variable expects, or that CAS itself, in a
// loop that goes back to the load whenever the CAS fails (ctrie's RDCSS:
// rdcssComplete loads the root, CASes against what it loaded, and loads
// again on failure; casRoot is the CAS, called with the loaded root).
//
// Such a loop comes back to its load exactly when another goroutine
// wrote the variable since the load (the CAS failed), so the code after
// the load is written for a value another goroutine stored: reading one
// there after the unit's own write is the round the loop makes anyway,
// not a value the unit takes for its own. The CAS, in turn, reads back
// nothing: it writes only if the variable still holds the value just
// loaded, and its failure sends the unit to load again. A load whose CAS
// gives up on failure (returns, or uses the loaded value otherwise)
// stays judged.
func (x *Index) retryRead(b Event) bool {
	if !b.Read {
		return false
	}
	if expected, cas := x.casExpected(b.Site); cas != nil {
		return x.retryCAS(b, unconvert(expected), cas.(*ssa.Call))
	}
	found := false
	for _, in := range x.instrs[b.Site] {
		v, ok := in.(ssa.Value)
		if !ok {
			continue
		}
		loc := loadLocation(v)
		if loc == nil {
			// A slot no variable names (an index array's, by pointer
			// arithmetic: cornelk/hashmap's store.addItem): retried
			// when a CAS in the load's function swaps through the very
			// pointer the load read, expecting the value loaded.
			if addr := loadedAddr(v); addr != nil && retriedSlot(v, unconvert(addr)) {
				found = true
			}
			continue
		}
		if !x.retriedLoad(v, loc) && !x.retriedGet(b, v, loc) {
			return false
		}
		found = true
	}
	return found
}

// retriedGet reports whether v, b's load of loc, is a getter's (its
// function returns v and nothing else: cep21/circuit's AtomicInt64.Get)
// and every call of that getter in the function of b's frame above is
// a retry loop's load there (retriedLoad): the getter's call stands for
// the load.
func (x *Index) retriedGet(b Event, v ssa.Value, loc any) bool {
	n := len(b.Frames)
	g := v.Parent()
	if n < 2 || x.function(b.Frames[n-1].Site) != g || !eachReturn(g, func(r ssa.Value, _ *ssa.Return) bool { return r == v }) {
		return false
	}
	calls := directCalls(x.function(b.Frames[n-2].Site), g)
	for _, c := range calls {
		if !x.retriedLoad(c, loc) {
			return false
		}
	}
	return len(calls) > 0
}

// retryCAS reports whether the CAS call cas, expecting expected, is a
// retry loop's: expected is a load of the CAS's variable whose failure
// branch leads back to it, either in cas's own function, or, when
// expected is a parameter of a wrapper returning the CAS's result, at
// every call of the wrapper in the activation b's frames name as its
// caller (every call site of the wrapper, without such a frame).
func (x *Index) retryCAS(b Event, expected ssa.Value, cas *ssa.Call) bool {
	loc := casLocation(cas)
	if loc == nil {
		return false
	}
	if expected.Parent() == cas.Parent() {
		if v := loadBase(expected, loc, cas); v != nil {
			return failsBack(cas, v)
		}
	}
	p, ok := expected.(*ssa.Parameter)
	if !ok {
		return false
	}
	g := cas.Parent()
	if !returnsOnly(g, cas) {
		return false
	}
	idx := -1
	for i, q := range g.Params {
		if q == p {
			idx = i
		}
	}
	if idx < 0 {
		return false
	}
	var caller *ssa.Function
	if n := len(b.Frames); n >= 2 && x.function(b.Frames[n-1].Site) == g {
		caller = x.function(b.Frames[n-2].Site)
	}
	n := 0
	for _, cs := range x.callSites(g) {
		if caller != nil && cs.fn != caller {
			continue
		}
		call, ok := cs.in.(*ssa.Call)
		if !ok || idx >= len(call.Call.Args) {
			return false
		}
		l := unconvert(call.Call.Args[idx])
		if loadLocation(l) != loc || l.Parent() != call.Parent() || !failsBack(call, l) {
			return false
		}
		n++
	}
	return n > 0
}

// retriedLoad reports whether some CAS of loc in v's function (or a call
// of a wrapper that returns one) expects v, the load of loc, and goes
// back to v when it fails.
func (x *Index) retriedLoad(v ssa.Value, loc any) bool {
	for _, blk := range v.Parent().Blocks {
		for _, in := range blk.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			if x.expectsLoad(call, v, loc) && failsBack(call, v) {
				return true
			}
		}
	}
	return false
}

// retriedSlot reports whether a CAS through addr itself (the same SSA
// pointer value, so the same address in any one call) in v's function
// expects v, v's load of addr, and goes back to v when it fails.
func retriedSlot(v, addr ssa.Value) bool {
	for _, blk := range v.Parent().Blocks {
		for _, in := range blk.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok || call.Call.StaticCallee() == nil || !isAtomicCAS(call.Call.StaticCallee()) || len(call.Call.Args) != 3 {
				continue
			}
			if unconvert(call.Call.Args[0]) == addr && unconvert(call.Call.Args[1]) == v && failsBack(call, v) {
				return true
			}
		}
	}
	return false
}

// expectsLoad reports whether call is a CAS of loc whose expected value
// is v, directly or through a wrapper that returns the CAS's result.
func (x *Index) expectsLoad(call *ssa.Call, v ssa.Value, loc any) bool {
	args := call.Call.Args
	fn := call.Call.StaticCallee()
	if fn == nil {
		return false
	}
	if isAtomicCAS(fn) {
		if _, got := v.(*ssa.Call); got && loadedAddr(v) == nil && !gotFrom(v, call) {
			return false
		}
		return len(args) == 3 && casLocation(call) == loc && steppedFrom(unconvert(args[1]), v)
	}
	if fn.Blocks == nil {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			c, ok := in.(*ssa.Call)
			if !ok || c.Call.StaticCallee() == nil || !isAtomicCAS(c.Call.StaticCallee()) || len(c.Call.Args) != 3 || casLocation(c) != loc || !returnsOnly(fn, c) {
				continue
			}
			p, ok := unconvert(c.Call.Args[1]).(*ssa.Parameter)
			if !ok {
				continue
			}
			for i, q := range fn.Params {
				if q == p && i < len(args) && unconvert(args[i]) == v {
					return true
				}
			}
		}
	}
	return false
}

// loadBase returns the load of loc that e, the expected value of cas,
// is (loadLocation), or the call of a getter of what cas swaps (gotFrom),
// or that e steps from as a loop's counter (steppedFrom); nil if none.
func loadBase(e ssa.Value, loc any, cas *ssa.Call) ssa.Value {
	base := e
	if phi, ok := e.(*ssa.Phi); ok {
		base = nil
		for _, edge := range phi.Edges {
			if edge = unconvert(edge); edge != nil && steppedFrom(phi, edge) {
				if _, isStep := edge.(*ssa.BinOp); !isStep {
					base = edge
				}
			}
		}
	}
	if base == nil || loadLocation(base) != loc && !gotFrom(base, cas) {
		return nil
	}
	return base
}

// gotFrom reports whether v is a call of a getter of the variable the
// CAS call swaps: a function whose every return returns a load, and
// nothing else, of its first parameter's field f (cep21/circuit's
// AtomicInt64.Get returns a.Load(), of the embedded atomic.Int64),
// called on what names the same variable as the struct whose field f the
// CAS swaps (r.LastAbsIndex.Get() and r.LastAbsIndex.CompareAndSwap),
// or of a package variable the CAS swaps.
func gotFrom(v ssa.Value, cas *ssa.Call) bool {
	call, ok := v.(*ssa.Call)
	if !ok || len(cas.Call.Args) == 0 {
		return false
	}
	g := call.Call.StaticCallee()
	if g == nil || g.Blocks == nil || len(g.Params) == 0 || len(call.Call.Args) == 0 {
		return false
	}
	target := unconvert(cas.Call.Args[0])
	return eachReturn(g, func(r ssa.Value, _ *ssa.Return) bool {
		addr := loadedAddr(r)
		if addr == nil {
			return false
		}
		switch addr := unconvert(addr).(type) {
		case *ssa.Global:
			return addr == target
		case *ssa.FieldAddr:
			t, ok := target.(*ssa.FieldAddr)
			if !ok || addr.X != ssa.Value(g.Params[0]) || t.Field != addr.Field || !types.Identical(t.X.Type(), addr.X.Type()) {
				return false
			}
			recv, obj := unconvert(call.Call.Args[0]), unconvert(t.X)
			if recv == obj {
				return true
			}
			l := addrLocation(recv)
			return l != nil && l == addrLocation(obj)
		}
		return false
	})
}

// steppedFrom reports whether e is v, or a loop's counter that starts at
// v and only steps by constants (cep21/circuit's Advance CASes the index
// from last, then from last+1 after that CAS swapped, each round): a CAS
// expecting it fails whenever another goroutine moved the variable since
// v was loaded or since the unit's own last CAS.
func steppedFrom(e, v ssa.Value) bool {
	if e == v {
		return true
	}
	phi, ok := e.(*ssa.Phi)
	if !ok {
		return false
	}
	start := false
	for _, edge := range phi.Edges {
		edge = unconvert(edge)
		if edge == v {
			start = true
			continue
		}
		step, ok := edge.(*ssa.BinOp)
		if !ok || step.Op != token.ADD && step.Op != token.SUB {
			return false
		}
		_, isConst := step.Y.(*ssa.Const)
		if unconvert(step.X) != ssa.Value(phi) || !isConst {
			return false
		}
	}
	return start
}

// returnsOnly reports whether every return of g returns the CAS's result
// as g's only result.
func returnsOnly(g *ssa.Function, cas *ssa.Call) bool {
	n := 0
	for _, blk := range g.Blocks {
		if len(blk.Instrs) == 0 {
			continue
		}
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 || unconvert(ret.Results[0]) != ssa.Value(cas) {
			return false
		}
		n++
	}
	return n > 0
}

// failsBack reports whether call's boolean result is tested by a branch
// whose failure side reaches the load v's block on every path, with no
// return or panic before it: the loop loads again after a failed CAS. A
// block that returns a call of the loop's own function with its own
// parameters, unchanged, counts as the load's (reCall: a retry written
// as recursion, cep21/circuit's `return r.Advance(now, clearBucket)`),
// when v is loaded in that function.
func failsBack(call *ssa.Call, v ssa.Value) bool {
	load, ok := v.(ssa.Instruction)
	if !ok || call.Referrers() == nil {
		return false
	}
	target := load.Block()
	fn := load.Parent()
	back := func(b *ssa.BasicBlock) bool { return b == target || fn == call.Parent() && reCall(b, fn) }
	tested := false
	var check func(cond ssa.Value, failure int) bool
	check = func(cond ssa.Value, failure int) bool {
		for _, r := range *cond.Referrers() {
			switch r := r.(type) {
			case *ssa.If:
				tested = true
				if !reachesOnlyAt(r.Block().Succs[failure], back) {
					return false
				}
			case *ssa.UnOp:
				if r.Op != token.NOT || r.Referrers() == nil || !check(r, 1-failure) {
					return false
				}
			default:
				return false // the outcome used otherwise: not only a retry
			}
		}
		return true
	}
	return check(call, 1) && tested
}

// reachesOnly reports whether every path from start reaches target
// before leaving the function.
func reachesOnly(start, target *ssa.BasicBlock) bool {
	return reachesOnlyAt(start, func(b *ssa.BasicBlock) bool { return b == target })
}

// reCall reports whether b ends by returning a call of fn, b's own
// function, with fn's own parameters, unchanged, and its results only
// (`return r.Advance(now, clearBucket)`): the call runs fn's body again
// from the top on the same receiver and arguments, as a loop's back
// edge would, and fn's caller gets what that round returns.
func reCall(b *ssa.BasicBlock, fn *ssa.Function) bool {
	if len(b.Instrs) < 2 || len(fn.FreeVars) > 0 {
		return false
	}
	ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
	if !ok {
		return false
	}
	var call *ssa.Call
	for _, in := range b.Instrs {
		if c, ok := in.(*ssa.Call); ok && c.Call.StaticCallee() == fn {
			call = c
		}
	}
	if call == nil || len(call.Call.Args) != len(fn.Params) {
		return false
	}
	for i, a := range call.Call.Args {
		if a != ssa.Value(fn.Params[i]) && !paramCell(a, fn.Params[i]) {
			return false // even a conversion there may change the value
		}
	}
	for i, r := range ret.Results {
		if len(ret.Results) == 1 && r == ssa.Value(call) {
			continue
		}
		if e, ok := r.(*ssa.Extract); !ok || e.Tuple != ssa.Value(call) || e.Index != i {
			return false
		}
	}
	return true
}

// paramCell reports whether a loads the cell that holds parameter p
// because p's address is taken (lockfree's Enqueue(v) stores &v into
// its slot, and retries with `return rb.Enqueue(v)`), and the cell still
// holds p there: its only store is p's, and no other use of the cell
// (its address passed on, which lets others write it) comes before a on
// any path.
func paramCell(a ssa.Value, p *ssa.Parameter) bool {
	ld, ok := a.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	cell, ok := ld.X.(*ssa.Alloc)
	if !ok || cell.Referrers() == nil {
		return false
	}
	stored := false
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != ssa.Value(cell) || r.Val != ssa.Value(p) || stored {
				return false
			}
			stored = true
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		default:
			if r.Block() == ld.Block() || reachable(r.Block(), ld.Block()) {
				return false
			}
		}
	}
	return stored
}

// reachable reports whether some path leads from block from to block to.
func reachable(from, to *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(b *ssa.BasicBlock) bool
	walk = func(b *ssa.BasicBlock) bool {
		for _, s := range b.Succs {
			if s == to {
				return true
			}
			if !seen[s] {
				seen[s] = true
				if walk(s) {
					return true
				}
			}
		}
		return false
	}
	return walk(from)
}

// reachesOnlyAt reports whether every path from start reaches a block
// at which done holds before leaving the function.
func reachesOnlyAt(start *ssa.BasicBlock, done func(*ssa.BasicBlock) bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(b *ssa.BasicBlock) bool
	walk = func(b *ssa.BasicBlock) bool {
		if done(b) {
			return true
		}
		if seen[b] {
			return true // a cycle that has not left: judged on its other paths
		}
		seen[b] = true
		if len(b.Succs) == 0 {
			return false
		}
		for _, s := range b.Succs {
			if !walk(s) {
				return false
			}
		}
		return true
	}
	return walk(start)
}

// loadLocation names the variable v loads (a plain load or an atomic
// Load, its address through conversions), or nil.
func loadLocation(v ssa.Value) any {
	if addr := loadedAddr(v); addr != nil {
		return addrLocation(unconvert(addr))
	}
	return nil
}

// casLocation names the variable the CAS call swaps.
func casLocation(cas *ssa.Call) any {
	if len(cas.Call.Args) == 0 {
		return nil
	}
	return addrLocation(unconvert(cas.Call.Args[0]))
}

// retriedAfter reports whether b is a retry loop's CAS (retryRead) whose
// loop runs in an activation that does not hold a, so began after it:
// the CAS writes only if the variable still holds a value loaded after
// a's write, the state a left validated afresh (published). Without the
// activations to tell, no claim.
func (x *Index) retriedAfter(a, b Event) bool {
	expected, cas := x.casExpected(b.Site)
	if cas == nil || !x.retryRead(b) {
		return false
	}
	n := len(b.Frames)
	loop := n - 1 // the CAS's own function loads
	if _, ok := unconvert(expected).(*ssa.Parameter); ok {
		loop = n - 2 // the wrapper's caller loads
	}
	if loop < 0 {
		return false
	}
	for _, f := range a.Frames {
		if f.ID == b.Frames[loop].ID {
			return false
		}
	}
	return true
}

// casThenRetried reports whether a is a compare-and-swap that swapped (an
// atomic read-modify-write at a CAS site: a failed one is recorded as a
// load) and b a retry loop's CAS begun after it (retriedAfter). a's
// check and its write are one atomic step, the unit's own reservation
// (as Event.Claimed's check and write under one lock), and b writes only
// if the variable still holds a value its loop loaded after another
// goroutine's write: what a decided (ctrie's snapshot trying its RDCSS
// again) is acted on only through a fresh validation. A plain load
// deciding a later CAS loop, or a CAS followed by a blind write, stays
// judged.
func (x *Index) casThenRetried(a, b Event) bool {
	return a.Read && a.Write && x.IsCAS(a.Site) && x.retriedAfter(a, b)
}

// maxChain bounds the calls casRetried follows on each side of the
// activation a's load and b's CAS share.
const maxChain = 4

// casRetried reports whether b is a compare-and-swap of a's variable
// from the value a loaded, in a retry loop, with the load and the CAS
// each up to maxChain calls below the activation they share (ctrie's
// snapshot: readRoot → rdcssReadRoot loads the root, rdcssRoot → casRoot
// CASes it from that value, a failed CAS makes rdcssRoot return false and
// snapshot loads again). It holds when
//   - every call between a's load and the shared activation returns the
//     load, or a value of the variable taken after it (currentValue:
//     rdcssReadRoot hands over to rdcssComplete when it meets a
//     descriptor, which returns a fresh load or the value it just swapped
//     in);
//   - the CAS's expected value is that returned value, passed down
//     through one call per level as a parameter;
//   - each call between the CAS and the shared activation returns false
//     whenever the CAS failed (failsFalse: its result, false, or any
//     value only on the CAS's success branch);
//   - in the shared activation a false result leads back, on every path,
//     to the call that loaded (failsBack), and no other call there of
//     a's method reaches the CAS's call (a's load is the one it expects).
//
// Then another goroutine's write between a and b makes the CAS fail and
// the unit load again (barring ABA, which no dependence tells): what a's
// value decided is acted on only if the variable still holds it, as
// casAgainst says of a CAS in the loading function itself. A CAS whose
// failure is returned as true, or gives up, or that expects another
// value, stays judged.
func (x *Index) casRetried(a, b Event) bool {
	if !a.Read || !b.Read || !b.Write || a.Var != b.Var {
		return false
	}
	expected, in := x.casExpected(b.Site)
	if in == nil {
		return false
	}
	cas := in.(*ssa.Call)
	loc := casLocation(cas)
	c := common(a.Frames, b.Frames)
	if loc == nil || c == 0 || len(a.Frames)-c > maxChain || len(b.Frames)-c > maxChain {
		return false
	}
	shared := x.function(a.Frames[c-1].Site)
	if shared == nil {
		return false
	}
	vals := x.loadedUp(a, loc, c)
	if vals == nil {
		return false
	}
	// Down from the shared activation to the CAS: its expected value
	// passed as a parameter, its failure returned as false.
	cur, exp := cas, unconvert(expected)
	for k := len(b.Frames) - 1; cur.Parent() != shared; k-- {
		fn := cur.Parent()
		if k < c || x.function(b.Frames[k].Site) != fn || !failsFalse(fn, cur) {
			return false
		}
		p, ok := exp.(*ssa.Parameter)
		if !ok {
			return false
		}
		idx := slices.Index(fn.Params, p)
		calls := directCalls(x.function(b.Frames[k-1].Site), fn)
		if idx < 0 || len(calls) != 1 || idx >= len(calls[0].Call.Args) {
			return false
		}
		cur, exp = calls[0], unconvert(calls[0].Call.Args[idx])
	}
	if !vals[exp] || !failsBack(cur, exp) {
		return false
	}
	for v := range vals {
		if in, ok := v.(ssa.Instruction); ok && v != exp && reaches(in, cur) {
			return false
		}
	}
	return true
}

// directCalls returns the static calls of fn in parent's own body.
func directCalls(parent, fn *ssa.Function) []*ssa.Call {
	if parent == nil {
		return nil
	}
	var out []*ssa.Call
	for _, blk := range parent.Blocks {
		for _, in := range blk.Instrs {
			if call, ok := in.(*ssa.Call); ok && call.Call.StaticCallee() == fn {
				out = append(out, call)
			}
		}
	}
	return out
}

// returnsCurrent reports whether every return of fn returns one of vals
// (the load, or its callee's call), or the result of a call made after
// one of them on every path that returns a current value of loc (freshReturns).
func returnsCurrent(fn *ssa.Function, vals map[ssa.Value]bool, loc any) bool {
	return eachReturn(fn, func(r ssa.Value, _ *ssa.Return) bool {
		if vals[r] {
			return true
		}
		call, ok := r.(*ssa.Call)
		if !ok || !freshReturns(call.Call.StaticCallee(), loc, maxChain) {
			return false
		}
		for v := range vals {
			if in, ok := v.(ssa.Instruction); ok && in.Parent() == fn && before(in, call) {
				return true
			}
		}
		return false
	})
}

// freshReturns reports whether every return of fn gives a value loc held
// during the call: one loaded from it there, the new value of a CAS of it
// returned only on the CAS's success branch, or such a call's result
// (ctrie's rdcssComplete: the root it loaded without a descriptor, or
// the one it swapped in).
func freshReturns(fn *ssa.Function, loc any, depth int) bool {
	if fn == nil || fn.Blocks == nil || depth == 0 {
		return false
	}
	return eachReturn(fn, func(r ssa.Value, ret *ssa.Return) bool {
		if loadLocation(r) == loc {
			return true
		}
		if call, ok := r.(*ssa.Call); ok && freshReturns(call.Call.StaticCallee(), loc, depth-1) {
			return true
		}
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				call, ok := in.(*ssa.Call)
				if !ok {
					continue
				}
				if nv, ok := casNew(call, loc, depth); ok && nv == r && onSuccess(call, ret.Block()) {
					return true
				}
			}
		}
		return false
	})
}

// casNew returns the new value of call when it is a CAS of loc, directly
// or through wrappers returning the CAS's result (casRoot).
func casNew(call *ssa.Call, loc any, depth int) (ssa.Value, bool) {
	return casArg(call, loc, depth, 2)
}

// casArg returns the CAS's argument arg (1: the expected value, 2: the
// new one) as call passes it, when call is a CAS of loc, directly or
// through wrappers returning the CAS's result.
func casArg(call *ssa.Call, loc any, depth, arg int) (ssa.Value, bool) {
	fn := call.Call.StaticCallee()
	if fn == nil || depth == 0 {
		return nil, false
	}
	if isAtomicCAS(fn) {
		if len(call.Call.Args) == 3 && casLocation(call) == loc {
			return unconvert(call.Call.Args[arg]), true
		}
		return nil, false
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			inner, ok := in.(*ssa.Call)
			if !ok || !returnsOnly(fn, inner) {
				continue
			}
			nv, ok := casArg(inner, loc, depth-1, arg)
			p, isParam := nv.(*ssa.Parameter)
			if !ok || !isParam {
				continue
			}
			if i := slices.Index(fn.Params, p); i >= 0 && i < len(call.Call.Args) {
				return unconvert(call.Call.Args[i]), true
			}
		}
	}
	return nil, false
}

// eachReturn reports whether ok holds of every return of fn, each with
// one result (through phis and conversions), and fn returns.
func eachReturn(fn *ssa.Function, ok func(r ssa.Value, ret *ssa.Return) bool) bool {
	n := 0
	for _, blk := range fn.Blocks {
		if len(blk.Instrs) == 0 {
			continue
		}
		ret, isRet := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !isRet {
			continue
		}
		if len(ret.Results) != 1 || !phiAll(unconvert(ret.Results[0]), func(v ssa.Value) bool { return ok(v, ret) }, 0) {
			return false
		}
		n++
	}
	return n > 0
}

// phiAll reports whether ok holds of v, or of every edge of v when v is a
// phi (nested up to a few levels).
func phiAll(v ssa.Value, ok func(ssa.Value) bool, depth int) bool {
	phi, isPhi := v.(*ssa.Phi)
	if !isPhi {
		return ok(v)
	}
	if depth > 4 {
		return false
	}
	for _, e := range phi.Edges {
		if !phiAll(unconvert(e), ok, depth+1) {
			return false
		}
	}
	return true
}

// failsFalse reports whether fn returns false whenever call (a CAS, or a
// call returning one's result) returned false: every return reached
// after the call returns the call's result, the constant false, or
// anything only on the branch the call's true result takes. The result
// serves only those branches and returns.
func failsFalse(fn *ssa.Function, call *ssa.Call) bool {
	if call.Referrers() == nil {
		return false
	}
	var succ []*ssa.BasicBlock // the blocks entered only on success
	var walk func(v ssa.Value, success int) bool
	walk = func(v ssa.Value, success int) bool {
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.If:
				if s := r.Block().Succs[success]; len(s.Preds) == 1 {
					succ = append(succ, s)
				}
			case *ssa.UnOp:
				if r.Op != token.NOT || r.Referrers() == nil || !walk(r, 1-success) {
					return false
				}
			case *ssa.Return:
			default:
				return false
			}
		}
		return true
	}
	if !walk(call, 0) {
		return false
	}
	n := 0
	for _, blk := range fn.Blocks {
		if len(blk.Instrs) == 0 {
			continue
		}
		ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return)
		if !ok || !reaches(call, ret) {
			continue
		}
		n++
		if len(ret.Results) != 1 {
			return false
		}
		r := unconvert(ret.Results[0])
		if r == ssa.Value(call) || isFalse(r) || slices.ContainsFunc(succ, func(s *ssa.BasicBlock) bool { return s.Dominates(blk) }) {
			continue
		}
		return false
	}
	return n > 0
}

// onSuccess reports whether blk is entered only on the true branch of a
// test of call's result.
func onSuccess(call *ssa.Call, blk *ssa.BasicBlock) bool {
	if call.Referrers() == nil {
		return false
	}
	for _, r := range *call.Referrers() {
		if f, ok := r.(*ssa.If); ok {
			if s := f.Block().Succs[0]; len(s.Preds) == 1 && s.Dominates(blk) {
				return true
			}
		}
	}
	return false
}

func isFalse(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Bool && !constant.BoolVal(c.Value)
}

// before reports whether from runs before to on every path to it: earlier
// in one block, or in a block dominating to's.
func before(from, to ssa.Instruction) bool {
	fb, tb := from.Block(), to.Block()
	if fb == tb {
		return slices.Index(fb.Instrs, from) < slices.Index(fb.Instrs, to)
	}
	return fb.Dominates(tb)
}

// reaches reports whether some path leads from from to to in their
// function.
func reaches(from, to ssa.Instruction) bool {
	fb, tb := from.Block(), to.Block()
	if fb == tb && slices.Index(fb.Instrs, from) < slices.Index(fb.Instrs, to) {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := slices.Clone(fb.Succs)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == tb {
			return true
		}
		if !seen[b] {
			seen[b] = true
			work = append(work, b.Succs...)
		}
	}
	return false
}

// loadedUp returns the values, in the activation a shares with another
// event (its frame c-1), that hold what a loaded from loc: a's load, or
// the calls of the methods of a's frames below, each of which returns
// the load or a current value of loc taken after it (returnsCurrent);
// nil when a's value does not come up so.
func (x *Index) loadedUp(a Event, loc any, c int) map[ssa.Value]bool {
	if c < 1 || len(a.Frames)-c > maxChain {
		return nil
	}
	load := x.function(a.Frames[len(a.Frames)-1].Site)
	if load == nil {
		return nil
	}
	vals := map[ssa.Value]bool{}
	for _, in := range x.instrs[a.Site] {
		if v, ok := in.(ssa.Value); ok && in.Parent() == load && loadLocation(v) == loc {
			vals[v] = true
		}
	}
	if len(vals) == 0 {
		return nil
	}
	for i := len(a.Frames) - 1; i >= c; i-- {
		fn, parent := x.function(a.Frames[i].Site), x.function(a.Frames[i-1].Site)
		if fn == nil || parent == nil || !returnsCurrent(fn, vals, loc) {
			return nil
		}
		vals = map[ssa.Value]bool{}
		for _, call := range directCalls(parent, fn) {
			vals[call] = true
		}
		if len(vals) == 0 {
			return nil
		}
	}
	return vals
}

// validatedThenRetried reports whether b is a retry loop's CAS
// (retryRead) entered only after the unit's CAS from a's value swapped:
// a's value comes up to the activation a and b share (loadedUp), is
// passed to the method of b's next frame, and that method calls the one
// holding b's loop (or leading to it) only on the success branch of a
// CAS of the variable expecting that parameter (through wrappers
// returning the CAS's result). ctrie's snapshot: readRoot loads the root,
// rdcssRoot CASes a descriptor in from it, and only then calls
// rdcssComplete, whose loop loads the root afresh and CASes from that.
//
// The CAS that swapped read a's value still in the variable: a's check
// held at that moment, and the CAS is the unit's reservation (as
// casThenRetried says of a CAS event). Another goroutine's write after it
// meets b's loop, which acts only on a value loaded after that write. A
// load deciding the call of a retry loop without such a CAS between (an
// increment loop run if a flag read earlier was clear) stays judged.
func (x *Index) validatedThenRetried(a, b Event) bool {
	if !a.Read || !b.Read || !b.Write || a.Var != b.Var || !x.retryRead(b) {
		return false
	}
	expected, in := x.casExpected(b.Site)
	if in == nil {
		return false
	}
	loc := casLocation(in.(*ssa.Call))
	c := common(a.Frames, b.Frames)
	n := len(b.Frames)
	// The frame of b's retry loop: the CAS's own function, or its
	// wrapper's caller; below the validating method.
	loop := n - 1
	if _, ok := unconvert(expected).(*ssa.Parameter); ok {
		loop = n - 2
	}
	if loc == nil || c < 1 || loop < c+1 {
		return false
	}
	shared, g, next := x.function(a.Frames[c-1].Site), x.function(b.Frames[c].Site), x.function(b.Frames[c+1].Site)
	vals := x.loadedUp(a, loc, c)
	if shared == nil || g == nil || next == nil || vals == nil {
		return false
	}
	calls := directCalls(shared, g)
	if len(calls) != 1 {
		return false
	}
	gcall := calls[0]
	passed := map[ssa.Value]bool{}
	for _, arg := range gcall.Call.Args {
		passed[unconvert(arg)] = true
	}
	for v := range vals {
		if in, ok := v.(ssa.Instruction); ok && !passed[v] && reaches(in, gcall) {
			return false // another call of a's method may be the load that counts
		}
	}
	nexts := directCalls(g, next)
	if len(nexts) == 0 {
		return false
	}
	for _, nc := range nexts {
		if !x.afterCASFrom(g, gcall, vals, nc, loc) {
			return false
		}
	}
	return true
}

// afterCASFrom reports whether the call nc in g runs only on the success
// branch of a CAS of loc in g (direct, or through wrappers) whose
// expected value is a parameter of g that gcall passes one of vals.
func (x *Index) afterCASFrom(g *ssa.Function, gcall *ssa.Call, vals map[ssa.Value]bool, nc *ssa.Call, loc any) bool {
	for _, blk := range g.Blocks {
		for _, in := range blk.Instrs {
			cc, ok := in.(*ssa.Call)
			if !ok || !onSuccess(cc, nc.Block()) {
				continue
			}
			exp, ok := casArg(cc, loc, maxChain, 1)
			p, isParam := exp.(*ssa.Parameter)
			if !ok || !isParam {
				continue
			}
			if i := slices.Index(g.Params, p); i >= 0 && i < len(gcall.Call.Args) && vals[unconvert(gcall.Call.Args[i])] {
				return true
			}
		}
	}
	return false
}
