package depend

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// boundKept reports whether the value a unit read at evs[i] decides
// nothing that the other units' writes of its variable before its later
// event evs[j] could change: the unit only compares it with a bound
// (`x > max`), once, the path it took from there (Event.After) shows
// which way the test went, and each of those writes adds a constant
// whose sign keeps that outcome (a decrement keeps `x <= max`, an
// increment keeps `x >= min`). Had the unit read the variable after
// them, it would have taken the same branch and gone on as it did, so
// its later access depends on nothing stale. pond's worker reads the
// worker count in readTask (`workerCount > maxConcurrency`, not over),
// runs a task and, a round later, finds the queue empty and decrements
// the count; another worker's exit between them only lowered the count.
// The writes asked about are all the schedule holds in that stretch
// (Event.Writes), not only the pattern's. A write of another kind (a
// store, an add of unknown or the other sign: dep.go's Teller, whose
// remote debit can make `balance < n` true), a value used otherwise
// than in that one test, unsigned counts (a decrement wraps), or a path
// that does not tell the branch stay judged.
func (x *Index) boundKept(evs []Event, i, j int, between []int) bool {
	a, b := evs[i], evs[j]
	for _, k := range between {
		if e := evs[k]; e.Write && e.Var != a.Var {
			return false
		}
	}
	var sites []string
	if a.Writes != nil {
		for _, w := range a.Writes {
			if w.Step > a.Step && w.Step < b.Step {
				sites = append(sites, w.Site)
			}
		}
	} else {
		for _, k := range between {
			if e := evs[k]; e.Write {
				sites = append(sites, e.Site)
			}
		}
	}
	return x.outcomeKept(a, sites, false)
}

// snapshotKept reports whether a reader that saw one of a writer's two
// writes and not the other (r1 after w, the writer's write of r1's
// variable, and r2 before b, its write of r2's; or r1 before b and r2
// after w) acts as in a serial order all the same: the read that saw
// its write only decides a bound test whose outcome undoing the writes
// it saw (w and any other goroutine's after it) keeps, so the reader
// went as it would have before the writer's unit; or the read that did
// not see its write likewise, kept by the writes up to b applied, so it
// went as after the writer's unit. pond's Submit tests a subpool's
// worker count (below maxConcurrency: it launches a worker) and then,
// through the parent's submit, the parent's count: a subpool worker's
// exit that decrements both between the tests leaves the parent's
// "below" as it was (Submit went as after the exit), and a submitter's
// increment of both around them raised only what Submit found below the
// subpool's limit (without it, lower, still below: Submit went as
// before). pond's worker, between another worker's task count
// (readCount.Add) and exit (workerCount.Add(-1)), tests workerCount "not
// over" and then counts its own next task: the exit keeps "not over".
// A reader that sums the two, tests equality, or tests a value the
// writes can move across its bound (dep.go's Pools, Subpools.Watch)
// stays judged.
func (x *Index) snapshotKept(evs []Event, w, r1, r2, b int) bool {
	seen := func(r, from, to int, fromIn, toIn bool) []string {
		var sites []string
		e := evs[r]
		if e.Writes != nil {
			lo, hi := evs[from].Step, evs[to].Step
			for _, t := range e.Writes {
				if (t.Step > lo || fromIn && t.Step == lo) && (t.Step < hi || toIn && t.Step == hi) {
					sites = append(sites, t.Site)
				}
			}
			return sites
		}
		for k := from; k <= to; k++ {
			if k == from && !fromIn || k == to && !toIn {
				continue
			}
			if o := evs[k]; o.Write && o.Var == e.Var && (o.Unit != e.Unit || o.Thread != e.Thread) {
				sites = append(sites, o.Site)
			}
		}
		return sites
	}
	if evs[r1].Var == evs[w].Var {
		// r1 saw w, r2 did not see b.
		return x.outcomeKept(evs[r1], seen(r1, w, r1, true, false), true) ||
			x.outcomeKept(evs[r2], seen(r2, r2, b, false, true), false)
	}
	// r1 did not see b, r2 saw w.
	return x.outcomeKept(evs[r1], seen(r1, r1, b, false, true), false) ||
		x.outcomeKept(evs[r2], seen(r2, w, r2, true, false), true)
}

// outcomeKept reports whether the value e read is only tested against a
// bound, the path after e shows which way, and each write at sites, an
// add of a constant (undone, when undo: the read saw it), keeps that
// outcome.
func (x *Index) outcomeKept(e Event, sites []string, undo bool) bool {
	if !e.Read || e.Write || len(e.After) == 0 || len(sites) == 0 {
		return false
	}
	var signs []int
	for _, site := range sites {
		d, ok := x.delta(site)
		if !ok {
			return false
		}
		s := constant.Sign(d)
		if undo {
			s = -s
		}
		signs = append(signs, s)
	}
	inner := x.enclosing(e)
	if inner == nil {
		return false
	}
	reads := x.reads(e.Site, x.scope(inner))
	if len(reads) != 1 {
		return false
	}
	op, test, ok := boundTest(reads[0])
	if in, isIn := reads[0].(ssa.Instruction); !ok || !isIn || in.Block() != test.Block() {
		return false
	}
	taken, ok := x.branchTaken(test, e.Site, e.After)
	if !ok {
		return false
	}
	if !taken {
		op = negate(op)
	}
	for _, d := range signs {
		switch op {
		case token.LSS, token.LEQ: // an upper bound: kept by what lowers
			if d > 0 {
				return false
			}
		case token.GTR, token.GEQ: // a lower bound: kept by what raises
			if d < 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// boundTest follows v, a signed integer read, through conversions that
// keep its value (to a signed type at least as wide) to its one use: an
// ordering comparison with a value not computed from it, which only an
// If tests. op is the comparison with v on the left; test, the If.
func boundTest(v ssa.Value) (op token.Token, test *ssa.If, ok bool) {
	if !signedInt(v.Type()) {
		return 0, nil, false
	}
	for {
		use := soleUse(v)
		if use == nil {
			return 0, nil, false
		}
		switch u := use.(type) {
		case *ssa.Convert, *ssa.ChangeType:
			w := u.(ssa.Value)
			if !signedInt(w.Type()) || sizes.Sizeof(w.Type()) < sizes.Sizeof(v.Type()) {
				return 0, nil, false
			}
			v = w
			continue
		case *ssa.BinOp:
			op = u.Op
			switch op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
			default:
				return 0, nil, false
			}
			other := u.Y
			if u.Y == v {
				if u.X == v {
					return 0, nil, false
				}
				other, op = u.X, mirror(op)
			}
			if computedFrom(other, v) {
				return 0, nil, false
			}
			f, isIf := soleUse(u).(*ssa.If)
			if !isIf {
				return 0, nil, false
			}
			return op, f, true
		}
		return 0, nil, false
	}
}

// sizes are the sizes conversions are judged with: a 64-bit target's
// (int is as wide as int64).
var sizes = types.SizesFor("gc", "amd64")

func signedInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0 && b.Info()&types.IsUnsigned == 0
}

// soleUse is v's only referrer other than debug references, or nil.
func soleUse(v ssa.Value) ssa.Instruction {
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	var use ssa.Instruction
	for _, r := range *refs {
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		if use != nil {
			return nil
		}
		use = r
	}
	return use
}

// computedFrom reports whether w is computed from v (through the operands of
// the instructions defining it, phis included).
func computedFrom(w, v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var walk func(u ssa.Value) bool
	walk = func(u ssa.Value) bool {
		if u == v {
			return true
		}
		if u == nil || seen[u] {
			return false
		}
		seen[u] = true
		in, ok := u.(ssa.Instruction)
		if !ok {
			return false
		}
		for _, p := range in.Operands(nil) {
			if p != nil && walk(*p) {
				return true
			}
		}
		return false
	}
	return walk(w)
}

// mirror is op with its operands swapped: a < b is b > a.
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// negate is the comparison that holds when op does not.
func negate(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GEQ
	case token.LEQ:
		return token.GTR
	case token.GTR:
		return token.LEQ
	case token.GEQ:
		return token.LSS
	}
	return op
}

// branchTaken tells which way test went from the unit's path after the
// read (the sites of its later steps, in order), the read being in
// test's block: the first step at an instruction of test's function
// outside that block must lie where only one of its branches leads (a
// block that one successor reaches without passing test's block again
// and the other does not; && and || join the branches' blocks with
// other paths, so dominance would not do). ok is false when that step
// lies where both lead (after the branches meet), when the read is made
// again first (a loop came round) or another activation of the
// function begins, or when the path has no such step.
func (x *Index) branchTaken(test *ssa.If, readSite string, after []string) (taken, ok bool) {
	fn := test.Parent()
	succs := test.Block().Succs
	reach := [2]map[*ssa.BasicBlock]bool{reachFrom(succs[0], test.Block()), reachFrom(succs[1], test.Block())}
	for _, site := range after {
		if site == readSite || x.function(site) == fn {
			// The read again, or another activation of the
			// function (its region at the method's name): what
			// follows tells nothing of this test's branch.
			return false, false
		}
		var ins []ssa.Instruction
		for _, in := range x.instrs[site] {
			if in.Parent() == fn && in.Block() != test.Block() {
				ins = append(ins, in)
			}
		}
		if len(ins) == 0 {
			// Elsewhere, or the test's own block: the rest of the
			// condition (the bound's read), before the branch.
			continue
		}
		side := -1
		for _, in := range ins {
			s := -1
			switch b := in.Block(); {
			case reach[0][b] && !reach[1][b]:
				s = 0
			case reach[1][b] && !reach[0][b]:
				s = 1
			}
			if s < 0 || side >= 0 && s != side {
				return false, false
			}
			side = s
		}
		return side == 0, true
	}
	return false, false
}

// reachFrom is the set of blocks reachable from b without entering stop.
func reachFrom(b, stop *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{b}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if c == stop || seen[c] {
			continue
		}
		seen[c] = true
		work = append(work, c.Succs...)
	}
	return seen
}
