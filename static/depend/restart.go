package depend

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// restarted reports whether e is a compare-and-swap that failed (a
// failed one is recorded as a load) whose outcome only starts its loop
// over: every CAS at e's site restarts it (casRestarts). The program
// learns nothing from a failed CAS but its false, and that false sends
// the goroutine back to a loop head whose state the failed round left
// as it found it: the same locals (no phi there takes a value from the round)
// and no write another goroutine, or the goroutine itself, can see
// (only fields of an object the function made, read by nothing, that
// every round stores again before the CAS can publish the object). The
// failed round is then a no-op, and what the goroutine does from the
// loop head on, the loop's condition included, it does on what it reads
// there afresh, as a serial order with the other unit first would from
// the loop head; its give-up edge (the condition false) is that order's
// too. lockfree's LLStack.Push: `for !s.Full() { h := s.head.Load();
// e.next.Store(h); if s.head.CompareAndSwap(h, e) { …; return true } };
// return false`. A round that counts its tries, writes shared state, or
// leaves a field of the new node that the next round may not store again
// stays judged.
func (x *Index) restarted(e Event) bool {
	if !e.Read || e.Write {
		return false
	}
	found := false
	for _, in := range x.instrs[e.Site] {
		call, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		if fn := call.Common().StaticCallee(); fn == nil || !isAtomicCAS(fn) {
			continue
		}
		if !casRestarts(call) {
			return false
		}
		found = true
	}
	return found
}

// casRestarts reports whether the CAS call's result is only tested by
// branches (through negations) whose failure edge leads, on every path
// and doing nothing another round could see (roundQuiet), to a loop
// head that dominates the CAS, whose phis the failure path leaves as
// they were (headKept), and whose rounds up to the CAS are quiet too.
func casRestarts(cas *ssa.Call) bool {
	if cas.Referrers() == nil {
		return false
	}
	var fails, wins []*ssa.BasicBlock
	var walk func(v ssa.Value, failure int) bool
	walk = func(v ssa.Value, failure int) bool {
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.If:
				fails = append(fails, r.Block().Succs[failure])
				wins = append(wins, r.Block().Succs[1-failure])
			case *ssa.UnOp:
				if r.Op != token.NOT || r.Referrers() == nil || !walk(r, 1-failure) {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false // the outcome used otherwise
			}
		}
		return true
	}
	if !walk(cas, 1) || len(fails) == 0 {
		return false
	}
	for _, f := range fails {
		h := loopHead(cas.Block(), f)
		if h == nil {
			return false
		}
		round := roundBlocks(h, cas.Block(), f)
		for _, b := range round {
			for _, in := range b.Instrs {
				if !roundQuiet(in, cas, wins) {
					return false
				}
			}
		}
		if !headKept(h, cas.Block(), f, round) {
			return false
		}
	}
	return true
}

// loopHead returns the innermost block dominating at (the CAS's block)
// that every path from f, the CAS's failure edge, reaches before
// leaving the function; nil if none.
func loopHead(at, f *ssa.BasicBlock) *ssa.BasicBlock {
	for d := at; d != nil; d = d.Idom() {
		if blockReaches(f, d) && reachesOnly(f, d) {
			return d
		}
	}
	return nil
}

// roundBlocks returns the blocks a failed round can run: h, those on a
// path from h to at (the CAS's block) that does not come back through h,
// and those f, the failure edge, reaches before h.
func roundBlocks(h, at, f *ssa.BasicBlock) []*ssa.BasicBlock {
	// reach collects what next (successors or predecessors) leads to
	// from b, h being a wall.
	reach := func(b *ssa.BasicBlock, next func(*ssa.BasicBlock) []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
		seen := map[*ssa.BasicBlock]bool{b: true}
		work := []*ssa.BasicBlock{b}
		for len(work) > 0 {
			u := work[len(work)-1]
			work = work[:len(work)-1]
			for _, s := range next(u) {
				if s != h && !seen[s] {
					seen[s] = true
					work = append(work, s)
				}
			}
		}
		return seen
	}
	succs := func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs }
	preds := func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Preds }
	fwd, bwd := reach(h, succs), reach(at, preds)
	out := []*ssa.BasicBlock{h}
	for _, b := range h.Parent().Blocks {
		if b != h && (fwd[b] && bwd[b] || b == at) {
			out = append(out, b)
		}
	}
	if f != h {
		back := reach(f, succs)
		for _, b := range h.Parent().Blocks {
			if back[b] && !slices.Contains(out, b) {
				out = append(out, b)
			}
		}
	}
	return out
}

// roundQuiet reports whether in, run in a failed round of the CAS cas
// (wins: the blocks its success enters), leaves nothing another round
// or goroutine could see: it only computes or reads (quiet, an atomic
// load, a call of a function that only reads: readOnly), yields
// (runtime.Gosched, time.Sleep), is the CAS itself, or stores into a
// field of an object the function made that nothing reads before the
// CAS publishes it (freshUnread), in a block every round passes before
// the CAS, so the next round stores it again.
func roundQuiet(in ssa.Instruction, cas *ssa.Call, wins []*ssa.BasicBlock) bool {
	if in == ssa.Instruction(cas) || quiet(in) {
		return true
	}
	// storedAgain: the store's field is stored again by every round
	// before the CAS.
	storedAgain := func(addr ssa.Value) bool {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok || !freshUnread(fa.X, cas, wins) {
			return false
		}
		if in.Block() == cas.Block() {
			return slices.Index(in.Block().Instrs, in) < slices.Index(in.Block().Instrs, ssa.Instruction(cas))
		}
		return in.Block().Dominates(cas.Block())
	}
	switch in := in.(type) {
	case *ssa.Store:
		return storedAgain(in.Addr)
	case *ssa.Call:
		if b, ok := in.Common().Value.(*ssa.Builtin); ok {
			return b.Name() == "len" || b.Name() == "cap"
		}
		fn := in.Common().StaticCallee()
		if fn == nil {
			return false
		}
		switch n := atomicName(fn); {
		case n == "":
		case len(n) >= 4 && n[:4] == "Load":
			return true
		case len(n) >= 5 && n[:5] == "Store":
			return len(in.Common().Args) == 2 && storedAgain(unconvert(in.Common().Args[0]))
		default:
			return false
		}
		return yields(fn) || readOnly(fn, 3)
	}
	return false
}

// yields reports whether fn only lets other goroutines run: it touches
// no memory a round could leave changed.
func yields(fn *ssa.Function) bool {
	if fn.Pkg == nil || fn.Signature.Recv() != nil {
		return false
	}
	switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
	case "runtime.Gosched", "time.Sleep":
		return true
	}
	return false
}

// readOnly reports whether fn, and what it calls up to depth levels,
// only computes, reads and returns: Full's `return s.size.Load() ==
// s.capacity`.
func readOnly(fn *ssa.Function, depth int) bool {
	if fn == nil || len(fn.Blocks) == 0 || depth == 0 || fn.Recover != nil {
		return false
	}
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if quiet(in) {
				continue
			}
			call, ok := in.(*ssa.Call)
			if !ok {
				return false
			}
			if bi, ok := call.Common().Value.(*ssa.Builtin); ok {
				if bi.Name() != "len" && bi.Name() != "cap" {
					return false
				}
				continue
			}
			g := call.Common().StaticCallee()
			if n := atomicName(g); n != "" {
				if len(n) < 4 || n[:4] != "Load" {
					return false
				}
				continue
			}
			if !readOnly(g, depth-1) {
				return false
			}
		}
	}
	return true
}

// freshUnread reports whether o is an object cas's function made (an
// allocation) whose fields it only stores into, directly or by atomic
// Store, that it hands on only as cas's new value, that it uses
// otherwise only where cas's success has published it (wins), and that
// no round reaches again once published: what a failed round stored
// into it no one can read.
func freshUnread(o ssa.Value, cas *ssa.Call, wins []*ssa.BasicBlock) bool {
	alloc, ok := o.(*ssa.Alloc)
	if !ok || alloc.Parent() != cas.Parent() || len(cas.Common().Args) != 3 {
		return false
	}
	// Once a CAS has published the object, no round may store into it
	// again: after a swap the CAS comes round only through a new
	// allocation.
	for _, w := range wins {
		if reachesAvoiding(w, cas.Block(), alloc.Block()) {
			return false
		}
	}
	published := func(in ssa.Instruction) bool {
		for _, w := range wins {
			if len(w.Preds) == 1 && w.Dominates(in.Block()) {
				return true
			}
		}
		return false
	}
	var uses func(v ssa.Value) bool
	uses = func(v ssa.Value) bool {
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.DebugRef:
			case *ssa.FieldAddr:
				if v != ssa.Value(alloc) {
					return false
				}
				for _, s := range *r.Referrers() {
					switch s := s.(type) {
					case *ssa.DebugRef:
					case *ssa.Store:
						if s.Addr != ssa.Value(r) || s.Val == ssa.Value(r) {
							return false
						}
					case *ssa.Call:
						n := atomicName(s.Common().StaticCallee())
						if len(n) < 5 || n[:5] != "Store" || len(s.Common().Args) != 2 || unconvert(s.Common().Args[0]) != ssa.Value(r) || unconvert(s.Common().Args[1]) == ssa.Value(r) {
							if !published(s) {
								return false
							}
						}
					default:
						if !published(s) {
							return false
						}
					}
				}
			case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface:
				if !uses(r.(ssa.Value)) {
					return false
				}
			case *ssa.Call:
				if r == cas && unconvert(cas.Common().Args[2]) == ssa.Value(alloc) && unconvert(cas.Common().Args[0]) != ssa.Value(alloc) && unconvert(cas.Common().Args[1]) != ssa.Value(alloc) {
					continue
				}
				if !published(r) {
					return false
				}
			default:
				if !published(r) {
					return false
				}
			}
		}
		return true
	}
	return alloc.Referrers() != nil && uses(alloc)
}

// headKept reports whether every phi of the loop head h takes, from the
// failed round's way back (the CAS's block at when the failure edge f is
// h itself, else the round's blocks f leads through), the phi itself, or
// has one value on all its edges: the round carries no value of its own
// into the next.
func headKept(h, at, f *ssa.BasicBlock, round []*ssa.BasicBlock) bool {
	for _, in := range h.Instrs {
		phi, ok := in.(*ssa.Phi)
		if !ok {
			continue
		}
		same := true
		for _, e := range phi.Edges {
			same = same && e == phi.Edges[0]
		}
		if same {
			continue
		}
		for i, p := range h.Preds {
			back := f == h && p == at || f != h && slices.Contains(round, p) && p != h && reachesAvoiding(f, p, h)
			if back && phi.Edges[i] != ssa.Value(phi) {
				return false
			}
		}
	}
	return true
}

// restartedLoad reports whether a, a load of a compare-and-swap loop's
// round, decides b only by the round's CAS failing: a's value goes only
// into that CAS as its expected value and into stores of the round
// (casRestarts: the round is quiet and a failure starts it over with
// nothing carried), and b, in a's activation or a call it makes, is
// reached by no path from the CAS's success. b happening after a then
// means the CAS failed, and a failed round is a no-op: from the loop
// head on, b reads afresh, as a serial order with the other unit first
// would, whatever a read. lockfree's Push: its head.Load (stack.go:44),
// another Push's CAS, its own CAS failing, then the next round's Full()
// reading the size (:98). A load tested by a branch, or a b that the
// success path reaches, stays judged.
func (x *Index) restartedLoad(a, b Event) bool {
	if !a.Read || a.Write || len(b.Frames) < len(a.Frames) || len(a.Frames) == 0 {
		return false
	}
	for i, f := range a.Frames {
		if b.Frames[i].ID != f.ID {
			return false // b is not in a's activation
		}
	}
	loads := x.instrs[a.Site]
	var v ssa.Value
	for _, in := range loads {
		if c, ok := in.(*ssa.Call); ok && strings.HasPrefix(atomicName(c.Common().StaticCallee()), "Load") {
			if v != nil {
				return false
			}
			v = c
		}
	}
	if v == nil || v.Referrers() == nil {
		return false
	}
	var cas *ssa.Call
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Val != v {
				return false
			}
		case *ssa.Call:
			if isAtomicCAS(r.Common().StaticCallee()) && len(r.Common().Args) == 3 && unconvert(r.Common().Args[1]) == v && unconvert(r.Common().Args[0]) != v && unconvert(r.Common().Args[2]) != v {
				if cas != nil {
					return false
				}
				cas = r
				continue
			}
			if n := atomicName(r.Common().StaticCallee()); !strings.HasPrefix(n, "Store") || len(r.Common().Args) != 2 || unconvert(r.Common().Args[1]) != v {
				return false
			}
		case *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface:
			return false // followed nowhere: judged
		default:
			return false
		}
	}
	if cas == nil || cas.Parent() != v.(ssa.Instruction).Parent() || !casRestarts(cas) {
		return false
	}
	// The block of b, or of the call that leads to it, in a's function.
	fn := cas.Parent()
	var at []*ssa.BasicBlock
	if len(b.Frames) == len(a.Frames) {
		for _, in := range x.instrs[b.Site] {
			if in.Parent() == fn {
				at = append(at, in.Block())
			}
		}
	} else if g := x.function(b.Frames[len(a.Frames)].Site); g != nil {
		for _, c := range x.calls[g] {
			if c.fn == fn {
				at = append(at, c.in.Block())
			}
		}
	}
	if len(at) == 0 {
		return false
	}
	wins := casBranches(cas, true)
	if len(wins) == 0 {
		return false
	}
	for _, w := range wins {
		for _, blk := range at {
			if w == blk || blockReaches(w, blk) {
				return false
			}
		}
	}
	return true
}

// casBranches returns the blocks that the branches testing the CAS call's
// result (through negations) enter on its success, or on its failure;
// nil when its result is used otherwise, or tested by no branch.
func casBranches(cas *ssa.Call, success bool) []*ssa.BasicBlock {
	var blocks []*ssa.BasicBlock
	var walk func(v ssa.Value, succ int) bool
	walk = func(v ssa.Value, succ int) bool {
		if v.Referrers() == nil {
			return false
		}
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.If:
				blocks = append(blocks, r.Block().Succs[succ])
			case *ssa.UnOp:
				if r.Op != token.NOT || !walk(r, 1-succ) {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false // the outcome used otherwise (returned, stored)
			}
		}
		return true
	}
	succ := 1 // If's Succs: [true, false]
	if success {
		succ = 0
	}
	if !walk(cas, succ) || len(blocks) == 0 {
		return nil
	}
	return blocks
}
