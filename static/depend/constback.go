package depend

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// constBack reports whether the unit's read-back b of the variable it
// wrote at a reads the very value its own write left: a stores one
// constant c (nil, a flag's value), and every write of the variable the
// replayed schedule shows between a and b (Event.Prior) stores c too
// (tally's clearMetrics sets countersSlice = nil; a concurrent
// clearMetrics of the same closed scope stores nil again before the
// unit's next report ranges over the slice, scope.go:553 av). Whichever
// goroutine's c it reads, it reads c, as in the serial order. A setter's
// parameter counts as the constant its callers pass, for a and for the
// pattern's own writes between, whose frames say which activation
// called it (constOf: hashicorp/raft's setLeader("", "") from
// runFollower, then Shutdown's and setState's, all the empty leader). A
// write between of another value, an atomic add, a write whose value is
// not a constant, or a schedule not known stays judged.
func (x *Index) constBack(evs []Event, i, j int) bool {
	a, b := evs[i], evs[j]
	if !a.Write || !b.Read || a.Var != b.Var || b.Prior == nil {
		return false
	}
	c := x.constOf(a)
	if c == nil {
		return false
	}
	return x.storedSince(evs, a, c, b.Prior)
}

// storedSince reports whether a read whose schedule's prior writes are
// prior reads c: a is among them, and every later one stores c too.
func (x *Index) storedSince(evs []Event, a Event, c *ssa.Const, prior []Touch) bool {
	sawA := false
	for _, w := range prior {
		switch {
		case w.Step == a.Step:
			sawA = true
		case w.Step > a.Step && !sameConst(c, x.constTouch(evs, w, a.Var)):
			return false
		}
	}
	return sawA
}

// constStored returns the constant every write at site stores (a plain
// store, an atomic Store, Swap or compare-and-swap's new value), the
// zero value of a type (a nil slice) included, or nil when a write
// there stores anything else or the site holds no write.
func (x *Index) constStored(site string) *ssa.Const {
	var c *ssa.Const
	for _, v := range x.stored(site) {
		k, ok := unconvert(v).(*ssa.Const)
		if !ok || c != nil && !sameConst(c, k) {
			return nil
		}
		c = k
	}
	return c
}

// oneStop gathers the constant that a run of writes stores (a stop
// flag's stop value), as long as every write stores that one non-zero
// constant: stores reports whether the write at site does.
type oneStop struct {
	x *Index
	c *ssa.Const
}

func (o *oneStop) stores(site string) bool {
	k := o.x.constStored(site)
	if k == nil || k.Value == nil || o.c != nil && !sameConst(o.c, k) {
		return false
	}
	o.c = k
	return true
}

// sameConst reports whether c and k are one value: equal constants of
// identical types, or both the zero value (Value nil) of one type.
func sameConst(c, k *ssa.Const) bool {
	if c == nil || k == nil || !types.Identical(c.Type(), k.Type()) {
		return false
	}
	if c.Value == nil || k.Value == nil {
		return c.Value == nil && k.Value == nil
	}
	return c.Value.Kind() == k.Value.Kind() && constant.Compare(c.Value, token.EQL, k.Value)
}

// rangesNil reports whether b loads a slice only to range over it and
// read what the last write before it left, a store of nil (Event.Prior):
// the loop runs no round, so nothing b read is used, whatever decided
// the call that loads it (tally's cached report of a closed scope, which
// the registry's range still held when another report's clearMetrics set
// its gaugesSlice to nil, scope_registry.go:140 asv). A slice also
// measured or handed on, or a last write of anything but nil, stays
// judged.
func (x *Index) rangesNil(b Event) bool {
	if !b.Read || b.Write || len(b.Prior) == 0 {
		return false
	}
	last := b.Prior[0]
	for _, w := range b.Prior[1:] {
		if w.Step > last.Step {
			last = w
		}
	}
	if !x.storesZero(last.Site) {
		return false
	}
	ld := x.sliceLoad(b.Site)
	if ld == nil || ld.Referrers() == nil {
		return false
	}
	ranged := false
	for _, r := range *ld.Referrers() {
		switch r := r.(type) {
		case *ssa.IndexAddr:
			if r.Block().Comment != "rangeindex.body" {
				return false
			}
		case *ssa.Call:
			if !loopBound(r) {
				return false
			}
			ranged = true
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return ranged
}
