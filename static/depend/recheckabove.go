package depend

import "golang.org/x/tools/go/ssa"

// rereadAbove is rereadDecides one or more activations up: an activation
// that encloses b's (a frame of b's), entered after a (no frame of a's),
// reads b's variable afresh, directly or through the result of a method
// it calls that returns a read of it, and that value decides every call
// there of the method b's chain goes on through. seaweedfs/raft's server
// loop: followerLoop's timeout stores Candidate (setState, a); the loop
// then runs candidateLoop, whose `for s.State() == Candidate` decides
// its setState(Leader) (b). The unit reaches b only through a check of
// the state it left at a, made after a, as rereadDecides asks in b's own
// activation: a and b are two transitions joined by a state the unit
// reads back like any other goroutine's, not one transition with a
// hidden middle, and another goroutine's read between them sees a state
// the protocol publishes, as between two units.
//
// Why an enclosing activation entered after a is enough: its every step
// runs after a, and the deciding read's branch runs, in that activation,
// before the call that leads to b (control dependence). The chain from
// the enclosing activation down to b's must be static calls: an
// interface call there, or a call the index does not see, makes no
// claim. Not excused: a re-read in an activation that was already
// running at a (a frame of a's: the read may come before a, as the
// caller `set(0); if get() == 0 { set(v) }`, or a loop's header read
// in the round that made a), a re-read that only flows into data (a
// value copied), a method whose result does not come from the variable.
func (x *Index) rereadAbove(a, b Event) bool {
	n := len(b.Frames)
	if n < 2 || len(a.Frames) == 0 {
		return false
	}
	var key any
	for _, in := range x.instrs[b.Site] {
		k := writtenLocation(in)
		if k == nil {
			continue
		}
		if key != nil && k != key {
			return false // a write the rule cannot name: no claim
		}
		key = k
	}
	if key == nil {
		return false
	}
	inA := map[int32]bool{}
	for _, f := range a.Frames {
		inA[f.ID] = true
	}
	if inA[b.Frames[n-1].ID] {
		return false
	}
	own := map[ssa.Instruction]bool{}
	for _, in := range x.instrs[b.Site] {
		own[in] = true
	}
	for k := n - 2; k >= 0 && !inA[b.Frames[k].ID]; k-- {
		fn, next := x.function(b.Frames[k].Site), x.function(b.Frames[k+1].Site)
		if fn == nil || next == nil {
			return false
		}
		sc := x.scope(fn)
		acts := x.ownCalls(sc, next)
		if len(acts) == 0 {
			return false // reached another way (an interface call): no claim
		}
		var calls []ssa.Instruction
		for _, c := range acts {
			calls = append(calls, c)
		}
		if x.recheckedIn(sc, key, own, calls) {
			return true
		}
	}
	return false
}

// recheckedIn reports whether a value in sc's functions decides every one
// of acts (control dependence) and is a read of key there, or the result
// of a call there of a method outside sc whose result carries a read of
// key in its own activation (a getter: `return s.state`).
func (x *Index) recheckedIn(sc *scope, key any, own map[ssa.Instruction]bool, acts []ssa.Instruction) bool {
	for f := range sc.fns {
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				v, ok := in.(ssa.Value)
				if !ok || own[in] {
					continue
				}
				if locationOf(v) != key {
					c, ok := in.(*ssa.Call)
					if !ok {
						continue
					}
					g := callee(c)
					if g == nil || sc.fns[g] || !x.frame[g] || c.Common().IsInvoke() || !x.yieldsRead(g, key) {
						continue
					}
				}
				t := x.newTaint(sc)
				t.seed(v)
				t.run()
				if t.decidesAll(acts) {
					return true
				}
			}
		}
	}
	return false
}

// yieldsRead reports whether g, a method, reads key in its own activation
// (its scope: not in another method it calls) and that read reaches its
// result, by data or control.
func (x *Index) yieldsRead(g *ssa.Function, key any) bool {
	sc := x.scope(g)
	for f := range sc.fns {
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				v, ok := in.(ssa.Value)
				if !ok || locationOf(v) != key {
					continue
				}
				t := x.newTaint(sc)
				t.seed(v)
				t.run()
				if t.result {
					return true
				}
			}
		}
	}
	return false
}
