package symbolic

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// flatSeq is a memoized flattened sequence.
type flatSeq struct {
	evs       []Event
	maxCS     int32 // CS ids used are in [1, maxCS]
	maxUnit   int32 // Unit ids used are in [1, maxUnit]
	truncated bool
}

// Flat returns fn's summary sequence: its own events with every call of a
// function of this package spliced in place (recursively, memoized;
// recursive calls and calls beyond MaxFlat stay OpCall events), and every
// call of another package's function that has a summary fact replaced by
// that summary's events (Pos: the call; Ext: the original site). Spliced
// events get the caller's lockset at the call added to theirs, fresh CS
// ids, and, when the callee is a method, a fresh Unit shared by all of
// them. The second result reports whether splicing stopped at MaxFlat.
// The returned slice must not be modified.
func (r *Result) Flat(fn *ssa.Function) ([]Event, bool) {
	f := r.Func(fn)
	if f == nil {
		return nil, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.flat(f)
	if s == nil {
		return f.Events, false
	}
	return s.evs, s.truncated
}

// flat computes f's flattened sequence; nil while f is being flattened
// (recursion). Called with r.mu held.
func (r *Result) flat(f *Func) *flatSeq {
	if f.flat != nil {
		return f.flat
	}
	if f.flatActive {
		return nil
	}
	f.flatActive = true
	defer func() { f.flatActive = false }()

	s := &flatSeq{maxCS: f.numInstrs}
	out := make([]Event, 0, len(f.Events))
	for i := range f.Events {
		e := &f.Events[i]
		if e.Op == OpCall {
			switch {
			case e.fn != nil:
				if sub := r.flat(e.fn); sub != nil && len(out)+len(sub.evs) <= MaxFlat {
					out = s.splice(out, e, sub.evs, sub.maxCS, sub.maxUnit)
					s.truncated = s.truncated || sub.truncated
					continue
				} else if sub != nil {
					s.truncated = true
				}
			case e.sum != nil:
				if evs := summaryEvents(e.sum); len(out)+len(evs) <= MaxFlat {
					out = s.splice(out, e, evs, maxCSOf(evs), 0)
					continue
				}
				s.truncated = true
			}
		}
		out = append(out, *e)
	}
	s.evs = out
	f.flat = s
	return s
}

// splice appends the callee events sub of call e, rebased into s.
func (s *flatSeq) splice(out []Event, e *Event, sub []Event, maxCS, maxUnit int32) []Event {
	csBase := s.maxCS
	s.maxCS += maxCS
	var unit int32
	unitBase := s.maxUnit
	if e.recv {
		s.maxUnit++
		unit = s.maxUnit
	} else {
		s.maxUnit += maxUnit
	}
	callHeld := e.Held
	if e.once != "" && e.once[0] != '?' {
		// A Once.Do body runs under the Once: two bodies never overlap.
		s.maxCS++
		callHeld = mergeHeld(e.Held, []Held{{Lock: e.once, CS: s.maxCS, Once: true}})
	}
	for _, x := range sub {
		rep := repeats(x.path) // x repeats within one call
		if len(x.Held) > 0 {
			held := make([]Held, len(x.Held))
			for i, h := range x.Held {
				if h.CS > 0 {
					h.CS += csBase
				}
				held[i] = h
			}
			x.Held = held
		}
		outer := callHeld
		if rep && len(outer) > 0 {
			// The caller's locks stay held for the whole call.
			outer = make([]Held, len(callHeld))
			for i, h := range callHeld {
				h.Repeat = true
				outer[i] = h
			}
		}
		x.Held = mergeHeld(outer, x.Held)
		switch {
		case unit != 0:
			x.Unit = unit
			x.UnitRepeat = rep
		case x.Unit != 0:
			x.Unit += unitBase
		}
		path := make([]step, 0, len(e.path)+len(x.path))
		path = append(path, e.path...)
		x.path = append(path, x.path...)
		if x.Instr == nil { // from a summary: attribute it to the call
			x.Pos = e.Pos
		}
		x.Deferred = x.Deferred || e.Deferred
		out = append(out, x)
	}
	return out
}

func maxCSOf(evs []Event) int32 {
	var m int32
	for i := range evs {
		for _, h := range evs[i].Held {
			m = max(m, h.CS)
		}
	}
	return m
}

// summaryEvents turns a summary into (unordered) events.
func summaryEvents(s *Summary) []Event {
	out := make([]Event, len(s.Events))
	for i, se := range s.Events {
		held := make([]Held, len(se.Held))
		copy(held, se.Held)
		rep := int32(0)
		if se.Repeats {
			rep = 1
		}
		out[i] = Event{Op: se.Op, Loc: se.Loc, Ext: se.Site, Held: held, path: []step{{nil, rep, int32(i)}}}
	}
	return out
}

// GoBody returns the flattened sequence of the goroutine started by the
// OpGo event e, and whether the body is known: an in-package function's
// Flat, or the events of another package's summary (Pos: the go statement).
// The body runs as one unit of work when its function is a method.
func (r *Result) GoBody(e *Event) (evs []Event, method, ok bool) {
	if e.Op != OpGo {
		return nil, false, false
	}
	switch {
	case e.fn != nil:
		evs, _ = r.Flat(e.fn.Fn)
		return evs, e.recv, true
	case e.sum != nil:
		evs = summaryEvents(e.sum)
		for i := range evs {
			evs[i].Pos = e.Pos
		}
		return evs, e.recv, true
	}
	return nil, false, false
}

// MayPrecede reports whether, in one execution of the sequence both events
// belong to, a may happen before b: b's instruction is reachable from a's
// in the CFG of the deepest function invocation they share (so in a loop
// every event may precede every other, and a deferred operation follows
// everything before its RunDefers). Events of an imported summary are
// unordered among themselves (always true). a and b must come from the
// same sequence (Func.Events, a Flat or a GoBody). An event does not
// precede itself unless it is in a loop.
func (r *Result) MayPrecede(a, b *Event) bool {
	pa, pb := a.path, b.path
	n := min(len(pa), len(pb))
	for l := range n {
		sa, sb := pa[l], pb[l]
		if sa == sb {
			continue
		}
		if sa.f == nil && sb.f == nil {
			// Summary events, in order of first occurrence: a can
			// precede b if it occurs first or b occurs again.
			return sa.idx < sb.idx || sb.blk == 1
		}
		if sa.f == nil || sb.f == nil || sa.f != sb.f {
			return true
		}
		if sa.blk < 0 || sb.blk < 0 {
			return sa.idx < sb.idx
		}
		return sa.f.reaches(sa.blk, sa.idx, sb.blk, sb.idx)
	}
	if len(pa) != len(pb) {
		return len(pa) < len(pb) // e.g. Once.Do before its body
	}
	// Same instruction (e.g. copy's read and write, or an event with
	// itself): only a loop around it at some level repeats it.
	if a != b && a.Op.Reads() && b.Op.Writes() {
		return true
	}
	return len(pa) == 0 || repeats(pa)
}

// repeats reports whether the event at path p may occur more than once in
// one execution of its sequence: some level is in a loop.
func repeats(p []step) bool {
	for _, st := range p {
		switch {
		case st.f == nil:
			if st.blk == 1 {
				return true
			}
		case st.blk >= 0 && st.f.onCycle(st.blk):
			return true
		}
	}
	return false
}

func (r *Result) repeats(e *Event) bool { return repeats(e.path) }

// Reaches reports whether instruction to can execute after instruction
// from in one invocation of their function (both must belong to the same
// function of this package).
func (r *Result) Reaches(from, to ssa.Instruction) bool {
	f := r.Func(from.Parent())
	if f == nil || from.Parent() != to.Parent() || from.Block() == nil || to.Block() == nil {
		return true
	}
	return f.reaches(int32(from.Block().Index), indexIn(from), int32(to.Block().Index), indexIn(to))
}

func indexIn(in ssa.Instruction) int32 {
	for i, x := range in.Block().Instrs {
		if x == in {
			return int32(i)
		}
	}
	return 0
}

// reaches: can (bb, bi) execute after (ab, ai) in one invocation?
func (f *Func) reaches(ab, ai, bb, bi int32) bool {
	if ab == bb {
		return ai < bi || f.onCycle(ab)
	}
	f.computeReach()
	return f.reach[ab][bb/64]&(1<<(bb%64)) != 0
}

func (f *Func) onCycle(blk int32) bool {
	f.computeReach()
	return f.reach[blk][blk/64]&(1<<(blk%64)) != 0
}

// computeReach fills f.reach: for every block, the set of blocks reachable
// from it by at least one edge.
func (f *Func) computeReach() {
	f.reachOnce.Do(func() {
		blocks := f.Fn.Blocks
		n := len(blocks)
		words := (n + 63) / 64
		f.reach = make([][]uint64, n)
		stack := make([]int, 0, n)
		for i := range blocks {
			set := make([]uint64, words)
			stack = stack[:0]
			for _, s := range blocks[i].Succs {
				stack = append(stack, s.Index)
			}
			for len(stack) > 0 {
				j := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if set[j/64]&(1<<(j%64)) != 0 {
					continue
				}
				set[j/64] |= 1 << (j % 64)
				for _, s := range blocks[j].Succs {
					if set[s.Index/64]&(1<<(s.Index%64)) == 0 {
						stack = append(stack, s.Index)
					}
				}
			}
			f.reach[i] = set
		}
	})
}

// Receiver returns the named type of fn's receiver (through a pointer), or
// nil; for a closure, that of its outermost enclosing function.
func Receiver(fn *ssa.Function) *types.Named {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return nil
	}
	n := namedOf(recv.Type())
	if n != nil {
		n = n.Origin()
	}
	return n
}

// Joined reports whether e, an event of the flattened sequence g is an
// event of, can only run after the goroutine g starts has finished: the
// join
//
//	done := make(chan T)
//	go func() { defer close(done); … }()
//	…
//	<-done
//	e
//
// The body's first deferred call (so the last one to run) closes a
// channel the spawner made for it, which nothing else closes or sends on,
// and every path from g to e in the spawner (in one invocation of it)
// receives from it. The go statement must not be in a loop (another
// iteration's goroutine would not be joined), and e must not be a
// deferred operation (a panic runs the spawner's deferred calls without
// the receive).
func (r *Result) Joined(g, e *Event) bool {
	if g.Op != OpGo || e.Deferred || len(e.path) == 0 {
		return false
	}
	gi, ok := g.Instr.(*ssa.Go)
	if !ok || gi.Block() == nil {
		return false
	}
	spawner := r.Func(gi.Parent())
	if spawner == nil || spawner.onCycle(int32(gi.Block().Index)) {
		return false
	}
	// The spawner's invocation g belongs to (g's last level) must be e's
	// too, and happen once in the sequence: no loop around it.
	l := len(g.path) - 1
	if l < 0 || len(e.path) <= l || g.path[l].f != spawner || repeats(g.path[:l]) ||
		!slices.Equal(g.path[:l], e.path[:l]) {
		return false
	}
	st := e.path[l]
	if st.f != spawner || st.blk < 0 {
		return false
	}
	var done *ssa.Alloc
	if v, ok := r.joins.Load(gi); ok {
		done = v.(*ssa.Alloc)
	} else {
		done = joinChan(gi)
		r.joins.Store(gi, done)
	}
	if done == nil {
		return false
	}
	recvs := map[ssa.Instruction]bool{}
	for _, ref := range *done.Referrers() {
		if ld, ok := ref.(*ssa.UnOp); ok && ld.Op == token.MUL {
			for _, u := range *ld.Referrers() {
				if rc, ok := u.(*ssa.UnOp); ok && rc.Op == token.ARROW {
					recvs[rc] = true
				}
			}
		}
	}
	return len(recvs) > 0 && !reachesPast(gi, gi.Parent().Blocks[st.blk], int(st.idx), recvs)
}

// reachesPast reports whether instruction idx of block to can execute
// after from on a path that executes none of stops.
func reachesPast(from ssa.Instruction, to *ssa.BasicBlock, idx int, stops map[ssa.Instruction]bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	// scan walks blk from instruction i: true when it reaches the target
	// first; it queues the successors when it reaches neither a stop nor
	// the target.
	var queue []*ssa.BasicBlock
	scan := func(blk *ssa.BasicBlock, i int) bool {
		for ; i < len(blk.Instrs); i++ {
			if blk == to && i == idx {
				return true
			}
			if stops[blk.Instrs[i]] {
				return false
			}
		}
		queue = append(queue, blk.Succs...)
		return false
	}
	if scan(from.Block(), int(indexIn(from))+1) {
		return true
	}
	for len(queue) > 0 {
		blk := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if seen[blk] {
			continue
		}
		seen[blk] = true
		if scan(blk, 0) {
			return true
		}
	}
	return false
}

// joinChan returns the variable (a captured *ssa.Alloc of the spawner)
// holding the channel that the goroutine gi starts closes last, when
// that channel is made by the spawner, stored once, and only received
// from besides: nil when gi is not such a join.
func joinChan(gi *ssa.Go) *ssa.Alloc {
	mc, ok := gi.Call.Value.(*ssa.MakeClosure)
	if !ok || len(*mc.Referrers()) != 1 {
		return nil // the closure is also called elsewhere: another close
	}
	body, _ := mc.Fn.(*ssa.Function)
	if body == nil || len(body.Blocks) == 0 {
		return nil
	}
	var first *ssa.Defer
	for _, in := range body.Blocks[0].Instrs {
		if d, ok := in.(*ssa.Defer); ok {
			first = d
			break
		}
	}
	if first == nil {
		return nil
	}
	if bi, ok := first.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "close" {
		return nil
	}
	ld, ok := first.Call.Args[0].(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	fv, ok := ld.X.(*ssa.FreeVar)
	if !ok {
		return nil
	}
	idx := slices.Index(body.FreeVars, fv)
	if idx < 0 || idx >= len(mc.Bindings) {
		return nil
	}
	done, ok := mc.Bindings[idx].(*ssa.Alloc)
	if !ok || done.Parent() != gi.Parent() {
		return nil
	}
	// In the body: the variable is only loaded, for the close.
	for _, ref := range *fv.Referrers() {
		l, ok := ref.(*ssa.UnOp)
		if !ok || l.Op != token.MUL {
			return nil
		}
		for _, u := range *l.Referrers() {
			if u != ssa.Instruction(first) {
				return nil
			}
		}
	}
	// In the spawner: one store of a fresh channel, the closure, and
	// loads that are only received from.
	stores := 0
	for _, ref := range *done.Referrers() {
		switch x := ref.(type) {
		case *ssa.Store:
			if x.Addr != done {
				return nil
			}
			if _, fresh := x.Val.(*ssa.MakeChan); !fresh || x.Block() == nil || !x.Block().Dominates(gi.Block()) ||
				x.Block() == gi.Block() && indexIn(x) > indexIn(gi) {
				return nil // the goroutine might load another channel
			}
			stores++
		case *ssa.MakeClosure:
			if x != mc {
				return nil
			}
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
			for _, u := range *x.Referrers() {
				if rc, ok := u.(*ssa.UnOp); !ok || rc.Op != token.ARROW {
					if _, dbg := u.(*ssa.DebugRef); !dbg {
						return nil
					}
				}
			}
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	if stores != 1 {
		return nil
	}
	return done
}
