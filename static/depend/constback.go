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
// goroutine's c it reads, it reads c, as in the serial order. A write
// between of another value, an atomic add, a write whose value is not a
// constant, or a schedule not known stays judged.
func (x *Index) constBack(a, b Event) bool {
	if !a.Write || !b.Read || a.Var != b.Var || b.Prior == nil {
		return false
	}
	c := x.constStored(a.Site)
	if c == nil {
		return false
	}
	sawA := false
	for _, w := range b.Prior {
		switch {
		case w.Step == a.Step:
			sawA = true
		case w.Step > a.Step && !sameConst(c, x.constStored(w.Site)):
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
