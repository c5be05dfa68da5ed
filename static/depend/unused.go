package depend

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Sinks are the stores a read's value reaches (UnusedSinks): Sites, the
// sites of all of them; Must, for each store whose address the value
// computes (a field through it, an element of it or chosen by it: an
// access that could panic on the value) or that stores the value itself,
// its sites, one of which the replay's trace must show written (the
// store ran, so the address did not panic; and it is recorded, so its
// location's next access shows: a local the instrumentation leaves
// alone, loaded again later, would carry the value on unseen); Decided, for each location a branch on the value may store
// into, the sites of its accesses that dominate the branch, where the
// replay's trace names its object.
type Sinks struct {
	Sites   []string
	Must    [][]string
	Decided [][]string
}

// UnusedSinks gives, for the plain read at site, the stores its value can
// reach in the function that holds the read, when that is all it
// reaches: its value (through arithmetic other than a division or a
// shift, which may panic, comparisons, conversions and len/cap) is only
// stored, or only addresses a store (a field or element written through
// it, or an element chosen by it), or only decides a branch whose arms do
// nothing but store into fields of a parameter or into globals
// (decidesStores; goresilience's window slider, `if b.nextIndexToReplace
// >= len(b.window) { b.nextIndexToReplace = 0 }`), whose stores are among
// Sites too. ok is false when the value reaches anything else: a call, a
// return, a send, a load through it, a phi (a value carried round a loop
// or out of a branch), a closure, an interface; or when the read is not
// in a method that records its activation (a region), so the replay's
// trace could not tell its activation's steps from a nested one's. A
// store's sites are the ones the instrumenter may give its write: the
// address's ('[' of an element, a field's name) and the store's own.
func (x *Index) UnusedSinks(site string) (sk Sinks, ok bool) {
	vals := x.reads(site, nil)
	if len(vals) == 0 {
		return Sinks{}, false
	}
	add := func(s string) {
		if !slices.Contains(sk.Sites, s) {
			sk.Sites = append(sk.Sites, s)
		}
	}
	for _, v := range vals {
		ld, isLoad := v.(*ssa.UnOp)
		if !isLoad || ld.Op != token.MUL || !x.frame[ld.Parent()] {
			return Sinks{}, false
		}
		seen := map[ssa.Value]bool{}
		work := []ssa.Value{v}
		for len(work) > 0 {
			u := work[0]
			work = work[1:]
			if seen[u] {
				continue
			}
			seen[u] = true
			if u.Referrers() == nil {
				continue
			}
			for _, r := range *u.Referrers() {
				switch in := r.(type) {
				case *ssa.DebugRef:
				case *ssa.BinOp:
					if mayPanic(in) {
						return Sinks{}, false
					}
					work = append(work, in)
				case *ssa.UnOp:
					if in.Op == token.MUL || in.Op == token.ARROW {
						return Sinks{}, false
					}
					work = append(work, in)
				case *ssa.Convert:
					work = append(work, in)
				case *ssa.ChangeType:
					work = append(work, in)
				case *ssa.Call:
					bi, isBi := in.Common().Value.(*ssa.Builtin)
					if !isBi || bi.Name() != "len" && bi.Name() != "cap" {
						return Sinks{}, false
					}
					work = append(work, in)
				case *ssa.FieldAddr, *ssa.IndexAddr:
					addr := in.(ssa.Value)
					if addr.Referrers() == nil {
						return Sinks{}, false
					}
					for _, s := range *addr.Referrers() {
						st, isStore := s.(*ssa.Store)
						if _, dbg := s.(*ssa.DebugRef); dbg {
							continue
						}
						if !isStore || st.Addr != addr || st.Val == addr {
							return Sinks{}, false
						}
						sites := []string{x.site(addr.Pos()), x.site(st.Pos())}
						add(sites[0])
						add(sites[1])
						sk.Must = append(sk.Must, sites)
					}
				case *ssa.Store:
					if in.Addr == u {
						// A store through the value: its address.
						return Sinks{}, false
					}
					// The value stored: the store must show in the
					// trace (a local the instrumentation does not
					// record, loaded again later, would carry it on).
					sites := []string{x.site(in.Pos())}
					switch a := in.Addr.(type) {
					case *ssa.FieldAddr:
						sites = append(sites, x.site(a.Pos()))
					case *ssa.IndexAddr:
						sites = append(sites, x.site(a.Pos()))
					}
					for _, st := range sites {
						add(st)
					}
					sk.Must = append(sk.Must, sites)
				case *ssa.If:
					locs, stores, decides := x.decidesStores(in)
					if !decides {
						return Sinks{}, false
					}
					sk.Decided = append(sk.Decided, locs...)
					for _, st := range stores {
						add(st)
					}
				default:
					return Sinks{}, false
				}
			}
		}
	}
	return sk, true
}

// mayPanic reports whether the binary operation can panic: an integer
// division or remainder (by zero), a shift (by a negative count).
func mayPanic(b *ssa.BinOp) bool {
	switch b.Op {
	case token.QUO, token.REM, token.SHL, token.SHR:
		return true
	}
	return false
}

// decidesStores reports whether the branch f decides nothing but plain
// stores into fields of a parameter (or free variable: one value in the
// whole activation) or into globals, each of them accessed also in a
// block dominating f's (where the replay's trace names its object
// before the branch, whichever way it goes, and which shows the field's
// address did not panic): each arm that is not the join is a block
// entered only from f that falls through to the join (an if without
// else, or both arms meeting), holding only those stores, their address
// computations, loads of such fields or of globals, and arithmetic that
// cannot panic. It gives, per location, the sites of those dominating
// accesses, and the stores' own sites (a store the branch made is a sink
// like any other).
func (x *Index) decidesStores(f *ssa.If) (locs [][]string, stores []string, ok bool) {
	t, e := f.Block().Succs[0], f.Block().Succs[1]
	var arms []*ssa.BasicBlock
	switch {
	case len(t.Succs) == 1 && t.Succs[0] == e:
		arms = []*ssa.BasicBlock{t}
	case len(e.Succs) == 1 && e.Succs[0] == t:
		arms = []*ssa.BasicBlock{e}
	case len(t.Succs) == 1 && len(e.Succs) == 1 && t.Succs[0] == e.Succs[0]:
		arms = []*ssa.BasicBlock{t, e}
	default:
		return nil, nil, false
	}
	for _, arm := range arms {
		if len(arm.Preds) != 1 || arm.Preds[0] != f.Block() {
			return nil, nil, false
		}
		for _, in := range arm.Instrs {
			switch v := in.(type) {
			case *ssa.DebugRef, *ssa.Jump:
			case *ssa.BinOp:
				if mayPanic(v) {
					return nil, nil, false
				}
			case *ssa.UnOp:
				if v.Op == token.ARROW {
					return nil, nil, false
				}
				if v.Op == token.MUL {
					switch v.X.(type) {
					case *ssa.FieldAddr, *ssa.Global: // checked as its own instruction, or no panic
					default:
						return nil, nil, false
					}
				}
			case *ssa.FieldAddr:
				// A field accessed before the branch too: no nil
				// pointer here.
				if x.witnesses(v, f.Block()) == nil {
					return nil, nil, false
				}
			case *ssa.Store:
				w := x.witnesses(v.Addr, f.Block())
				if w == nil {
					return nil, nil, false
				}
				locs = append(locs, w)
				stores = append(stores, x.site(v.Pos()))
				if fa, ok := v.Addr.(*ssa.FieldAddr); ok {
					stores = append(stores, x.site(fa.Pos()))
				}
			default:
				return nil, nil, false
			}
		}
	}
	return locs, stores, true
}

// witnesses gives the sites of the accesses (loads and stores) of the
// location addr names, a field of a parameter or free variable or a
// global, in blocks of its function that dominate blk; nil when addr is
// anything else or no such access exists.
func (x *Index) witnesses(addr ssa.Value, blk *ssa.BasicBlock) []string {
	var out []string
	same := func(p ssa.Value) bool {
		switch a := addr.(type) {
		case *ssa.Global:
			return p == a
		case *ssa.FieldAddr:
			q, ok := p.(*ssa.FieldAddr)
			switch a.X.(type) {
			case *ssa.Parameter, *ssa.FreeVar:
				return ok && q.X == a.X && q.Field == a.Field
			}
		}
		return false
	}
	for _, b := range blk.Parent().Blocks {
		if !b.Dominates(blk) {
			continue
		}
		for _, in := range b.Instrs {
			var p ssa.Value
			switch v := in.(type) {
			case *ssa.UnOp:
				if v.Op == token.MUL {
					p = v.X
				}
			case *ssa.Store:
				p = v.Addr
			}
			if p == nil || !same(p) {
				continue
			}
			pos := in.Pos()
			if fa, ok := p.(*ssa.FieldAddr); ok {
				pos = fa.Pos()
			}
			if pos.IsValid() {
				out = append(out, x.site(pos))
			}
		}
	}
	return out
}

// unusedRead reports whether the value the read r finds between the
// unit's two writes is used by no one: the replay's trace shows every
// store its value reaches dead (Event.Unused, filled from the trace with
// UnusedSinks), and the static side still finds nothing else it reaches.
//
// The shape: goresilience's circuit breaker (slok/goresilience v0.2.0,
// circuitbreaker/metrics.go:95 and :99) calls recorder.reset() twice in
// one Run (moveState to half-open, then to the decided state); each reset
// installs under b.mu a fresh window, current bucket and next index. The
// window slider's tick between them reads the window (:63) and the next
// index (:69) and only writes from them: a new bucket into that window's
// array, the index wrapped to 0. The second reset stores the window and
// the index again before anyone reads what the tick wrote, and the first
// reset's array is reached by nothing after it.
//
// The rule: r's value reaches, in r's own activation, only stores (their
// values or addresses) and branches deciding only stores into fields of
// a parameter or into globals (UnusedSinks), through nothing that can
// panic; and the replay's trace shows each store whose address the value
// computes, or that stores the value itself, made and recorded (so that
// address did not panic, and the location's next access shows), and
// each store its goroutine made from r's value (from r to its next read
// at r's site in the same activation, or the activation's end) dead: the
// next access of what it wrote, by anyone, is a plain write of it, or
// there is none to the end of a run that ended normally and went on past
// the unit's goroutine's end; and each location a deciding branch could
// store into (its object named by the reader's access of it before the
// branch) dead from r on, whichever way the branch went.
//
// Why sound: a value is used only by what reads it, and every path out
// of r's value is a store, reached with no panic it could decide (the
// stores it addresses ran; no division or shift on it; a deciding
// branch's arms touch only fields accessed before the branch). A dead
// store's value is read by no one: the next access replaced it, or none
// came before the program ended. A branch deciding only stores changes
// only their locations, which the trace shows dead from r on whichever
// way it went. So nothing anyone read in the replayed run depends on
// what r read: the intermediate state was seen and thrown away; a run in
// which r's goroutine read anything else reads the same everywhere.
//
// What it does not claim: a value that reaches a call (a method of its
// own may do anything), a load through it (the object's contents are
// used), a phi (carried round the reader's loop), a return or send; a
// branch deciding anything but such stores; a store whose location
// someone reads next (the unit's own reads between included: when the
// tick runs before the unit's inc and totalRequests, the unit reads the
// tick's bucket, and the read stays judged); a trace cut short.
// Accesses the instrumentation does not record are unseen, as for every
// judge of the replay's trace.
func (x *Index) unusedRead(r Event) bool {
	if !r.Unused || !r.Read || r.Write {
		return false
	}
	_, ok := x.UnusedSinks(r.Site)
	return ok
}
