package depend

import (
	"go/constant"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// undone reports whether b undoes a: both add a constant to the variable
// they write (`v++`, `v -= 2`, an atomic Add of a constant), and the two
// constants cancel. Such a pair is a reservation the unit takes and
// gives back (redigo's GetContext: `p.active++` under the lock, dial,
// and on failure `p.active--` under it again): the count between them
// holds the unit's claim on a slot, which other goroutines are meant to
// see (and to be refused a slot by), not half of an update. Each write
// is a whole read-modify-write of its own, so no value of the unit is
// lost either way.
func (x *Index) undone(a, b Event) bool {
	da, ok := x.delta(a.Site)
	if !ok {
		return false
	}
	db, ok := x.delta(b.Site)
	if !ok {
		return false
	}
	sum := constant.BinaryOp(da, token.ADD, db)
	return sum.Kind() == constant.Int && constant.Sign(sum) == 0
}

// delta is the constant that the write at site adds to its variable: the
// store of `v + c` or `v - c` where v is loaded from the address stored
// to, or an atomic Add of a constant. ok is false when the site holds
// another write, or more than one.
func (x *Index) delta(site string) (d constant.Value, ok bool) {
	n := 0
	for _, in := range x.instrs[site] {
		switch in := in.(type) {
		case *ssa.Store:
			n++
			bin, isBin := in.Val.(*ssa.BinOp)
			if !isBin || bin.Op != token.ADD && bin.Op != token.SUB {
				return nil, false
			}
			load, isLoad := bin.X.(*ssa.UnOp)
			c, isConst := bin.Y.(*ssa.Const)
			if !isLoad || load.Op != token.MUL || !isConst || c.Value == nil || c.Value.Kind() != constant.Int || !sameAddr(load.X, in.Addr) {
				return nil, false
			}
			d = c.Value
			if bin.Op == token.SUB {
				d = constant.UnaryOp(token.SUB, d, 0)
			}
		case *ssa.Call:
			fn := in.Common().StaticCallee()
			if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync/atomic" || !strings.HasPrefix(fn.Name(), "Add") {
				continue
			}
			n++
			args := in.Common().Args
			if len(args) != 2 {
				return nil, false
			}
			c, isConst := unconvert(args[1]).(*ssa.Const)
			if !isConst || c.Value == nil || c.Value.Kind() != constant.Int {
				return nil, false
			}
			d = c.Value
		}
	}
	return d, n == 1
}

// blindAdd reports whether the event at e is an atomic Add whose result
// the unit drops (`p.workerCount.Add(1)` as a statement): it reads the
// variable only to add to it, and gives the unit nothing of its value.
// Two such adds commute: either order leaves the same sum and tells
// neither goroutine anything.
func (x *Index) blindAdd(e Event) bool {
	if !e.Read || !e.Write {
		return false
	}
	n := 0
	for _, in := range x.instrs[e.Site] {
		switch in := in.(type) {
		case *ssa.Store, *ssa.MapUpdate:
			return false
		case *ssa.Call:
			if !strings.HasPrefix(atomicName(in.Common().StaticCallee()), "Add") {
				return false
			}
			if refs := in.Referrers(); refs != nil && len(*refs) > 0 {
				return false
			}
			n++
		}
	}
	return n > 0
}
