package depend

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// idleDelete reports whether b, the unit's delete of the map key its
// comma-ok lookup a found, is all that the lookup decides, and every
// other goroutine's write of the map between is a delete, the pattern's
// of the very key: a second delete of one key (tally's subscope and its
// report loop both removing a closed scope, scope_registry.go:269 and
// :296).
//
// Then the interleaving ends as the serial order that runs the unit
// first does: the unit's delete finds the key already gone (no write
// put it back: the schedule's other writes of the map are deletes), so
// it is a no-op, as the other delete is in that order, and the stale
// "found" decided nothing else: the value found is never used, and the
// blocks the flag decides (and the calls there, whole) do nothing but
// take and release locks and that delete; nor is the flag returned. A
// path that also uses what it found (closes it, reports it), counts the
// drop, or returns whether it dropped, stays judged: the other goroutine
// may have done the same (a double close, a double count, two callers
// each told they removed it) — unless every other write of the map in
// the schedule is blind (Touch.Blind): its goroutine never read the map
// before it, so it did not find the entry and act on it, and no one read
// the map after it before the pattern's end. Then the unit first, whole,
// and the other's delete after it is a serial order with the same
// reads and the same map, whatever the unit does with what it found and
// whatever keys the deletes name (two deletes commute), as mplex's
// handleIncoming closing a stream's data channel after the stream's
// Close unregistered it (multiplex.go:401, stream.go:194, whose struct
// key the trace does not record).
func (x *Index) idleDelete(evs []Event, i, j int, between []int) bool {
	a, b := evs[i], evs[j]
	if !a.Read || a.Write || !b.Write || b.Read || b.Var != a.Var || a.Writes == nil || !x.deletes(b.Site) {
		return false
	}
	// Blind deletes commute with the unit's delete whatever keys they
	// name (a struct key's may be unrecorded: Key 0), as no read falls
	// between them.
	blinds := blind(a.Writes)
	if !blinds && (a.Key == 0 || b.Key != a.Key) {
		return false
	}
	dels := 0
	for _, k := range between {
		e := evs[k]
		if !e.Write {
			continue
		}
		if e.Var != a.Var || !blinds && e.Key != a.Key || !x.deletes(e.Site) {
			return false
		}
		dels++
	}
	if dels == 0 {
		return false
	}
	// The schedule's other writes of the map over the pattern's steps:
	// an insert of any key may have put a's back (tally's :120, a
	// replacement inserted between, which the unit's delete removes).
	for _, w := range a.Writes {
		if !x.deletes(w.Site) {
			return false
		}
	}
	return blinds || x.onlyDeletes(a, b)
}

// blind reports whether every write in ws is blind (Touch.Blind).
func blind(ws []Touch) bool {
	for _, w := range ws {
		if !w.Blind {
			return false
		}
	}
	return len(ws) > 0
}

// onlyDeletes reports whether the comma-ok lookup at a decides nothing
// but b's delete: its value is unused, its flag reaches only branches,
// and the blocks those decide hold only lock operations, loads, control
// and the delete at b (in them or in the functions they call).
func (x *Index) onlyDeletes(a, b Event) bool {
	fn := x.enclosing(a)
	if fn == nil {
		return false
	}
	sc := x.scope(fn)
	var ok ssa.Value
	for _, v := range x.reads(a.Site, sc) {
		l, isLookup := v.(*ssa.Lookup)
		if !isLookup || !l.CommaOk || l.Referrers() == nil {
			return false
		}
		for _, r := range *l.Referrers() {
			e, isExtract := r.(*ssa.Extract)
			if !isExtract {
				return false
			}
			switch {
			case e.Index == 0 && hasUse(e):
				return false // the entry found is used
			case e.Index == 1:
				if ok != nil {
					return false
				}
				ok = e
			}
		}
	}
	if ok == nil {
		return false
	}
	t := x.newTaint(sc)
	t.seed(ok)
	t.run()
	if t.result || t.data.IsValid() || len(t.ctrl) == 0 {
		return false
	}
	found := false
	seen := map[*ssa.Function]bool{}
	for blk := range t.ctrl {
		for _, in := range blk.Instrs {
			if !x.idleInstr(in, b.Site, &found, seen, 0) {
				return false
			}
		}
	}
	return found
}

// hasUse reports whether v has a use other than debug information.
func hasUse(v ssa.Value) bool {
	if v.Referrers() == nil {
		return false
	}
	for _, r := range *v.Referrers() {
		if _, ok := r.(*ssa.DebugRef); !ok {
			return true
		}
	}
	return false
}

// idleInstr reports whether in, run or not as a lookup decided, changes
// nothing another goroutine can see but by the delete at site (whose
// finding it notes): control, loads, address arithmetic, a sync.Mutex's
// or sync.RWMutex's lock and unlock, and calls of functions made only of
// these, a few calls deep.
func (x *Index) idleInstr(in ssa.Instruction, site string, found *bool, seen map[*ssa.Function]bool, depth int) bool {
	switch in := in.(type) {
	case *ssa.Jump, *ssa.If, *ssa.DebugRef, *ssa.RunDefers, *ssa.FieldAddr, *ssa.Field, *ssa.Extract, *ssa.Phi, *ssa.ChangeType:
		return true
	case *ssa.Return:
		// A plain return of the activation the lookup ran in was
		// ruled out (taint.result); a callee's results go back into
		// blocks checked here.
		return depth > 0 || len(in.Results) == 0
	case *ssa.UnOp:
		return in.Op == token.MUL || in.Op == token.NOT
	case *ssa.BinOp:
		return true
	case ssa.CallInstruction:
		if _, isGo := in.(*ssa.Go); isGo {
			return false
		}
		com := in.Common()
		if bi, ok := com.Value.(*ssa.Builtin); ok {
			if bi.Name() == "delete" && slices.Contains(x.instrs[site], ssa.Instruction(in)) {
				*found = true
				return true
			}
			return false
		}
		if com.IsInvoke() {
			return false
		}
		g := callee(in)
		if g == nil {
			return false
		}
		if isLockOp(g) {
			return true
		}
		if g.Blocks == nil || depth >= 3 {
			return false
		}
		if seen[g] {
			return true
		}
		seen[g] = true
		for _, blk := range g.Blocks {
			for _, gin := range blk.Instrs {
				if !x.idleInstr(gin, site, found, seen, depth+1) {
					return false
				}
			}
		}
		return true
	}
	return false
}
