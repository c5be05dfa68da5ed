package depend

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// PollRead reports whether every value read at site is read by a
// condition a test polls: a function literal of a top-level Test
// function, passed once, outside any loop, to a function (the poller)
// that only calls it, each call's result either tested by a branch
// whose true edge never reaches a call of the condition again and whose
// false edge does (poll again), or returned; and that after the read
// does nothing but compute its result (pureAfter: no store, call, send
// or panic). So the read's value decides nothing but the condition's
// result, and that result nothing but whether the poller polls again;
// the Test function is run once per goroutine and calls the poller
// once, so a later read at the site by the same goroutine is the same
// poller's next poll: the condition returned false to the loop's test
// and the loop went round. What the replay's trace shows of that is
// Event.Retried (check's polls), and such a read is retried: its value
// decided only another poll, which a serial order also gives (a poll
// before the writer's unit). Whatever the test does after its poll
// succeeds comes from a later poll's reads; an effect the poller makes
// at its deadline (t.Fatal) is the replay's effect criterion's to
// judge, not dependence's. certmagic's TestJobManagerCleansUpAfterJobPanic
// polls `!nameStillTracked && jm.activeWorkers == 0` with waitUntil;
// between the worker's delete of the name and its decrement the
// condition is false and waitUntil sleeps and polls again.
func (x *Index) PollRead(site string) bool {
	reads := x.reads(site, nil)
	if len(reads) == 0 {
		return false
	}
	for _, v := range reads {
		in, ok := v.(ssa.Instruction)
		if !ok || in.Block() == nil || !pureAfter(in) || !x.polledOnce(in.Parent()) {
			return false
		}
		// Read once per call: a later read at the site is the next
		// call's, not this one's going round a loop of its own.
		for _, s := range in.Block().Succs {
			if blockReaches(s, in.Block()) {
				return false
			}
		}
	}
	return true
}

// pureAfter reports whether every instruction that can run after in in
// its function only computes (loads, arithmetic, map lookups, phis,
// branches) or returns: its value can reach nothing but the function's
// result. The deferred calls a return runs were deferred before in,
// whatever it read.
func pureAfter(in ssa.Instruction) bool {
	blk := in.Block()
	seen := map[*ssa.BasicBlock]bool{}
	var visit func(b *ssa.BasicBlock, from int) bool
	visit = func(b *ssa.BasicBlock, from int) bool {
		for _, i := range b.Instrs[from:] {
			switch i := i.(type) {
			case *ssa.UnOp:
				if i.Op == token.ARROW {
					return false
				}
			case *ssa.Store:
				// A local the function alone sees (a deferring
				// function's result slot): what it holds reaches only
				// what follows, all of it pure.
				if a, ok := i.Addr.(*ssa.Alloc); !ok || a.Heap || a.Parent() != in.Parent() {
					return false
				}
			case *ssa.BinOp, *ssa.Lookup, *ssa.FieldAddr, *ssa.Field, *ssa.IndexAddr, *ssa.Index,
				*ssa.Extract, *ssa.Phi, *ssa.If, *ssa.Jump, *ssa.Return, *ssa.RunDefers,
				*ssa.DebugRef, *ssa.Convert, *ssa.ChangeType:
			default:
				return false
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if !visit(s, 0) {
					return false
				}
			}
		}
		return true
	}
	for k, i := range blk.Instrs {
		if i == in {
			return visit(blk, k+1)
		}
	}
	return false
}

// polledOnce is polled, for a condition whose Test function nothing in
// the packages calls or takes as a value: the testing package alone
// runs it, once in its goroutine. Cached.
func (x *Index) polledOnce(fn *ssa.Function) bool {
	if ok, done := x.polls[fn]; done {
		return ok
	}
	ok := polled(fn) && !x.referred(fn.Parent())
	if x.polls == nil {
		x.polls = map[*ssa.Function]bool{}
	}
	x.polls[fn] = ok
	return ok
}

// referred reports whether some function of the packages calls fn or
// uses it as a value.
func (x *Index) referred(fn *ssa.Function) bool {
	if len(x.calls[fn]) > 0 {
		return true
	}
	for _, f := range x.all {
		for _, b := range f.Blocks {
			for _, in := range b.Instrs {
				for _, op := range in.Operands(nil) {
					if *op == ssa.Value(fn) {
						return true
					}
				}
			}
		}
	}
	return false
}

// polled reports whether fn is a condition a Test function polls as
// PollRead says: fn returns one bool, is a literal of a top-level
// Test function, made once, used only as one argument of one static
// call outside any loop, to a poller whose parameter is only called,
// each call's result only tested (pollTest) or returned.
func polled(fn *ssa.Function) bool {
	if fn == nil || fn.Parent() == nil || fn.Signature.Results().Len() != 1 || fn.Signature.Params().Len() != 0 {
		return false
	}
	if b, ok := fn.Signature.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return false
	}
	test := fn.Parent()
	if test.Parent() != nil || !strings.HasPrefix(test.Name(), "Test") || test.Signature.Recv() != nil {
		return false
	}
	// The value standing for fn in test: its closure, or fn itself.
	var val ssa.Value = fn
	var uses []ssa.Instruction
	for _, b := range test.Blocks {
		for _, in := range b.Instrs {
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn {
				if val != ssa.Value(fn) {
					return false // made twice
				}
				val = mc
				continue
			}
			for _, op := range in.Operands(nil) {
				if *op == ssa.Value(fn) {
					uses = append(uses, in)
				}
			}
		}
	}
	if mc, ok := val.(*ssa.MakeClosure); ok {
		if len(uses) > 0 {
			return false
		}
		uses = *mc.Referrers()
	}
	if len(uses) != 1 {
		return false
	}
	call, ok := uses[0].(*ssa.Call)
	if !ok || call.Common().Value == val || call.Common().IsInvoke() {
		return false
	}
	poller := call.Common().StaticCallee()
	if poller == nil || len(poller.Blocks) == 0 || len(poller.Params) != len(call.Common().Args) {
		return false
	}
	param := -1
	for k, a := range call.Common().Args {
		if a == val {
			if param >= 0 {
				return false
			}
			param = k
		}
	}
	if param < 0 {
		return false
	}
	for _, s := range call.Block().Succs {
		if blockReaches(s, call.Block()) {
			return false // the poller may be called again
		}
	}
	return pollsOnly(poller.Params[param])
}

// pollsOnly reports whether the poller's parameter p is only called,
// each call's result either returned or tested by a branch (through
// negations) whose true edge reaches no call of p and whose false edge
// reaches the call again; at least one call is such a test.
func pollsOnly(p *ssa.Parameter) bool {
	var calls []*ssa.Call
	for _, r := range *p.Referrers() {
		c, ok := r.(*ssa.Call)
		if !ok || c.Common().Value != p || c.Common().IsInvoke() {
			return false
		}
		for _, a := range c.Common().Args {
			if a == p {
				return false
			}
		}
		calls = append(calls, c)
	}
	reachesCall := func(b *ssa.BasicBlock) bool {
		for _, c := range calls {
			if blockReaches(b, c.Block()) {
				return true
			}
		}
		return false
	}
	tested := false
	for _, c := range calls {
		var v ssa.Value = c
		neg := false
		for {
			refs := *v.Referrers()
			if len(refs) != 1 {
				return false
			}
			switch r := refs[0].(type) {
			case *ssa.UnOp:
				if r.Op != token.NOT {
					return false
				}
				v, neg = r, !neg
				continue
			case *ssa.Return:
				if v != ssa.Value(c) {
					return false
				}
			case *ssa.If:
				yes, no := r.Block().Succs[0], r.Block().Succs[1]
				if neg {
					yes, no = no, yes
				}
				if reachesCall(yes) || !blockReaches(no, c.Block()) {
					return false
				}
				tested = true
			default:
				return false
			}
			break
		}
	}
	return tested
}
