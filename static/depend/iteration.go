package depend

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// nextIteration reports whether b is reached from a, the unit's write,
// only round the back edge of a loop that repeats an operation (see
// forward), in the innermost code that runs both: their common
// activation, or each function that calls both (through plain
// functions). When b reads a's variable, it is the read that each round
// makes before the point where a writes (a consumer loop's buffer.Len()
// at its top, after the last round's dequeue; a retry loop's Proceed,
// after the last try's Failure). The loop's first round made that read
// with no write of its own before it, so the read is one of the shared
// state as it stands, other goroutines' writes included: the next round
// is a new unit, and reads nothing back. When b writes, the state
// between a and b is what one round leaves for the next: another
// goroutine's read of it reads between two units. A read or write that
// follows a within one round (or one call: Seq's bump, then cur) stays
// judged.
func (x *Index) nextIteration(a, b Event) bool {
	c := common(a.Frames, b.Frames)
	var within *scope // c > 0: the common activation's code
	if c > 0 {
		fn := x.function(a.Frames[c-1].Site)
		if fn == nil {
			return false
		}
		within = x.scope(fn)
	}
	sa, sb := x.leadsTo(a, c, within), x.leadsTo(b, c, within)
	ra, rb := x.holders(sa, within), x.holders(sb, within)
	judged := 0
	for fn := range ra {
		if !rb[fn] || x.holdsLower(fn, ra, rb) {
			continue
		}
		as, bs := x.liftTo(fn, sa), x.liftTo(fn, sb)
		round := false
		for _, ia := range as {
			for _, ib := range bs {
				if forward(ia, ib) {
					return false
				}
				round = round || reaches(ia, ib)
			}
		}
		if round {
			judged++
		}
	}
	return judged > 0
}

// leadsTo returns the instructions (within sc, when not nil) that lead to
// e, which ran with c frames in common with the other event: e's own
// instructions, or the calls of the method of its frame c, static or
// through an interface.
func (x *Index) leadsTo(e Event, c int, sc *scope) []ssa.Instruction {
	var out []ssa.Instruction
	keep := func(in ssa.Instruction) {
		if sc == nil || sc.fns[in.Parent()] {
			out = append(out, in)
		}
	}
	if len(e.Frames) <= c {
		ins := x.instrs[e.Site]
		accesses := slices.ContainsFunc(ins, func(in ssa.Instruction) bool { return !isAddress(in) })
		for _, in := range ins {
			if accesses && isAddress(in) {
				// &s.queue of `s.queue = v`: part of the access at
				// its site, not an access of its own. Kept, the
				// store after it in the block made a write and the
				// same write of the next round look like one round.
				continue
			}
			keep(in)
		}
		return out
	}
	g := x.function(e.Frames[c].Site)
	if g == nil {
		return nil
	}
	for _, cs := range x.calls[g] {
		keep(cs.in)
	}
	for _, cs := range x.invokes[g.Name()] {
		if calls(cs.in, g) {
			keep(cs.in)
		}
	}
	return out
}

// holders returns the functions whose code holds one of ins, directly
// or through calls of plain functions (those that record no activation
// of their own), within sc when it is not nil.
func (x *Index) holders(ins []ssa.Instruction, sc *scope) map[*ssa.Function]bool {
	out := map[*ssa.Function]bool{}
	var work []*ssa.Function
	for _, in := range ins {
		work = append(work, in.Parent())
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		if out[fn] || sc != nil && !sc.fns[fn] {
			continue
		}
		out[fn] = true
		if x.frame[fn] {
			continue // an activation of its own: its callers are others
		}
		for _, cs := range x.calls[fn] {
			work = append(work, cs.fn)
		}
	}
	return out
}

// holdsLower reports whether a plain function of fn's code other than
// fn holds both events too: both may run in one call of it, whose code,
// not fn's, shows their order. At the lowest holder, one instruction
// leading to both (a method called in each round) ran twice: round a
// loop.
func (x *Index) holdsLower(fn *ssa.Function, ra, rb map[*ssa.Function]bool) bool {
	sc := x.scope(fn)
	for g := range ra {
		if g != fn && rb[g] && sc.fns[g] {
			return true
		}
	}
	return false
}

// liftTo takes ins up to fn: each instruction of fn stays, one of a
// plain function fn's code calls is replaced by those calls, until all
// are fn's own (a bound of the scope's size keeps recursion finite).
func (x *Index) liftTo(fn *ssa.Function, ins []ssa.Instruction) []ssa.Instruction {
	sc := x.scope(fn)
	var acts []ssa.Instruction
	for _, in := range ins {
		if sc.fns[in.Parent()] {
			acts = append(acts, in)
		}
	}
	for round := 0; round <= len(sc.fns); round++ {
		done := true
		var up []ssa.Instruction
		for _, in := range acts {
			if in.Parent() == fn {
				up = append(up, in)
				continue
			}
			done = false
			for _, cs := range x.callsIn(sc, in.Parent()) {
				up = append(up, cs)
			}
		}
		acts = up
		if done {
			return acts
		}
	}
	return nil
}

// calls reports whether call can run g: statically, or as an interface
// method g's receiver type implements.
func calls(call ssa.CallInstruction, g *ssa.Function) bool {
	com := call.Common()
	if callee(call) == g {
		return true
	}
	if !com.IsInvoke() || g.Signature.Recv() == nil || com.Method.Name() != g.Name() {
		return false
	}
	it, ok := com.Value.Type().Underlying().(*types.Interface)
	return ok && types.Implements(g.Signature.Recv().Type(), it)
}

// forward reports whether b can run after a within one round of the
// loops that repeat an operation: later in a's block, or in a block
// reached from it along edges other than the back edges (an edge into a
// block that dominates its source) of such loops. A loop that steps
// through a collection or a count (a range, a loop with a condition) is
// one operation over it (an expiry sweep's deletes, one per key), and
// going round it keeps b in a's unit; a loop with no condition of its
// own (for {}, a goto back to a label) or over a channel repeats until
// it leaves by a return or a break, each round a unit of its own. go/ssa
// removes a block that only jumps, so the header of a for {} whose body
// begins with a loop with a condition is that loop's header: the outer
// loop's back edge lands there too, and ends a round (outerRound).
func forward(a, b ssa.Instruction) bool {
	ba, bb := a.Block(), b.Block()
	if ba == bb {
		for _, in := range ba.Instrs {
			if in == b {
				break // b before a, or a itself again: round a loop
			}
			if in == a {
				return true
			}
		}
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{ba}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range u.Succs {
			if s.Dominates(u) && (!sweeps[s.Comment] || outerRound(u, s)) || seen[s] {
				continue
			}
			if s == bb {
				return true
			}
			seen[s] = true
			work = append(work, s)
		}
	}
	return false
}

// outerRound reports whether the back edge u→s into the header s of a
// loop in sweeps closes a round of an enclosing loop instead: u is
// reached, without passing s, from where s's loop goes once its
// condition fails (its done block). Such a path left s's loop and came
// back to its header, so the edge is the enclosing loop's, whose own
// header go/ssa's jump threading removed (smux's recvLoop: for { for
// bucket <= 0 { wait }; ...; bucket -= n }). A back edge from within
// s's loop (its body, a continue) is reached from its done block only
// through s. When no done block is found (the condition is a value
// computed with its own blocks, or the done block was threaded away
// too), the edge stays s's own: followed, which keeps b judged.
func outerRound(u, s *ssa.BasicBlock) bool {
	exits := loopExits(s)
	if len(exits) == 0 {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{s: true}
	work := exits
	for _, x := range exits {
		seen[x] = true
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if v == u {
			return true
		}
		for _, w := range v.Succs {
			if !seen[w] {
				seen[w] = true
				work = append(work, w)
			}
		}
	}
	return false
}

// loopExits returns the done blocks that the condition of the loop with
// header s branches to when it fails: the header's successors, and those
// of the blocks of a condition with && or || (go/ssa's cond.true and
// cond.false), whose comment is the header's kind with ".done" for
// ".loop". Such a block runs only once the loop has ended (or an
// enclosing one, which a break out of an empty body threads to).
func loopExits(s *ssa.BasicBlock) []*ssa.BasicBlock {
	done := strings.TrimSuffix(s.Comment, ".loop") + ".done"
	var exits []*ssa.BasicBlock
	seen := map[*ssa.BasicBlock]bool{s: true}
	work := []*ssa.BasicBlock{s}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		for _, t := range c.Succs {
			if seen[t] {
				continue
			}
			seen[t] = true
			switch {
			case t.Comment == done:
				exits = append(exits, t)
			case (t.Comment == "cond.true" || t.Comment == "cond.false") && s.Dominates(t):
				work = append(work, t)
			}
		}
	}
	return exits
}

// sweeps are the comments go/ssa gives the headers of loops that step
// through a collection or a count, or test a condition of their own.
var sweeps = map[string]bool{
	"for.loop":        true,
	"rangeindex.loop": true,
	"rangeiter.loop":  true,
	"rangeint.loop":   true,
	"rangefunc.loop":  true,
}

// isAddress reports whether in only computes an address (a field's or an
// element's) that an access at the same site then loads or stores.
func isAddress(in ssa.Instruction) bool {
	switch in.(type) {
	case *ssa.FieldAddr, *ssa.IndexAddr:
		return true
	}
	return false
}
