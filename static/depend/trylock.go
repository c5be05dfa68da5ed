package depend

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// tryLock reports whether a and b are a try-lock's claim and release in
// one activation: a is a compare-and-swap of a flag from a constant free
// value to another constant, the held value, b stores only the free value
// (a plain or deferred atomic store, no CAS). It returns the free value
// and a's CAS.
func (x *Index) tryLock(a, b Event) (free ssa.Value, cas *ssa.Call, ok bool) {
	if !a.Read || !a.Write || b.Read || !b.Write {
		return nil, nil, false
	}
	exp, in := x.casExpected(a.Site)
	if in == nil || !isConst(exp) {
		return nil, nil, false
	}
	c := in.(*ssa.Call)
	if held := c.Call.Args[2]; !isConst(held) || sameValue(held, exp) {
		return nil, nil, false
	}
	if !x.storesOnly(b, exp) {
		return nil, nil, false
	}
	return exp, c, true
}

// tryRefused reports whether r, another unit's read of a try-lock's flag
// between its holder's claim a and release b (tryLock), is a failed try
// of that claim that refuses with an error and has done nothing: r is a
// compare-and-swap of the same flag from the same free value (it found
// the claim held and wrote nothing), in a function that is the whole of
// r's unit (r's only activation, or none recorded), that before the try
// made no call, store outside its own locals, send, receive, go or
// defer, and whose failure edge goes straight to returns with nothing
// between that has an effect, each returning a non-nil error (pogreb's
// Compact: `if !CompareAndSwapInt32(&db.compactionRunning, 0, 1) {
// return cr, errBusy }`, compaction.go:138 av).
//
// Why this is no intermediate state: the held value is what a try-lock
// publishes between its claim and its release, as a sync.Mutex's TryLock
// does; a failed try observes exactly that the lock is held, which is
// true at that moment, and no state of data half-done. What could make
// the observation matter is what the refused unit leaves to the holder:
// work queued before its try for the holder to do (claimdrain's Fire,
// qmuntal/stateless's queued firing, whose holder may have looked at the
// queue for the last time: a lost trigger), or a silent return whose
// caller goes on as if the work were done. Both stay judged: the first
// by "nothing before the try" (the append is a store or a call before
// the CAS), the second by "returns a non-nil error" (claimdrain's Fire
// returns nothing). A refused unit that did nothing and says so leaves
// its caller to decide, as TryLock's false does. What is not covered: a
// caller outside the unit (no activation of it recorded) that queued
// work before the call and drops the error.
func (x *Index) tryRefused(a, b, r Event) bool {
	free, cas, ok := x.tryLock(a, b)
	if !ok || !r.Read || r.Write {
		return false
	}
	rexp, rin := x.casExpected(r.Site)
	if rin == nil || !sameValue(rexp, free) || casLocation(rin.(*ssa.Call)) != casLocation(cas) {
		return false
	}
	rc := rin.(*ssa.Call)
	if !x.wholeUnit(r, rc.Parent()) {
		return false
	}
	return nothingBefore(rc) && refusesOnFailure(rc)
}

// wholeUnit reports whether fn is the whole of e's unit: e's only
// recorded activation, or e ran in none.
func (x *Index) wholeUnit(e Event, fn *ssa.Function) bool {
	switch len(e.Frames) {
	case 0:
		return true
	case 1:
		return x.function(e.Frames[0].Site) == fn
	}
	return false
}

// nothingBefore reports whether every instruction that can run before in
// in its function is free of effects (effectFree): in's own block before
// it, and every block from which that block is reached (a loop around in
// takes its whole body in).
func nothingBefore(in ssa.Instruction) bool {
	blk := in.Block()
	for _, i := range blk.Instrs {
		if i == in {
			break
		}
		if !effectFree(i) {
			return false
		}
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), blk.Preds...)
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[p] {
			continue
		}
		seen[p] = true
		for _, i := range p.Instrs {
			if !effectFree(i) {
				return false
			}
		}
		work = append(work, p.Preds...)
	}
	return true
}

// effectFree reports whether in changes nothing another goroutine can
// see and waits for nothing: no call (but errors.New and fmt.Errorf,
// which make an error), store outside the function's own allocations,
// map update, send, receive, select, go, defer or panic. A RunDefers
// counts only when no defer can precede it, which nothingBefore and the
// failure path's own check make sure of.
func effectFree(in ssa.Instruction) bool {
	switch in := in.(type) {
	case *ssa.Store:
		return localAddr(in.Addr, in.Parent())
	case *ssa.Call:
		return makesError(in)
	case *ssa.UnOp:
		return in.Op != token.ARROW
	case *ssa.MapUpdate, *ssa.Send, *ssa.Select, *ssa.Go, *ssa.Defer, *ssa.Panic:
		return false
	}
	return true
}

// localAddr reports whether addr is a field or element of an allocation
// of fn (a local variable).
func localAddr(addr ssa.Value, fn *ssa.Function) bool {
	for {
		switch a := addr.(type) {
		case *ssa.Alloc:
			return a.Parent() == fn
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			if _, ok := a.X.Type().Underlying().(*types.Pointer); !ok {
				return false // a slice's element: shared memory
			}
			addr = a.X
		default:
			return false
		}
	}
}

// makesError reports whether call is errors.New or fmt.Errorf.
func makesError(call *ssa.Call) bool {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Pkg == nil {
		return false
	}
	switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
	case "errors.New", "fmt.Errorf":
		return true
	}
	return false
}

// refusesOnFailure reports whether the compare-and-swap cas serves only
// a branch (directly or negated) whose failure edge leads, through
// effect-free blocks that never come back to cas, only to returns that
// each return a non-nil error.
func refusesOnFailure(cas *ssa.Call) bool {
	var fail *ssa.BasicBlock
	var walk func(v ssa.Value, failure int) bool
	walk = func(v ssa.Value, failure int) bool {
		refs := *v.Referrers()
		if len(refs) != 1 {
			return false
		}
		switch r := refs[0].(type) {
		case *ssa.If:
			fail = r.Block().Succs[failure]
			return true
		case *ssa.UnOp:
			return r.Op == token.NOT && walk(r, 1-failure)
		}
		return false
	}
	if cas.Referrers() == nil || !walk(cas, 1) {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{fail}
	returns := 0
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[blk] {
			continue
		}
		if blk == cas.Block() {
			return false // a retry, not a refusal
		}
		seen[blk] = true
		for _, in := range blk.Instrs {
			if ret, ok := in.(*ssa.Return); ok {
				if !returnsError(ret) {
					return false
				}
				returns++
				continue
			}
			if _, ok := in.(*ssa.RunDefers); ok {
				continue // no defer before the try, none on this path
			}
			if !effectFree(in) {
				return false
			}
		}
		work = append(work, blk.Succs...)
	}
	return returns > 0
}

// returnsError reports whether ret returns an error that is not nil: a
// result of type error that is no nil constant, nor a phi (which may
// merge one), a named result's load taken as the value last stored to
// it in ret's block.
func returnsError(ret *ssa.Return) bool {
	found := false
	for _, v := range ret.Results {
		if !isError(v.Type()) {
			continue
		}
		if l, ok := v.(*ssa.UnOp); ok && l.Op == token.MUL {
			if al, ok := l.X.(*ssa.Alloc); ok {
				v = nil
				for _, in := range ret.Block().Instrs {
					if st, ok := in.(*ssa.Store); ok && st.Addr == al {
						v = st.Val
					}
				}
				if v == nil {
					return false
				}
			}
		}
		switch v := v.(type) {
		case *ssa.Const:
			if v.IsNil() {
				return false
			}
		case *ssa.Phi:
			return false
		}
		found = true
	}
	return found
}

// heldProbe reports whether r, another unit's read of a try-lock's flag
// between its holder's claim a and release b (tryLock), is a test's probe
// of the claim: an atomic load of the same flag in a function literal of
// a _test.go file that is the whole of r's unit, does nothing else, and
// returns only the comparison of the value loaded with a constant, the
// literal being only passed as an argument (a condition handed to a
// helper that polls it: pogreb's TestCompaction, `assert.CompleteWithin(t,
// time.Minute, func() bool { return atomic.LoadInt32(&db.compactionRunning)
// == 1 })`, compaction_test.go:235, the "busy error" subtest making sure
// a compaction runs before it tries one).
//
// Why this is no intermediate state: as for tryRefused, the held value
// is the lock's state, published on purpose, and the probe does nothing
// with it but report it to the helper that polls, which waits for it;
// the probe's unit changes nothing. What the test does once it saw the
// claim held is judged by its own accesses. A probe in the package's own
// code, or one that keeps, stores or acts on the value, stays judged: a
// caller that skips work because the claim is held is claimdrain's bug.
func (x *Index) heldProbe(a, b, r Event) bool {
	_, cas, ok := x.tryLock(a, b)
	if !ok || !r.Read || r.Write || !strings.HasSuffix(fileOf(r.Site), "_test.go") {
		return false
	}
	var load *ssa.Call
	for _, in := range x.instrs[r.Site] {
		c, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		fn := c.Call.StaticCallee()
		if fn == nil || !strings.HasPrefix(atomicName(fn), "Load") || len(c.Call.Args) == 0 || addrLocation(unconvert(c.Call.Args[0])) != casLocation(cas) {
			return false
		}
		if load != nil {
			return false
		}
		load = c
	}
	if load == nil {
		return false
	}
	fn := load.Parent()
	if fn.Parent() == nil || !x.wholeUnit(r, fn) || !onlyPassed(fn) {
		return false
	}
	// The load's only use is a comparison with a constant, whose only
	// use is the return.
	refs := *load.Referrers()
	if len(refs) != 1 {
		return false
	}
	cmp, ok := refs[0].(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ || !isConst(cmp.X) && !isConst(cmp.Y) {
		return false
	}
	crefs := *cmp.Referrers()
	if len(crefs) != 1 {
		return false
	}
	if ret, ok := crefs[0].(*ssa.Return); !ok || len(ret.Results) != 1 {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			if in != ssa.Instruction(load) && !effectFree(in) {
				return false
			}
		}
	}
	return true
}

// onlyPassed reports whether the function literal fn is used only as a
// call's argument (its closure, or itself with no free variables), and
// at least once.
func onlyPassed(fn *ssa.Function) bool {
	n := 0
	for _, blk := range fn.Parent().Blocks {
		for _, in := range blk.Instrs {
			var v ssa.Value
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn {
				v = mc
			} else {
				for _, op := range in.Operands(nil) {
					if *op == fn {
						v = fn
					}
				}
				if v == nil {
					continue
				}
				if !passedBy(in, fn) {
					return false
				}
				n++
				continue
			}
			for _, u := range *v.Referrers() {
				if !passedBy(u, v) {
					return false
				}
				n++
			}
		}
	}
	return n > 0
}

// passedBy reports whether in is a call that passes v as an argument and
// does not call it.
func passedBy(in ssa.Instruction, v ssa.Value) bool {
	c, ok := in.(ssa.CallInstruction)
	if !ok || c.Common().Value == v {
		return false
	}
	for _, a := range c.Common().Args {
		if a == v {
			return true
		}
	}
	return false
}

// fileOf returns the file of a "path:line:col" site.
func fileOf(site string) string { return lineOf(lineOf(site)) }
