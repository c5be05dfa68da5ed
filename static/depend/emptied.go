package depend

import (
	"go/constant"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// testsEmpty reports whether the unit appended at least one element to
// a slice at a and reads it back at b only to compare its length with 0:
// its own append would leave the slice non-empty, so the comparison's
// outcome is known and the read serves only to see whether another
// goroutine took the elements meanwhile (benbjohnson/clock's Timer
// appends the new timer, then runNextTimer returns when the list is
// empty: another goroutine's Add had fired and removed it). As with
// checksForOthers, nothing the unit computes takes the other goroutine's
// value for its own. A read-back whose elements or length are used
// otherwise (an index taken as the unit's own entry's), or an append of
// a slice that may be empty (append(s, xs...)), stays judged.
func (x *Index) testsEmpty(a, b Event) bool {
	vals := x.stored(a.Site)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !appendsSome(v) {
			return false
		}
	}
	reads := x.reads(b.Site, nil)
	if len(reads) == 0 {
		return false
	}
	for _, r := range reads {
		refs := r.Referrers()
		if refs == nil || len(*refs) == 0 {
			return false
		}
		for _, u := range *refs {
			call, ok := u.(*ssa.Call)
			if !ok || !builtinNamed(call.Call.Value, "len") {
				return false
			}
			lrefs := call.Referrers()
			if lrefs == nil || len(*lrefs) == 0 {
				return false
			}
			for _, lu := range *lrefs {
				op, ok := lu.(*ssa.BinOp)
				if !ok {
					return false
				}
				other := op.X
				if other == ssa.Value(call) {
					other = op.Y
				}
				c, ok := other.(*ssa.Const)
				if !ok || c.Value == nil || c.Value.Kind() != constant.Int || constant.Sign(c.Value) != 0 {
					return false
				}
			}
		}
	}
	return true
}

// appendsSome reports whether v is append(s, e1, …, en) with n ≥ 1
// elements listed: its result is never empty.
func appendsSome(v ssa.Value) bool {
	call, ok := unconvert(v).(*ssa.Call)
	if !ok || !builtinNamed(call.Call.Value, "append") || len(call.Call.Args) != 2 {
		return false
	}
	// The listed elements are stored into a fresh array, sliced whole.
	sl, ok := call.Call.Args[1].(*ssa.Slice)
	if !ok || sl.Low != nil || sl.High != nil || sl.Max != nil {
		return false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	ptr, ok := alloc.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	arr, ok := ptr.Elem().Underlying().(*types.Array)
	return ok && arr.Len() >= 1
}

// builtinNamed reports whether v is the built-in function name.
func builtinNamed(v ssa.Value, name string) bool {
	b, ok := v.(*ssa.Builtin)
	return ok && b.Name() == name
}

// drainTake reports whether the unit appended at least one element to a
// slice at a, or took its head (s = s[1:]), and reads it back at b only
// as a FIFO queue's consumer does (its length compared with 0, its head
// s[0] taken, the slice re-sliced past the head, s[1:], and stored back)
// in a drain: the loop goes on until the queue is found empty, either
// round b's own test for empty or round a call of b's function that
// stops on its result (qmuntal/stateless's queued Fire: enqueue, then
// fetch and execute until fetch finds nothing). The unit's append went
// to the tail, so the head is its own element only when the queue was
// empty before it; a drain takes every element there in order and stops
// only when none is left, so it never singles out one as its own, and
// another consumer's take between only means that consumer ran the
// element (the queue's contract, not a stale value); so is a take of the
// drain's earlier round, after which the next round finds the queue as
// others left it. A unit that takes the head once after appending (a
// request expecting its own reply back) or takes the tail (its own
// element, s[len(s)-1]) stays judged: with no other goroutine its take
// is its own element, and another's take between gives it a stranger's.
// The rule trusts the drain's shape: a drain that returned the last
// element's result as the unit's own reply would be excused as well.
func (x *Index) drainTake(a, b Event) bool {
	vals := x.stored(a.Site)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !appendsSome(v) && !popsHead(v) {
			return false
		}
	}
	queue, loc, tests, ok := x.queueRead(b.Site)
	if !ok {
		return false
	}
	for r := range queue {
		if x.drainsIn(r, loc) {
			return true
		}
	}
	return x.drains(b, tests)
}

// queueRead returns the loads of the slice read at site, its variable
// and its comparisons with 0, when the slice is used there only as a FIFO
// queue's consumer uses it: len(s) compared with 0, the head s[0]
// taken, s[1:] stored back into the slice's variable.
func (x *Index) queueRead(site string) (map[ssa.Value]bool, any, []*ssa.BinOp, bool) {
	reads := x.reads(site, nil)
	if len(reads) == 0 {
		return nil, nil, nil, false
	}
	// The slice's loads; a load of its head through one of them is the
	// element taken, the consumer's to use.
	queue := map[ssa.Value]bool{}
	var loc any
	for _, r := range reads {
		if ia, ok := loadedAddr(r).(*ssa.IndexAddr); ok && isZero(ia.Index) {
			continue
		}
		l := loadLocation(r)
		if l == nil || loc != nil && l != loc {
			return nil, nil, nil, false
		}
		loc = l
		queue[r] = true
	}
	if loc == nil {
		return nil, nil, nil, false
	}
	var tests []*ssa.BinOp
	for _, r := range reads {
		if !queue[r] {
			if !queue[loadedAddr(r).(*ssa.IndexAddr).X] {
				return nil, nil, nil, false
			}
			continue
		}
		refs := r.Referrers()
		if refs == nil || len(*refs) == 0 {
			return nil, nil, nil, false
		}
		for _, u := range *refs {
			switch u := u.(type) {
			case *ssa.Call:
				ops, ok := comparedWithZero(u)
				if !ok {
					return nil, nil, nil, false
				}
				tests = append(tests, ops...)
			case *ssa.IndexAddr:
				if !isZero(u.Index) {
					return nil, nil, nil, false
				}
			case *ssa.Index:
				if !isZero(u.Index) {
					return nil, nil, nil, false
				}
			case *ssa.Slice:
				if !poppedBack(u, loc) {
					return nil, nil, nil, false
				}
			default:
				return nil, nil, nil, false
			}
		}
	}
	return queue, loc, tests, true
}

// comparedWithZero returns the comparisons of len(s) with 0, when call
// is that len and it is used only so.
func comparedWithZero(call *ssa.Call) ([]*ssa.BinOp, bool) {
	if !builtinNamed(call.Call.Value, "len") {
		return nil, false
	}
	refs := call.Referrers()
	if refs == nil || len(*refs) == 0 {
		return nil, false
	}
	var ops []*ssa.BinOp
	for _, u := range *refs {
		op, ok := u.(*ssa.BinOp)
		if !ok {
			return nil, false
		}
		other := op.X
		if other == ssa.Value(call) {
			other = op.Y
		}
		if !isZero(other) {
			return nil, false
		}
		ops = append(ops, op)
	}
	return ops, true
}

// isZero reports whether v is the integer constant 0.
func isZero(v ssa.Value) bool {
	c, ok := unconvert(v).(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0
}

// popsHead reports whether v is s[1:], s loaded: the head dropped.
func popsHead(v ssa.Value) bool {
	sl, ok := v.(*ssa.Slice)
	if !ok || sl.High != nil || sl.Max != nil || loadLocation(sl.X) == nil {
		return false
	}
	c, ok := sl.Low.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && c.Value.String() == "1"
}

// poppedBack reports whether sl is s[1:] stored back only into the
// variable s was loaded from (the head dropped).
func poppedBack(sl *ssa.Slice, loc any) bool {
	c, ok := sl.Low.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int || c.Value.String() != "1" || sl.High != nil || sl.Max != nil {
		return false
	}
	refs := sl.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, u := range *refs {
		st, ok := u.(*ssa.Store)
		if !ok || st.Val != ssa.Value(sl) || addrLocation(unconvert(st.Addr)) != loc {
			return false
		}
	}
	return true
}

// drains reports whether the take at b runs in a loop that stops when
// the queue is empty: one of b's tests for empty decides a branch that
// leaves a loop round it, or b's function, called from the function of
// the frame above, is called there only in loops that a branch on the
// call's result leaves.
func (x *Index) drains(b Event, tests []*ssa.BinOp) bool {
	for _, op := range tests {
		if leavesLoop(op) {
			return true
		}
	}
	n := len(b.Frames)
	if n < 2 {
		return false
	}
	fn, parent := x.function(b.Frames[n-1].Site), x.function(b.Frames[n-2].Site)
	if fn == nil || parent == nil {
		return false
	}
	found := false
	for _, blk := range parent.Blocks {
		for _, in := range blk.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok || call.Call.StaticCallee() != fn {
				continue
			}
			if !leavesLoop(call) {
				return false
			}
			found = true
		}
	}
	return found
}

// leavesLoop reports whether v lies in a loop and decides, directly or
// through one result of a tuple, an If one of whose successors leaves
// that loop for good.
func leavesLoop(v ssa.Value) bool {
	home := v.(ssa.Instruction).Block()
	if !afterBlock(home)[home] {
		return false
	}
	conds := []ssa.Value{v}
	if refs := v.Referrers(); refs != nil {
		for _, u := range *refs {
			if e, ok := u.(*ssa.Extract); ok {
				conds = append(conds, e)
			}
		}
	}
	for _, c := range conds {
		refs := c.Referrers()
		if refs == nil {
			continue
		}
		for _, u := range *refs {
			ifi, ok := u.(*ssa.If)
			if !ok || !afterBlock(ifi.Block())[home] {
				continue
			}
			for _, s := range ifi.Block().Succs {
				if s != home && !afterBlock(s)[home] {
					return true
				}
			}
		}
	}
	return false
}

// afterBlock returns the blocks reached from b's successors (b itself
// only round a loop).
func afterBlock(b *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := slices.Clone(b.Succs)
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[c] {
			continue
		}
		seen[c] = true
		work = append(work, c.Succs...)
	}
	return seen
}

// drainsIn reports whether the load r of the queue at loc lies in a loop
// of its function that a comparison of the queue's length with 0 (a
// load of loc in that function) leaves: a drain written inline.
func (x *Index) drainsIn(r ssa.Value, loc any) bool {
	home := r.(ssa.Instruction).Block()
	if !afterBlock(home)[home] {
		return false
	}
	for _, blk := range r.Parent().Blocks {
		for _, in := range blk.Instrs {
			ifi, ok := in.(*ssa.If)
			if !ok || !afterBlock(blk)[home] || !afterBlock(home)[blk] {
				continue
			}
			op, ok := ifi.Cond.(*ssa.BinOp)
			if !ok {
				continue
			}
			call, ok := op.X.(*ssa.Call)
			if !ok {
				call, ok = op.Y.(*ssa.Call)
			}
			if !ok || len(call.Call.Args) != 1 || loadLocation(call.Call.Args[0]) != loc {
				continue
			}
			if ops, ok := comparedWithZero(call); !ok || len(ops) == 0 {
				continue
			}
			for _, s := range blk.Succs {
				if s != home && !afterBlock(s)[home] {
					return true
				}
			}
		}
	}
	return false
}

// drainClaim reports whether the state the reader saw between a and b,
// an append to a queue and then a claim (a compare-and-swap from a
// constant), is the producer's hand-off of its element: the reader read
// the queue at r1 as a draining consumer does (queueRead, in a drain)
// and then made its own claim at r2, the very site of the producer's
// claim b (qmuntal/stateless's queued Fire: enqueue, then fetch, whose
// length test and CAS of firing the other Fire ran between). The reader
// did, in the code the producer runs next, what the producer was about
// to do: claim the drain and take every element queued, the producer's
// among them; the producer's claim then fails, or succeeds after and
// finds what is left. A second write that is no claim at the reader's
// own claim site (a count or flag kept apart from the queue) stays
// judged. The reader's access of the flag may also be its release of the
// claim (a store of the value the claim expects, stateless's execute)
// in the activation of the drain that read the queue: it claimed and ran
// the element before. And the writer's second write may be its release
// of a claim it held (an element queued from inside the drain, as
// stateless's entry actions fire), when the reader's access is its claim
// at the CAS the release undoes and the writer's drain takes from the
// queue again after the release: the reader, finding the claim held,
// left the element to that next take.
func (x *Index) drainClaim(a, b, r1, r2 Event) bool {
	if a.Var == b.Var {
		return false
	}
	// r1 names the reader's read of the queue, r2 its access of the
	// flag, in whichever order it made them (the claim before the
	// head's take: stateless's fetch tests, claims, then takes).
	if r1.Var == b.Var && r2.Var == a.Var {
		r1, r2 = r2, r1
	}
	if r1.Var != a.Var || r2.Var != b.Var {
		return false
	}
	vals := x.stored(a.Site)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !appendsSome(v) {
			return false
		}
	}
	queue, loc, tests, ok := x.queueRead(r1.Site)
	if !ok {
		return false
	}
	exp, cas := x.casExpected(b.Site)
	if cas == nil {
		// b may be the writer's release of a claim it held, when its
		// drain takes from the queue again after it: the element the
		// reader left, finding the claim held, is taken then. The
		// claim is the take's CAS from a constant.
		exp = x.takeClaim(r1)
		if exp == nil || !x.storesOnly(b, exp) || !x.drainsAfter(r1, b) {
			return false
		}
		if e, c := x.casExpected(r2.Site); (c == nil || !sameValue(e, exp)) && !x.releasesClaim(r1, r2, exp) {
			return false
		}
	} else if !isConst(exp) || r2.Site != b.Site && !x.releasesClaim(r1, r2, exp) {
		return false
	}
	for r := range queue {
		if x.drainsIn(r, loc) {
			return true
		}
	}
	return x.drains(r1, tests)
}

// isConst reports whether v is a constant, through conversions.
func isConst(v ssa.Value) bool {
	_, ok := unconvert(v).(*ssa.Const)
	return ok
}

// storedAt returns the values the writes at e's site store; an atomic
// store deferred there (stateless's defer f.firing.Swap(false), whose
// event is at the call, the defer statement's instruction at its
// keyword) counts as its write. ok is false when a call deferred there
// is not such a store.
func (x *Index) storedAt(e Event) (vals []ssa.Value, ok bool) {
	vals = x.stored(e.Site)
	if fn := x.enclosing(e); fn != nil {
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				d, isDefer := in.(*ssa.Defer)
				if !isDefer || !d.Call.Pos().IsValid() || x.site(d.Call.Pos()) != e.Site {
					continue
				}
				f, args := d.Call.StaticCallee(), d.Call.Args
				if f == nil || !isAtomicWrite(f) || isAtomicCAS(f) || len(args) != 2 {
					return nil, false
				}
				vals = append(vals, args[1])
			}
		}
	}
	return vals, true
}

// storesOnly reports whether the writes at e's site (storedAt) store
// only exp.
func (x *Index) storesOnly(e Event, exp ssa.Value) bool {
	vals, ok := x.storedAt(e)
	if !ok || len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if !sameValue(v, exp) {
			return false
		}
	}
	return true
}

// drainsAfter reports whether the drain function whose call of the take
// r1 ran in (the function of r1's frame above its innermost) is among
// b's frames, and every call there of the function b's next frame runs
// leads on to a call of the take: the writer's drain looks at the queue
// again after b.
func (x *Index) drainsAfter(r1, b Event) bool {
	n := len(r1.Frames)
	if n < 2 {
		return false
	}
	drain, take := x.function(r1.Frames[n-2].Site), x.function(r1.Frames[n-1].Site)
	if drain == nil || take == nil {
		return false
	}
	for k := 0; k+1 < len(b.Frames); k++ {
		if x.function(b.Frames[k].Site) != drain {
			continue
		}
		callee := x.function(b.Frames[k+1].Site)
		if callee == nil {
			return false
		}
		var calls, takes []ssa.Instruction
		for _, blk := range drain.Blocks {
			for _, in := range blk.Instrs {
				if c, ok := in.(*ssa.Call); ok {
					switch c.Call.StaticCallee() {
					case callee:
						calls = append(calls, c)
					case take:
						takes = append(takes, c)
					}
				}
			}
		}
		if len(calls) == 0 || len(takes) == 0 {
			return false
		}
		for _, c := range calls {
			if !slices.ContainsFunc(takes, func(t ssa.Instruction) bool { return reaches(c, t) }) {
				return false
			}
		}
		return true
	}
	return false
}

// releasesClaim reports whether r2 stores only exp, the value the claim
// expects, in the activation of the drain whose consumer read r1 (the
// frames above r1's innermost).
func (x *Index) releasesClaim(r1, r2 Event, exp ssa.Value) bool {
	if n := len(r1.Frames); n < 2 || common(r1.Frames, r2.Frames) < n-1 {
		return false
	}
	return x.storesOnly(r2, exp)
}

// takeClaim returns the value the take's claim expects: the one
// compare-and-swap from a constant in the function r1 read the queue in
// (stateless's fetch: firing.CompareAndSwap(false, true)).
func (x *Index) takeClaim(r1 Event) ssa.Value {
	fn := x.enclosing(r1)
	if fn == nil {
		return nil
	}
	var exp ssa.Value
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok {
				continue
			}
			f := call.Common().StaticCallee()
			if f == nil || !isAtomicCAS(f) || len(call.Common().Args) != 3 {
				continue
			}
			if exp != nil || !isConst(call.Common().Args[1]) {
				return nil
			}
			exp = call.Common().Args[1]
		}
	}
	return exp
}

// releaseRetaken reports whether the state r saw between a and b is a
// held claim that r failed to take and that its holder takes again after
// releasing it: a is a compare-and-swap from a constant (the claim of a
// drain, in its take), r a compare-and-swap of the same variable from
// the same constant that failed (it read the claim held and wrote
// nothing), b the holder's release (it stores only that constant), and
// the holder's drain calls the take again after the call b ran in
// (drainsAfter). The try-lock's loser leaves what it queued before its
// try to the holder: its failed try read the claim before the release,
// so the holder's next take, after it, finds the element (qmuntal/
// stateless's fetch, whose losing Fire returns and whose holder fetches
// again after execute's deferred release, modes.go:77 av). A holder
// that looks at the queue for the last time before its release (no take
// after it) leaves the loser's element behind, and stays judged.
func (x *Index) releaseRetaken(a, b, r Event) bool {
	if !r.Read || r.Write || !a.Write || !b.Write {
		return false
	}
	exp, cas := x.casExpected(a.Site)
	if cas == nil || !isConst(exp) {
		return false
	}
	rexp, rcas := x.casExpected(r.Site)
	if rcas == nil || !sameValue(rexp, exp) || casLocation(rcas.(*ssa.Call)) != casLocation(cas.(*ssa.Call)) {
		return false
	}
	return x.storesOnly(b, exp) && x.drainsAfter(a, b)
}
