package depend

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// lockedRecheck reports whether the check-then-act from a to b is
// double-checked locking: a's value only chose the path to a lock, and
// every effect b leads to in their common activation (a write, an atomic
// write, a send, a call that may write, a returned result) runs only past
// a re-read of a's variable (an atomic load of the same field; for a read
// inside a method, a second call of that method) made under a write lock
// held from the re-read through the effect, whose value decides the
// effect (bigcache's shard.del, shimingyah/pool's decrRef). The re-read
// sees every write made before the lock was taken, so what the unit does
// is what it does when it runs wholly after them: a's stale value only
// made it look again. A result returned before the re-read, on b's test,
// counts only where b re-reads, under the lock, a variable the pre-check
// tested before a and the pre-check returned the same on that test (the
// whole pre-check done again in order). Stay judged: an effect the
// re-read's value does not decide, a lock released between the re-read
// and the effect, a re-read of another variable, a's value flowing by
// data into an effect or the result.
func (x *Index) lockedRecheck(a, b Event, c int) bool {
	if !a.Read || c == 0 || len(b.Frames) != c || len(a.Frames) > c+1 {
		return false
	}
	g := x.function(b.Frames[c-1].Site)
	if g == nil || g.Blocks == nil {
		return false
	}
	sc := x.scope(g)
	from, rereads := x.recheckReads(a, g, sc, c)
	if len(from) == 0 || len(rereads) == 0 {
		return false
	}
	cuts := map[ssa.Instruction]bool{}
	for _, r := range rereads {
		cuts[r] = true
	}
	var bs []ssa.Instruction
	for _, in := range x.instrs[b.Site] {
		if in.Parent() == g && !cuts[in] {
			bs = append(bs, in)
		}
	}
	if len(bs) == 0 {
		return false
	}
	data := x.aData(a, g, c)
	if data == nil || data.result {
		return false
	}
	guards := make([]*taint, len(rereads))
	for i, r := range rereads {
		guards[i] = x.newTaint(sc)
		if v, ok := r.(ssa.Value); ok {
			guards[i].seed(v)
		}
		guards[i].run()
	}
	// guarded: every path from a to e passes a re-read whose value
	// decides e and whose lock no unlock releases before e.
	guarded := func(e ssa.Instruction) bool {
		for _, f := range from {
			if reachesUncut(f, []ssa.Instruction{e}, cuts) {
				return false
			}
		}
		for i, r := range rereads {
			if guards[i].ctrl[e.Block()] && !unlockedBetween(g, r, e) {
				return true
			}
		}
		return false
	}
	for _, bi := range bs {
		var effects []ssa.Instruction
		if b.Write {
			effects = append(effects, bi)
		}
		for _, in := range reachedAfter(bi) {
			if !cuts[in] && (effect(in) || returnsValue(in)) {
				effects = append(effects, in)
			}
		}
		for _, e := range effects {
			if touchesData(e, data) {
				return false
			}
			if guarded(e) {
				continue
			}
			if !b.Write && returnsValue(e) && x.precheckedReturn(b, bi, e.(*ssa.Return), g, sc, from) {
				continue
			}
			return false
		}
	}
	return true
}

// recheckReads returns a's reads in g (or, when a ran in a method g
// calls, the calls of it not under a lock) and their re-reads under a
// write lock: reads of a's variable, or calls of a's method, at other
// instructions of g.
func (x *Index) recheckReads(a Event, g *ssa.Function, sc *scope, c int) (from, rereads []ssa.Instruction) {
	if len(a.Frames) == c {
		var loc any
		own := map[ssa.Instruction]bool{}
		for _, v := range x.reads(a.Site, sc) {
			in := v.(ssa.Instruction)
			l := readLoc(v)
			if in.Parent() != g || l == nil || loc != nil && l != loc {
				return nil, nil
			}
			loc = l
			own[in] = true
			from = append(from, in)
		}
		// A re-read tests what a did: the same keys of a map, or none
		// (a bound on its size is no lookup of a key: sameTest).
		lines := x.lineKeys(sc)
		keys := lines[lineOf(a.Site)]
		for _, blk := range g.Blocks {
			for _, in := range blk.Instrs {
				if v, ok := in.(ssa.Value); ok && !own[in] && loc != nil && in.Pos().IsValid() && readLoc(v) == loc && sameTest(keys, lines[lineOf(x.site(in.Pos()))]) && heldAt(g, in) {
					rereads = append(rereads, in)
				}
			}
		}
		return from, rereads
	}
	f := x.function(a.Frames[c].Site)
	if f == nil {
		return nil, nil
	}
	for _, call := range x.ownCalls(sc, f) {
		if call.Parent() != g {
			return nil, nil
		}
		if heldAt(g, call) {
			rereads = append(rereads, call)
		} else {
			from = append(from, call)
		}
	}
	return from, rereads
}

// aData is a's value followed by data only, up to g.
func (x *Index) aData(a Event, g *ssa.Function, c int) *taint {
	inner := x.enclosing(a)
	if inner == nil {
		return nil
	}
	t := x.newTaint(x.scope(inner))
	t.dataOnly = true
	for _, v := range x.reads(a.Site, t.sc) {
		t.seed(v)
	}
	t.run()
	if len(a.Frames) > c {
		if t.result {
			return nil // a's value returned up: not followed, no claim
		}
		return x.newTaint(x.scope(g))
	}
	return t
}

// readLoc names the variable a read reads: a field, global or local's
// address (loaded, or an atomic's argument), a map by its field.
func readLoc(v ssa.Value) any {
	if l := readFamily(v); l != nil {
		return l
	}
	if call, ok := v.(*ssa.Call); ok && atomicName(call.Common().StaticCallee()) != "" && len(call.Common().Args) > 0 {
		return accessLocation(call.Common().Args[0])
	}
	return nil
}

// heldAt reports whether a write lock (Mutex.Lock, RWMutex.Lock) taken
// in g dominates in with no unlock between them.
func heldAt(g *ssa.Function, in ssa.Instruction) bool {
	for _, blk := range g.Blocks {
		for i, l := range blk.Instrs {
			c, ok := l.(*ssa.Call)
			if !ok {
				continue
			}
			fn := c.Common().StaticCallee()
			if !isSyncMethod(fn, "Mutex", "Lock") && !isSyncMethod(fn, "RWMutex", "Lock") {
				continue
			}
			if blk == in.Block() && i > indexOf(blk, in) || blk != in.Block() && !blk.Dominates(in.Block()) {
				continue
			}
			if !unlockedBetween(g, l, in) {
				return true
			}
		}
	}
	return false
}

// unlockedBetween reports whether some unlock call in g lies on a path
// from from to to.
func unlockedBetween(g *ssa.Function, from, to ssa.Instruction) bool {
	for _, blk := range g.Blocks {
		for _, u := range blk.Instrs {
			c, ok := u.(*ssa.Call)
			if !ok {
				continue
			}
			fn := c.Common().StaticCallee()
			if !isSyncMethod(fn, "Mutex", "Unlock") && !isSyncMethod(fn, "RWMutex", "Unlock") && !isSyncMethod(fn, "RWMutex", "RUnlock") {
				continue
			}
			if reachesUncut(from, []ssa.Instruction{u}, map[ssa.Instruction]bool{to: true}) && reachesUncut(u, []ssa.Instruction{to}, map[ssa.Instruction]bool{from: true}) {
				return true
			}
		}
	}
	return false
}

// reachedAfter returns the instructions of in's function reachable from just
// after in.
func reachedAfter(in ssa.Instruction) []ssa.Instruction {
	var out []ssa.Instruction
	blk := in.Block()
	out = append(out, blk.Instrs[indexOf(blk, in)+1:]...)
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), blk.Succs...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		if b != blk {
			out = append(out, b.Instrs...)
		} else {
			out = append(out, b.Instrs[:indexOf(b, in)+1]...)
		}
		work = append(work, b.Succs...)
	}
	return out
}

func returnsValue(in ssa.Instruction) bool {
	r, ok := in.(*ssa.Return)
	return ok && len(r.Results) > 0
}

// touchesData reports whether a value the taint holds is an operand of in.
func touchesData(in ssa.Instruction, t *taint) bool {
	for _, op := range in.Operands(nil) {
		if op != nil && *op != nil && t.vals[*op] {
			return true
		}
	}
	return false
}

// effect reports whether in may write what another goroutine sees: a
// store not to a local, a map update, a send, a goroutine started, an
// atomic other than a load, a builtin that writes, a call of a function
// not known to write only what it allocates. Locking is none.
func effect(in ssa.Instruction) bool {
	switch in := in.(type) {
	case *ssa.Store:
		al, ok := in.Addr.(*ssa.Alloc)
		return !ok || al.Heap
	case *ssa.MapUpdate, *ssa.Send, *ssa.Go:
		return true
	case ssa.CallInstruction:
		return !quietCall(in.Common(), 3)
	}
	return false
}

// quietCall reports whether the call writes nothing another goroutine
// sees, depth calls down.
func quietCall(com *ssa.CallCommon, depth int) bool {
	if b, ok := com.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "len", "cap", "min", "max", "real", "imag", "complex":
			return true
		}
		return false
	}
	fn := com.StaticCallee()
	if isLockOp(fn) {
		return true
	}
	if n := atomicName(fn); n != "" {
		return strings.HasPrefix(n, "Load")
	}
	if fn == nil {
		return false
	}
	if fn.Pkg != nil && fn.Signature.Recv() == nil {
		// Error makers, whose bodies an index built from export data
		// lacks: they allocate and format, nothing else.
		switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
		case "errors.New", "fmt.Errorf", "fmt.Sprintf", "fmt.Sprint":
			return true
		}
	}
	if fn.Blocks == nil || depth == 0 {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			switch in := in.(type) {
			case *ssa.Store:
				if !inAllocation(in.Addr) {
					return false
				}
			case *ssa.MapUpdate, *ssa.Send, *ssa.Go, *ssa.Defer:
				return false
			case ssa.CallInstruction:
				if !quietCall(in.Common(), depth-1) {
					return false
				}
			}
		}
	}
	return true
}

// inAllocation reports whether addr is within an object its function
// allocates (errors.New's &errorString{s}).
func inAllocation(addr ssa.Value) bool {
	for {
		switch a := addr.(type) {
		case *ssa.Alloc:
			return true
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		default:
			return false
		}
	}
}

// precheckedReturn reports whether ret, a return reached from bi (b's
// read under the lock) without the re-read, returns what the pre-check
// returns on the same test: a read of b's variable in g, not under the
// lock, that precedes a's reads (from), looks up the keys bi does, and
// decides a return of the same results. The serial unit that runs
// after the other units' writes fails that pre-check test as b fails.
func (x *Index) precheckedReturn(b Event, bi ssa.Instruction, ret *ssa.Return, g *ssa.Function, sc *scope, from []ssa.Instruction) bool {
	bv, ok := bi.(ssa.Value)
	if !ok || !heldAt(g, bi) {
		return false
	}
	loc := readLoc(bv)
	if loc == nil {
		return false
	}
	bt := x.newTaint(sc)
	for _, v := range x.reads(b.Site, sc) {
		bt.seed(v)
	}
	bt.run()
	if !bt.ctrl[ret.Block()] {
		return false
	}
	lines := x.lineKeys(sc)
	fromSet := map[ssa.Instruction]bool{}
	for _, f := range from {
		fromSet[f] = true
	}
	for _, blk := range g.Blocks {
		for _, p := range blk.Instrs {
			pv, ok := p.(ssa.Value)
			if !ok || p == bi || readLoc(pv) != loc || heldAt(g, p) || !reachesUncut(p, from, nil) || !p.Pos().IsValid() {
				continue
			}
			if !sameTest(lines[lineOf(x.site(p.Pos()))], lines[lineOf(x.site(bi.Pos()))]) {
				continue
			}
			pt := x.newTaint(sc)
			pt.seed(pv)
			pt.run()
			for _, q := range reachedAfter(p) {
				pr, ok := q.(*ssa.Return)
				if ok && pr != ret && pt.ctrl[pr.Block()] && reachesUncut(p, []ssa.Instruction{pr}, fromSet) && sameResults(pr, ret) {
					return true
				}
			}
		}
	}
	return false
}

// sameResults reports whether two returns return alike: the same
// values, equal constants, or calls of one function with equal constant
// arguments (errors.New("not found") twice).
func sameResults(r1, r2 *ssa.Return) bool {
	if len(r1.Results) != len(r2.Results) {
		return false
	}
	for i := range r1.Results {
		if !alikeResult(r1.Results[i], r2.Results[i], 2) {
			return false
		}
	}
	return true
}

func alikeResult(v, w ssa.Value, depth int) bool {
	v, w = storedResult(v), storedResult(w)
	if v == w {
		return true
	}
	switch v := v.(type) {
	case *ssa.Const:
		u, ok := w.(*ssa.Const)
		if !ok || v.Value == nil || u.Value == nil {
			return ok && v.Value == nil && u.Value == nil && v.Type() == u.Type()
		}
		return types.Identical(v.Type(), u.Type()) && v.Value.Kind() == u.Value.Kind() && constant.Compare(v.Value, token.EQL, u.Value)
	case *ssa.Call:
		u, ok := w.(*ssa.Call)
		if !ok || depth == 0 || v.Common().StaticCallee() == nil || v.Common().StaticCallee() != u.Common().StaticCallee() || len(v.Call.Args) != len(u.Call.Args) {
			return false
		}
		for i := range v.Call.Args {
			if !alikeResult(v.Call.Args[i], u.Call.Args[i], depth-1) {
				return false
			}
		}
		return true
	case *ssa.MakeInterface:
		u, ok := w.(*ssa.MakeInterface)
		return ok && alikeResult(v.X, u.X, depth)
	case *ssa.ChangeType:
		u, ok := w.(*ssa.ChangeType)
		return ok && alikeResult(v.X, u.X, depth)
	}
	return false
}

// storedResult is v, or, for a load of a local result slot (a function
// with defers returns through one), the value stored there last in the
// block before the load.
func storedResult(v ssa.Value) ssa.Value {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return v
	}
	al, ok := u.X.(*ssa.Alloc)
	if !ok || al.Heap {
		return v
	}
	blk := u.Block()
	for i := indexOf(blk, u) - 1; i >= 0; i-- {
		if st, ok := blk.Instrs[i].(*ssa.Store); ok && st.Addr == al {
			return st.Val
		}
	}
	return v
}
