package depend

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

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
		// Another variable's writes count only as blind adds of the
		// later access's variable, which is itself one: they commute
		// with it (pond's readCount, counted by the worker that took a
		// task after its "not over" and by another between).
		if e := evs[k]; e.Write && e.Var != a.Var && (e.Var != b.Var || !x.blindAdd(e) || !x.blindAdd(b)) {
			return false
		}
	}
	var ws []Touch
	if a.Writes != nil {
		for _, w := range a.Writes {
			if w.Step > a.Step && w.Step < b.Step {
				ws = append(ws, w)
			}
		}
	} else {
		for _, k := range between {
			if e := evs[k]; e.Write && e.Var == a.Var {
				ws = append(ws, Touch{Site: e.Site})
			}
		}
	}
	return x.outcomeKept(a, ws, false)
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
	if evs[r1].Var == evs[w].Var {
		// r1 saw w, r2 did not see b.
		return x.outcomeKept(evs[r1], seenWrites(evs, r1, w, r1, true, false), true) ||
			x.outcomeKept(evs[r2], seenWrites(evs, r2, r2, b, false, true), false)
	}
	// r1 did not see b, r2 saw w.
	return x.outcomeKept(evs[r1], seenWrites(evs, r1, r1, b, false, true), false) ||
		x.outcomeKept(evs[r2], seenWrites(evs, r2, w, r2, true, false), true)
}

// outcomeKept reports whether the value e read is only tested against a
// bound, the path after e shows which way, and each write ws, an add of
// a constant (undone, when undo: the read saw it), keeps that outcome:
// by its sign, or, applied, because a test of the variable against the
// same bound under which it adds leaves it within the outcome
// (guardKeeps).
func (x *Index) outcomeKept(e Event, ws []Touch, undo bool) bool {
	if !e.Read || e.Write || len(e.After) == 0 || len(ws) == 0 {
		return false
	}
	var signs []int
	for _, w := range ws {
		d, ok := x.delta(w.Site)
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
	op, test, bound, ok := boundTest(reads[0])
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
	for k, d := range signs {
		switch op {
		case token.LSS, token.LEQ: // an upper bound: kept by what lowers
			if d > 0 && (undo || !x.guardKeeps(reads[0], bound, op, e, ws[k])) {
				return false
			}
		case token.GTR, token.GEQ: // a lower bound: kept by what raises
			if d < 0 && (undo || !x.guardKeeps(reads[0], bound, op, e, ws[k])) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// guardKeeps reports whether w, another goroutine's add to the variable
// that v read (its outcome `v op bound`), leaves the variable within
// that outcome whatever it held: w's goroutine last read the variable
// at w.Guard with no write of it by anyone between (the schedule says),
// that read is tested against the same bound, a field of the object the
// variable is a field of, and w is reached from one branch of that test
// only, whose outcome with w's constant added implies the reader's. The
// bound must hold one value throughout: no write in the stretch is at a
// store of its field (Event.Stored). pond's trySubmit adds 1 to
// workerCount only when `workerCount >= maxConcurrency` was false under
// the lock: the count is then at most maxConcurrency, so a worker's
// "not over" (`workerCount > maxConcurrency` false) still holds; Resize,
// which stores maxConcurrency, in the stretch leaves it judged.
func (x *Index) guardKeeps(v, bound ssa.Value, op token.Token, e Event, w Touch) bool {
	if w.Guard == "" || e.Stored == nil {
		return false
	}
	varField, varBase := fieldAt(v)
	boundField, boundBase := loadedFieldAt(bound)
	if varField == nil || boundField == nil || varBase != boundBase {
		return false
	}
	for _, site := range e.Stored {
		if x.storesField(site, boundField) {
			return false
		}
	}
	d, ok := x.delta(w.Site)
	if !ok {
		return false
	}
	c, exact := constant.Int64Val(d)
	if !exact {
		return false
	}
	dirU, ku := bounded(op)
	writes := 0
	for _, in := range x.instrs[w.Site] {
		wField, wBase := writtenFieldAt(in)
		if wField == nil {
			continue
		}
		writes++
		if wField != varField {
			return false
		}
		held := false
		for _, g := range x.instrs[w.Guard] {
			gv, isVal := g.(ssa.Value)
			if !isVal || g.Parent() != in.Parent() {
				continue
			}
			gf, gb := fieldAt(gv)
			if gf != varField || gb != wBase {
				continue
			}
			gop, test, gbound, ok := boundTest(gv)
			// The test in the read's block, and on every path to w:
			// the read is then the one whose test w's last pass
			// through that block made.
			if !ok || g.Block() != test.Block() || !test.Block().Dominates(in.Block()) {
				continue
			}
			bf, bb := loadedFieldAt(gbound)
			if bf != boundField || bb != wBase {
				continue
			}
			succs := test.Block().Succs
			r0, r1 := reachFrom(succs[0], test.Block()), reachFrom(succs[1], test.Block())
			switch b := in.Block(); {
			case r0[b] && !r1[b]:
			case r1[b] && !r0[b]:
				gop = negate(gop)
			default:
				continue
			}
			dirG, kg := bounded(gop)
			if dirG != dirU || dirG == 0 {
				continue
			}
			if dirG > 0 && kg+c <= ku || dirG < 0 && kg+c >= ku {
				held = true
			}
		}
		if !held {
			return false
		}
	}
	return writes > 0
}

// bounded describes `x op M` on integers as x <= M+k (dir 1) or x >= M+k
// (dir -1).
func bounded(op token.Token) (dir int, k int64) {
	switch op {
	case token.LSS:
		return 1, -1
	case token.LEQ:
		return 1, 0
	case token.GTR:
		return -1, 1
	case token.GEQ:
		return -1, 0
	}
	return 0, 0
}

// fieldAt returns the field a read value v loads (a plain load or an
// atomic method's or function's load through the field's address) and
// the object the field is of.
func fieldAt(v ssa.Value) (*types.Var, ssa.Value) {
	switch r := v.(type) {
	case *ssa.UnOp:
		if r.Op == token.MUL {
			return addrField(r.X)
		}
	case *ssa.Call:
		if args := r.Common().Args; len(args) > 0 && atomicName(r.Common().StaticCallee()) != "" {
			return addrField(args[0])
		}
	}
	return nil, nil
}

// loadedFieldAt is fieldAt of a bound, through conversions; only plain
// loads (a field set apart from the atomics).
func loadedFieldAt(v ssa.Value) (*types.Var, ssa.Value) {
	if r, ok := unconvert(v).(*ssa.UnOp); ok && r.Op == token.MUL {
		return addrField(r.X)
	}
	return nil, nil
}

// writtenFieldAt returns the field an add at in writes: a store of the
// field's load plus a constant, or an atomic Add through its address.
func writtenFieldAt(in ssa.Instruction) (*types.Var, ssa.Value) {
	switch in := in.(type) {
	case *ssa.Store:
		return addrField(in.Addr)
	case *ssa.Call:
		if args := in.Common().Args; len(args) > 0 && strings.HasPrefix(atomicName(in.Common().StaticCallee()), "Add") {
			return addrField(args[0])
		}
	}
	return nil, nil
}

// addrField returns the field whose address a takes, and its object.
func addrField(a ssa.Value) (*types.Var, ssa.Value) {
	if fa, ok := a.(*ssa.FieldAddr); ok {
		if f := fieldOf(fa); f != nil {
			return f, fa.X
		}
	}
	return nil, nil
}

// storesField reports whether a write at site stores field f.
func (x *Index) storesField(site string, f *types.Var) bool {
	for _, in := range x.instrs[site] {
		switch in := in.(type) {
		case *ssa.Store:
			if g, _ := addrField(in.Addr); g == f {
				return true
			}
		case *ssa.Call:
			if args := in.Common().Args; len(args) > 0 && atomicName(in.Common().StaticCallee()) != "" {
				if g, _ := addrField(args[0]); g == f {
					return true
				}
			}
		}
	}
	return false
}

// boundTest follows v, a signed integer read, through conversions that
// keep its value (to a signed type at least as wide) to its one use: an
// ordering comparison with a value not computed from it (bound), which
// only an If tests. op is the comparison with v on the left; test, the If.
func boundTest(v ssa.Value) (op token.Token, test *ssa.If, bound ssa.Value, ok bool) {
	if !signedInt(v.Type()) {
		return 0, nil, nil, false
	}
	for {
		use := soleUse(v)
		if use == nil {
			return 0, nil, nil, false
		}
		switch u := use.(type) {
		case *ssa.Convert, *ssa.ChangeType:
			w := u.(ssa.Value)
			if !signedInt(w.Type()) || sizes.Sizeof(w.Type()) < sizes.Sizeof(v.Type()) {
				return 0, nil, nil, false
			}
			v = w
			continue
		case *ssa.BinOp:
			op = u.Op
			switch op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ:
			default:
				return 0, nil, nil, false
			}
			other := u.Y
			if u.Y == v {
				if u.X == v {
					return 0, nil, nil, false
				}
				other, op = u.X, mirror(op)
			}
			if computedFrom(other, v) {
				return 0, nil, nil, false
			}
			f, isIf := soleUse(u).(*ssa.If)
			if !isIf {
				return 0, nil, nil, false
			}
			return op, f, other, true
		}
		return 0, nil, nil, false
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
			if !x.frame[fn] && !test.Block().Dominates(in.Block()) {
				// A plain function records no activation: a step
				// outside the test's dominance may be the next
				// call's, which never made the test.
				return false, false
			}
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

// seenWrites returns the writes of the variable evs[r] read, by others
// than its unit, from evs[from] to evs[to] (each end included when
// fromIn, toIn): the schedule's (Event.Writes) when known, else the
// pattern's.
func seenWrites(evs []Event, r, from, to int, fromIn, toIn bool) []Touch {
	var ws []Touch
	e := evs[r]
	if e.Writes != nil {
		lo, hi := evs[from].Step, evs[to].Step
		for _, t := range e.Writes {
			if (t.Step > lo || fromIn && t.Step == lo) && (t.Step < hi || toIn && t.Step == hi) {
				ws = append(ws, t)
			}
		}
		return ws
	}
	for k := from; k <= to; k++ {
		if k == from && !fromIn || k == to && !toIn {
			continue
		}
		if o := evs[k]; o.Write && o.Var == e.Var && (o.Unit != e.Unit || o.Thread != e.Thread) {
			ws = append(ws, Touch{Site: o.Site})
		}
	}
	return ws
}

// middleKept reports whether another goroutine's read r of the value
// between the unit's writes a and b of one variable only decides a bound
// test (<, <=, >, >= of a signed integer, the value used nowhere else),
// and each of the unit's writes of the variable from a to b is an add of
// a constant of one sign: the unit moves the value one way, so what r
// read (whatever other goroutines added before it) lies between what it
// would read before the unit and after it, and a bound test of it goes
// as in one of those two serial orders, whichever way it went.
// linkdata/deadlock's TestNoDeadlocks lowers its load count by one at
// each of a worker's two releases, and the spawner's loop starts another
// worker while the count is under a cap. A reader testing equality, or
// using the value otherwise, or a unit writing both ways, stay judged.
func (x *Index) middleKept(evs []Event, a, r, b int) bool {
	e := evs[r]
	if !e.Read || e.Write {
		return false
	}
	inner := x.enclosing(e)
	if inner == nil {
		return false
	}
	reads := x.reads(e.Site, x.scope(inner))
	if len(reads) != 1 {
		return false
	}
	if _, _, _, ok := boundTest(reads[0]); !ok {
		return false
	}
	var sites []string // the unit's writes from a to b
	if e.Writes != nil {
		g := ""
		for _, t := range e.Writes {
			if t.Step == evs[a].Step {
				g = t.G
			}
		}
		if g == "" {
			return false
		}
		for _, t := range e.Writes {
			if t.G == g && t.Step >= evs[a].Step && t.Step <= evs[b].Step {
				sites = append(sites, t.Site)
			}
		}
	} else {
		for k := a; k <= b; k++ {
			if o := evs[k]; o.Write && o.Var == evs[a].Var && o.Unit == evs[a].Unit && o.Thread == evs[a].Thread {
				sites = append(sites, o.Site)
			}
		}
	}
	sign := 0
	for _, site := range sites {
		d, ok := x.delta(site)
		if !ok {
			return false
		}
		s := constant.Sign(d)
		if s == 0 || sign != 0 && s != sign {
			return false
		}
		sign = s
	}
	return sign != 0
}
