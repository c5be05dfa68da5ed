package depend

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// retried reports whether e is a read whose value decided only to try
// again: the replay shows that its goroutine took the edge of the
// read's test that goes back round the loop (Event.Retried), and the
// read is a wait's (ExitTest): its value is tested, and used only past
// the test's other edge, the exit, from which the read is never reached
// again in the activation, so the edge back uses it nowhere. Whatever
// the unit goes on to do past the loop comes from a later read.
// claimbitfixed's Pop waits for its claimed slot to be filled (`if p :=
// s.Load(); p != nil { s.Store(nil); … return *p, true }`, Gosched and
// again): a nil read there before the producer's store, in an
// inconsistent snapshot with the odd index that sent it there, is no
// use of the slot, which a later read finds filled. A poll's read
// (PollRead) decided only its condition's result, and a retried one
// only that the poller polls again. A compare-and-swap that failed and
// only starts its loop over (restarted) needs no replay to say so: its
// failure is the edge back.
func (x *Index) retried(e Event) bool {
	if x.restarted(e) {
		return true
	}
	if !e.Read || e.Write || !e.Retried {
		return false
	}
	_, ok := x.ExitTest(e.Site)
	return ok || x.PollRead(e.Site)
}

// ExitTest reports whether every value read at site is only tested
// against a constant (nil included) by a branch, and used otherwise only
// past one edge of it (onlyPast), the exit, from which no path reaches
// the read again in its function, while the other edge does: a loop
// that reads until the value passes. What a read that went round such a
// loop saw is used by nothing but the test. exit is the site of the
// sync/atomic call the exit edge makes first, before any other call and
// any use of the value, when every read at site has the same one: the
// event a replay records right after the read when the test lets it
// out; "" when there is none.
func (x *Index) ExitTest(site string) (exit string, ok bool) {
	reads := x.reads(site, nil)
	if len(reads) == 0 {
		return "", false
	}
	for i, v := range reads {
		rin, ok := v.(ssa.Instruction)
		if !ok || rin.Block() == nil {
			return "", false
		}
		out := exitOf(v, rin.Block())
		if out == nil {
			return "", false
		}
		e := x.firstAtomic(out, v)
		if i > 0 && e != exit {
			e = ""
		}
		exit = e
	}
	return exit, true
}

// exitOf returns the exit edge's block of the test of v, read in block
// at, as ExitTest says, or nil.
func exitOf(v ssa.Value, at *ssa.BasicBlock) *ssa.BasicBlock {
	for _, ref := range *v.Referrers() {
		cmp, ok := ref.(*ssa.BinOp)
		if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
			continue
		}
		if _, ok := cmp.Y.(*ssa.Const); !ok || cmp.X != v {
			if _, ok := cmp.X.(*ssa.Const); !ok || cmp.Y != v {
				continue
			}
		}
		refs := *cmp.Referrers()
		if len(refs) != 1 {
			continue
		}
		br, ok := refs[0].(*ssa.If)
		if !ok {
			continue
		}
		succs := br.Block().Succs
		for exit := range succs {
			out, back := succs[exit], succs[1-exit]
			if onlyPast(v, cmp, out) && !blockReaches(out, at) && blockReaches(back, at) {
				return out
			}
		}
	}
	return nil
}

// firstAtomic returns the site of the first instruction of blk when it
// is a call of a sync/atomic function or method, with only computations
// that no trace records before it (addresses, arithmetic, conversions),
// none of them using v; else "".
func (x *Index) firstAtomic(blk *ssa.BasicBlock, v ssa.Value) string {
	for _, in := range blk.Instrs {
		switch in := in.(type) {
		case *ssa.Call:
			fn := in.Common().StaticCallee()
			if fn != nil && fn.Origin() != nil {
				fn = fn.Origin()
			}
			if fn == nil || fn.Object() == nil || fn.Object().Pkg() == nil || fn.Object().Pkg().Path() != "sync/atomic" || slices.Contains(in.Common().Args, v) {
				return ""
			}
			return x.site(in.Pos())
		case *ssa.DebugRef:
		case *ssa.Phi, *ssa.BinOp, *ssa.FieldAddr, *ssa.IndexAddr, *ssa.ChangeType, *ssa.Convert:
			for _, o := range in.Operands(nil) {
				if *o == v {
					return ""
				}
			}
		default:
			return "" // a load, a store, a channel operation: recorded first
		}
	}
	return ""
}

// blockReaches reports whether a path from block from leads to block
// to (from itself included).
func blockReaches(from, to *ssa.BasicBlock) bool { return reachesAvoiding(from, to, nil) }

// Claim is the claim another goroutine made by compare-and-swap whose
// value a read saw (Event.Claim): the CAS's site, the site of the same
// goroutine's next write of the variable in that activation (the
// claim's end), the activation's frames, and the pattern's events
// (indices) of that activation from the CAS to its end.
type Claim struct {
	CAS, End string
	Frames   []Frame
	Within   []int
}

// claimKept reports whether r read the intermediate value of a claim
// (Event.Claim) that it only compares for equality with a value of the
// other parity, the values before the CAS and after the claim's end
// differing (comparedApart): the test's outcome is what it is on one of
// those two, so r acts as a read before the claim or after its end. The
// claim's events the pattern puts after r are, for r, before it (a read
// after the end; one before the claim is the instance with r there,
// judged as its own): they make r's value no staler, and a later read
// of the unit that saw them is no newer than r. claimbitfixed's Pop
// reads the odd index a Push's CAS stored, decides that the queue is
// not empty, as the even one the Push stores next says, and takes the
// slot the Push fills before that store.
func (x *Index) claimKept(r Event) bool {
	c := r.Claim
	if c == nil || !r.Read || r.Write || len(c.Frames) == 0 {
		return false
	}
	return x.comparedApart(Event{Site: c.CAS, Frames: c.Frames}, Event{Site: c.End, Frames: c.Frames}, r)
}

// claimAfter reports whether of two reads r1, r2 (indices) of another
// unit between the writes a and b (i, j) of a unit, one is claimKept
// with a and b both among its claim's events, and the other reads a's
// variable and not b's: read after the claim's end, as the kept one
// acts, it sees a's write and nothing b changes, as the other did, so
// the two are one serial snapshot.
func (x *Index) claimAfter(evs []Event, i, j, r1, r2 int) bool {
	a, b := evs[i], evs[j]
	for _, p := range [][2]int{{r1, r2}, {r2, r1}} {
		k, o := evs[p[0]], evs[p[1]]
		if x.claimKept(k) && slices.Contains(k.Claim.Within, i) && slices.Contains(k.Claim.Within, j) && o.Read && o.Var == a.Var && o.Var != b.Var {
			return true
		}
	}
	return false
}
