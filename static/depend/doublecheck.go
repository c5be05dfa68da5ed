package depend

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// doubleChecked reports whether a's check is done again before b, in
// a's activation, by a read that decides every write a decides: the
// double-checked idiom (datadog-go's gaugeWithContextBuffer looks a
// context up under the shard's read lock, releases it, takes the write
// lock and looks again before inserting). A re-check is a read, at
// another site, of the variables a's site reads (a map's contents count
// as the variable the map is loaded from), whose value decides every
// write of those variables in the activation that a's value decides,
// there being one. b is such a re-read, or every path from a to b passes
// one. Another goroutine's write between a and the re-check is then seen
// by the re-check, which acts on it: a's stale value only chose the path
// that reads again. A later read that decides only some of those writes
// (a nil test before a make, not the insert), or none (the decrement of
// a balance tested under an earlier lock section: a lost check), is no
// re-check.
func (x *Index) doubleChecked(a, b Event) bool {
	if !a.Read || a.Site == b.Site || len(a.Frames) == 0 || common(a.Frames, b.Frames) != len(a.Frames) || len(b.Frames) != len(a.Frames) {
		return false
	}
	fn := x.enclosing(a)
	if fn == nil {
		return false
	}
	sc := x.scope(fn)
	fam, from := x.family(a.Site, sc)
	if fam == nil {
		return false
	}
	ta := x.newTaint(sc)
	for _, v := range from {
		ta.seed(v)
	}
	ta.run()
	// The writes of a's variables that a decides: what a re-check must
	// decide again.
	var acts []ssa.Instruction
	for f := range sc.fns {
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				if k := writtenFamily(in); k != nil && fam[k] && ta.ctrl[blk] {
					acts = append(acts, in)
				}
			}
		}
	}
	if len(acts) == 0 {
		return false
	}
	own := map[ssa.Instruction]bool{}
	for _, v := range from {
		own[v.(ssa.Instruction)] = true
	}
	// The re-reads, by site: a site's reads (a field load and the map
	// lookup through it) decide together.
	bySite := map[string][]ssa.Value{}
	for f := range sc.fns {
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				v, ok := in.(ssa.Value)
				if !ok || own[in] || !in.Pos().IsValid() || !fam[readFamily(v)] {
					continue
				}
				if site := x.site(in.Pos()); site != a.Site {
					bySite[site] = append(bySite[site], v)
				}
			}
		}
	}
	cuts := map[ssa.Instruction]bool{}
	lines := x.lineKeys(sc)
	keys := lines[lineOf(a.Site)]
	for site, vs := range bySite {
		if !sameTest(keys, lines[lineOf(site)]) {
			continue
		}
		t := x.newTaint(sc)
		for _, v := range vs {
			t.seed(v)
		}
		t.run()
		if t.decidesAll(acts) {
			for _, v := range vs {
				cuts[v.(ssa.Instruction)] = true
			}
		}
	}
	if len(cuts) == 0 {
		return false
	}
	// b's accesses: its reads, or its writes; those that are re-checks
	// need no path through one.
	var to []ssa.Instruction
	if b.Read {
		for _, v := range x.reads(b.Site, sc) {
			to = append(to, v.(ssa.Instruction))
		}
	}
	if b.Write {
		for _, in := range x.instrs[b.Site] {
			switch in.(type) {
			case *ssa.Store, *ssa.MapUpdate, ssa.CallInstruction:
				if sc.fns[in.Parent()] {
					to = append(to, in)
				}
			}
		}
	}
	if len(to) == 0 {
		return false
	}
	to = slices.DeleteFunc(to, func(in ssa.Instruction) bool { return cuts[in] })
	for _, in := range from {
		if len(to) > 0 && reachesUncut(in.(ssa.Instruction), to, cuts) {
			return false
		}
	}
	return true
}

// family returns the variables the reads at site read (readFamily), and
// those reads; nil when one cannot be named.
func (x *Index) family(site string, sc *scope) (map[any]bool, []ssa.Value) {
	vs := x.reads(site, sc)
	if len(vs) == 0 {
		return nil, nil
	}
	fam := map[any]bool{}
	for _, v := range vs {
		k := readFamily(v)
		if k == nil {
			return nil, nil
		}
		fam[k] = true
	}
	return fam, vs
}

// readFamily names the variable a read reads as locationOf does, a map
// lookup by the variable the map was loaded from.
func readFamily(v ssa.Value) any {
	if l, ok := v.(*ssa.Lookup); ok {
		if _, isMap := l.X.Type().Underlying().(*types.Map); isMap {
			return locationOf(l.X)
		}
		return nil
	}
	return locationOf(v)
}

// writtenFamily names the variable a write instruction writes as
// writtenLocation does, a map update or delete by the variable the map
// was loaded from.
func writtenFamily(in ssa.Instruction) any {
	switch in := in.(type) {
	case *ssa.MapUpdate:
		return locationOf(in.Map)
	case *ssa.Call:
		if b, ok := in.Common().Value.(*ssa.Builtin); ok && b.Name() == "delete" && len(in.Common().Args) > 0 {
			return locationOf(in.Common().Args[0])
		}
	}
	return writtenLocation(in)
}

// lineOf is site ("file:line:col") without its column.
func lineOf(site string) string {
	if i := strings.LastIndexByte(site, ':'); i >= 0 {
		return site[:i]
	}
	return site
}

// lineKeys returns, by line of sc's functions ("file:line"), the keys of
// the map lookups there: what a test on that line looks up.
func (x *Index) lineKeys(sc *scope) map[string]map[ssa.Value]bool {
	keys := map[string]map[ssa.Value]bool{}
	for f := range sc.fns {
		for _, blk := range f.Blocks {
			for _, in := range blk.Instrs {
				l, ok := in.(*ssa.Lookup)
				if !ok || !in.Pos().IsValid() {
					continue
				}
				if _, isMap := l.X.Type().Underlying().(*types.Map); !isMap {
					continue
				}
				line := lineOf(x.site(in.Pos()))
				if keys[line] == nil {
					keys[line] = map[ssa.Value]bool{}
				}
				keys[line][l.Index] = true
			}
		}
	}
	return keys
}

// sameTest reports whether a candidate re-check, whose line looks up the
// keys got, tests what the first read's line did (keys), as far as the
// map goes: a lookup of the same keys, or, when the first read looked no
// key up (a length, a nil test), no lookup either. A bound on the map's
// size checked once, then a key looked up again under the lock before
// the insert, re-checks the key, not the bound: two goroutines both under
// it still insert two keys past it.
func sameTest(keys, got map[ssa.Value]bool) bool {
	if len(keys) == 0 {
		return len(got) == 0
	}
	if len(got) == 0 {
		return false
	}
	for k := range got {
		if !keys[k] {
			return false
		}
	}
	return true
}
