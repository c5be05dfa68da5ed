package depend

import (
	"go/token"

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
			continue
		}
		if !x.retriedLoad(v, loc) {
			return false
		}
		found = true
	}
	return found
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
	if expected.Parent() == cas.Parent() && loadLocation(expected) == loc {
		return failsBack(cas, expected)
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

// expectsLoad reports whether call is a CAS of loc whose expected value
// is v, directly or through a wrapper that returns the CAS's result.
func (x *Index) expectsLoad(call *ssa.Call, v ssa.Value, loc any) bool {
	args := call.Call.Args
	fn := call.Call.StaticCallee()
	if fn == nil {
		return false
	}
	if isAtomicCAS(fn) {
		return len(args) == 3 && casLocation(call) == loc && unconvert(args[1]) == v
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
// return or panic before it: the loop loads again after a failed CAS.
func failsBack(call *ssa.Call, v ssa.Value) bool {
	load, ok := v.(ssa.Instruction)
	if !ok || call.Referrers() == nil {
		return false
	}
	target := load.Block()
	tested := false
	var check func(cond ssa.Value, failure int) bool
	check = func(cond ssa.Value, failure int) bool {
		for _, r := range *cond.Referrers() {
			switch r := r.(type) {
			case *ssa.If:
				tested = true
				if !reachesOnly(r.Block().Succs[failure], target) {
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
	seen := map[*ssa.BasicBlock]bool{}
	var walk func(b *ssa.BasicBlock) bool
	walk = func(b *ssa.BasicBlock) bool {
		if b == target {
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
