package depend

import (
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// revalidated reports whether a's value, which decides b, is re-checked
// before b: on every path from a's read to b (or to the call leading to
// b) in a's activation, the unit reads a's variable again, and that
// re-read's value decides whether b runs. A lock-free fast path that
// misses, then locks and re-scans what it read (xsync's doCompute reads
// the bucket's meta atomically, then again under the bucket's lock), acts
// on the re-read, not on a: another goroutine's write in between is seen.
// A re-read that only flows into a write (a counter bumped under the lock
// after an unlocked bound check) decides nothing and does not count.
func (x *Index) revalidated(a, b Event) bool {
	sc, acts := x.actsOf(a, b)
	if sc == nil {
		return false
	}
	var from []ssa.Instruction
	keys := map[any]bool{}
	for _, v := range x.reads(a.Site, sc) {
		k := locationOf(v)
		if k == nil {
			return false // a read the rule cannot name: no claim
		}
		keys[k] = true
		from = append(from, v.(ssa.Instruction))
	}
	if len(acts) == 0 || len(from) == 0 {
		return false
	}
	own := map[ssa.Instruction]bool{}
	for _, in := range from {
		own[in] = true
	}
	// The re-reads that decide every act: they cut the paths from a.
	cuts := map[ssa.Instruction]bool{}
	var lines map[string]map[ssa.Value]bool // by need: most reads have no deciding re-read
	x.decidingReads(sc, own, func(k any) bool { return keys[k] }, acts, func(in ssa.Instruction) bool {
		if lines == nil {
			lines = x.lineKeys(sc)
		}
		if sameTest(lines[lineOf(a.Site)], lines[lineOf(x.site(in.Pos()))]) { // the re-read tests what a did (doubleChecked)
			cuts[in] = true
		}
		return true
	})
	if len(cuts) == 0 {
		return false
	}
	for _, in := range from {
		if reachesUncut(in, acts, cuts) {
			return false
		}
	}
	return true
}

// decidingReads calls found, until it returns false, with each read in
// sc's functions, not among own, of a location that match accepts, whose
// value decides every one of acts (control dependence): the re-reads
// that re-validate a value before acting on it.
func (x *Index) decidingReads(sc *scope, own map[ssa.Instruction]bool, match func(loc any) bool, acts []ssa.Instruction, found func(ssa.Instruction) bool) {
	for f := range sc.fns {
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				v, ok := in.(ssa.Value)
				if !ok || own[in] || !match(locationOf(v)) {
					continue
				}
				t := x.newTaint(sc)
				t.seed(v)
				t.run()
				if t.decidesAll(acts) && !found(in) {
					return
				}
			}
		}
	}
}

// reachesUncut reports whether some path in from's function leads from
// just after from to one of acts without passing one of cuts.
func reachesUncut(from ssa.Instruction, acts []ssa.Instruction, cuts map[ssa.Instruction]bool) bool {
	target := map[ssa.Instruction]bool{}
	for _, in := range acts {
		if in.Parent() != from.Parent() {
			return true // b in a nested function: not followed, no claim
		}
		target[in] = true
	}
	// scan walks blk from instruction i: true if an act comes before a
	// cut, and whether the block's end is reached.
	scan := func(blk *ssa.BasicBlock, i int) (hit, through bool) {
		for ; i < len(blk.Instrs); i++ {
			in := blk.Instrs[i]
			if target[in] {
				return true, false
			}
			if cuts[in] {
				return false, false
			}
		}
		return false, true
	}
	start := from.Block()
	idx := 0
	for i, in := range start.Instrs {
		if in == from {
			idx = i + 1
		}
	}
	hit, through := scan(start, idx)
	if hit {
		return true
	}
	if !through {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), start.Succs...)
	for len(work) > 0 {
		blk := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[blk] {
			continue
		}
		seen[blk] = true
		hit, through := scan(blk, 0)
		if hit {
			return true
		}
		if through {
			work = append(work, blk.Succs...)
		}
	}
	return false
}

// locationOf names the variable a read instruction reads, as far as a
// re-read of it elsewhere in the function can be told to be the same: a
// struct field (of whatever instance: a scan re-reads the buckets it
// walked, through other pointers), a package variable, or a local
// variable's address; an atomic load's argument likewise. Else nil.
func locationOf(v ssa.Value) any {
	if addr := loadedAddr(v); addr != nil {
		return addrLocation(addr)
	}
	return nil
}

// loadedAddr is the address v loads from: a plain load's operand or an
// atomic Load's argument; else nil.
func loadedAddr(v ssa.Value) ssa.Value {
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return v.X
		}
	case *ssa.Call:
		if strings.HasPrefix(atomicName(v.Common().StaticCallee()), "Load") && len(v.Common().Args) > 0 {
			return v.Common().Args[0]
		}
	}
	return nil
}

// addrLocation names the variable at addr for locationOf and
// writtenLocation: a struct field, a package variable, a local's Alloc.
func addrLocation(addr ssa.Value) any {
	switch addr := addr.(type) {
	case *ssa.FieldAddr:
		if f := field(addr); f != nil {
			return f.Origin()
		}
	case *ssa.Global:
		return addr
	case *ssa.Alloc:
		return addr
	}
	return nil
}

// decidesAll reports whether the taint decides the block of every one of
// acts (control dependence).
func (t *taint) decidesAll(acts []ssa.Instruction) bool {
	for _, act := range acts {
		if !t.ctrl[act.Block()] {
			return false
		}
	}
	return true
}
