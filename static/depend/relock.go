package depend

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// relockedHint reports whether b, a read that a's stale value led the
// unit to, opens a wake-up hint: b's method (taking nothing but its
// receiver, so a's value reaches it only as the decision to call it)
// re-takes a lock, returns nothing (what it reads goes no further), tests b's variable afresh under it (b reads the
// other goroutine's write, not a snapshot from a's time), and all it
// does besides is set that variable and wake a receiver (a channel send
// or close), every receiver of which reads a's variable again itself.
// Nothing the method writes holds a's value, and what the hint asks for
// is done on fresh state: a's staleness can only make a wake-up
// redundant (ttlcache's SetWithTTL reads the queue's root, unlocks, and
// calls notifyExpiration, which tests hasNotified under the lock, sets
// it and sends; the expiration loop resets the flag and re-reads the
// queue under the lock). A method that, past its fresh test, acts on
// a's variable (pops what a saw), or writes anything else, stays judged.
func (x *Index) relockedHint(a, b Event, h how) bool {
	if h.kind != "check-then-act" || b.Write || len(b.Frames) == 0 {
		return false
	}
	inner := b.Frames[len(b.Frames)-1]
	for _, f := range a.Frames {
		if f.ID == inner.ID {
			return false
		}
	}
	g := x.function(inner.Site)
	if g == nil || g.Signature.Recv() == nil || len(g.Params) != 1 || g.Signature.Results().Len() != 0 {
		return false
	}
	locA := x.siteLocation(a.Site, nil)
	locB := x.siteLocation(b.Site, g)
	if locA == nil || locB == nil || locA == locB {
		return false
	}
	// b's read in g, after a lock g takes.
	var read ssa.Instruction
	for _, in := range x.instrs[b.Site] {
		if in.Parent() == g && loadedAddr(valueOf(in)) != nil {
			read = in
		}
	}
	if read == nil || !lockedBefore(g, read) || !x.tests(b) {
		return false
	}
	chans := map[*types.Var]bool{}
	if !onlyHint(g, locA, locB, chans, 3) {
		return false
	}
	for f := range chans {
		if !x.receiversReread(f, locA) {
			return false
		}
	}
	return true
}

func valueOf(in ssa.Instruction) ssa.Value {
	v, _ := in.(ssa.Value)
	return v
}

// siteLocation names the variable the access at site reads or writes
// (in fn, when fn is not nil), as accessLocation does; nil when the
// instructions there name none or more than one.
func (x *Index) siteLocation(site string, fn *ssa.Function) any {
	var loc any
	for _, in := range x.instrs[site] {
		if fn != nil && in.Parent() != fn {
			continue
		}
		var l any
		if v := valueOf(in); v != nil {
			if addr := loadedAddr(v); addr != nil {
				l = accessLocation(addr)
			}
		}
		if l == nil {
			l = writtenLocation(in)
		}
		if l == nil {
			continue
		}
		if loc != nil && loc != l {
			return nil
		}
		loc = l
	}
	return loc
}

// accessLocation is addrLocation, also for an element of a slice or
// array held in a field (pq.items[0]: the field items).
func accessLocation(addr ssa.Value) any {
	if ia, ok := addr.(*ssa.IndexAddr); ok {
		if u, ok := ia.X.(*ssa.UnOp); ok && u.Op == token.MUL {
			return addrLocation(u.X)
		}
		return addrLocation(ia.X)
	}
	return addrLocation(addr)
}

// lockedBefore reports whether a Lock or RLock of a sync.Mutex or
// RWMutex call in fn dominates in.
func lockedBefore(fn *ssa.Function, in ssa.Instruction) bool {
	for _, blk := range fn.Blocks {
		for i, l := range blk.Instrs {
			c, ok := l.(*ssa.Call)
			if !ok || !isLock(c.Common().StaticCallee()) {
				continue
			}
			if blk == in.Block() {
				if i < indexOf(blk, in) {
					return true
				}
			} else if blk.Dominates(in.Block()) {
				return true
			}
		}
	}
	return false
}

func isLock(fn *ssa.Function) bool {
	return isSyncMethod(fn, "Mutex", "Lock") || isSyncMethod(fn, "RWMutex", "Lock") || isSyncMethod(fn, "RWMutex", "RLock")
}

func isLockOp(fn *ssa.Function) bool {
	return isLock(fn) || isSyncMethod(fn, "Mutex", "Unlock") || isSyncMethod(fn, "RWMutex", "Unlock") || isSyncMethod(fn, "RWMutex", "RUnlock")
}

// onlyHint reports whether fn (and the functions it calls, depth levels
// down) reads nothing at locA and writes only locB, besides sending on
// or closing channels, whose fields it adds to chans, and taking and
// releasing locks.
func onlyHint(fn *ssa.Function, locA, locB any, chans map[*types.Var]bool, depth int) bool {
	if fn == nil || fn.Blocks == nil || depth == 0 {
		return false
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			if v := valueOf(in); v != nil {
				if addr := loadedAddr(v); addr != nil && accessLocation(addr) == locA {
					return false
				}
			}
			switch in := in.(type) {
			case *ssa.Store:
				if l := accessLocation(in.Addr); l != locB {
					if al, ok := in.Addr.(*ssa.Alloc); !ok || al.Heap {
						return false
					}
				}
			case *ssa.MapUpdate:
				return false
			case *ssa.Send:
				f := chanField(in.Chan)
				if f == nil {
					return false
				}
				chans[f] = true
			case ssa.CallInstruction:
				com := in.Common()
				if bi, ok := com.Value.(*ssa.Builtin); ok {
					switch bi.Name() {
					case "close":
						f := chanField(com.Args[0])
						if f == nil {
							return false
						}
						chans[f] = true
					case "len", "cap":
					default:
						return false
					}
					continue
				}
				callee := com.StaticCallee()
				switch {
				case isLockOp(callee):
				case atomicName(callee) != "":
					if isAtomicWrite(callee) && (len(com.Args) == 0 || accessLocation(com.Args[0]) != locB) {
						return false
					}
				case !onlyHint(callee, locA, locB, chans, depth-1):
					return false
				}
			}
		}
	}
	return true
}

// receiversReread reports whether every function that receives from the
// channel field f (a receive or a select's case) reads loc itself, in
// its body or the functions it calls: a woken receiver decides on the
// state afresh. With no receiver found, no claim.
func (x *Index) receiversReread(f *types.Var, loc any) bool {
	found := false
	for _, fn := range x.all {
		recv := false
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				switch in := in.(type) {
				case *ssa.UnOp:
					recv = recv || in.Op == token.ARROW && chanField(in.X) == f
				case *ssa.Select:
					for _, st := range in.States {
						recv = recv || st.Dir == types.RecvOnly && chanField(st.Chan) == f
					}
				}
			}
		}
		if !recv {
			continue
		}
		found = true
		if !readsLoc(fn, loc, 3, map[*ssa.Function]bool{}) {
			return false
		}
	}
	return found
}

// readsLoc reports whether fn, or a function it calls (depth levels
// down), reads loc.
func readsLoc(fn *ssa.Function, loc any, depth int, seen map[*ssa.Function]bool) bool {
	if fn == nil || fn.Blocks == nil || depth < 0 || seen[fn] {
		return false
	}
	seen[fn] = true
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			if v := valueOf(in); v != nil {
				if addr := loadedAddr(v); addr != nil && accessLocation(addr) == loc {
					return true
				}
			}
			if c, ok := in.(ssa.CallInstruction); ok && readsLoc(c.Common().StaticCallee(), loc, depth-1, seen) {
				return true
			}
		}
	}
	for _, an := range fn.AnonFuncs {
		if readsLoc(an, loc, depth, seen) {
			return true
		}
	}
	return false
}
