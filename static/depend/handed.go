package depend

import (
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// handedOn reports whether b, the unit's read-back of the variable its
// event a wrote, is one the replay shows handed on (Event.Handed): the
// count the unit read back held other goroutines' registrations as
// waiters for a lock the unit held, so the unit did nothing with it
// before it let the lock go, and the same code, run by the next holders
// of the lock, read the count again there until one read what the unit
// alone would have read. moby/locker's Unlock keeps the name's entry
// while another Lock of the name waits (its AddInt32 of waiters under
// the map's lock), and that Lock's own Unlock deletes it: the decision
// the unit skipped is made, on the unit's own value, by the code that
// makes it. Every write of the count the replay shows from a to that
// last read is an atomic add of a constant (AddDelta), so its values
// are known without the values. Another goroutine that holds no lock at
// the read-back and whose adds between the unit's write and its
// read-back net to zero (a whole Lock..Unlock of the name, run before the
// unit took the name's lock), or whose adds up to the read-back do (the
// holder the unit waited for, counted before the unit's write, its
// take-back between), changed the count only by a registration that is
// over: it is left out, and with only such goroutines between, the unit
// read back its own value on the count without them. One still holding
// a lock there (testdata/src's waitgate: the second user inside when the
// first reads the count after its release) is not.
func handedOn(evs []Event, i, j int) bool {
	return slices.Contains(evs[j].Handed, i)
}

// AddDelta returns the constant that the atomic add at site adds
// (sync/atomic's AddInt32 …, or an atomic type's Add), when it is a
// constant of a signed integer type.
func (x *Index) AddDelta(site string) (int64, bool) {
	var d int64
	found := false
	for _, in := range x.instrs[site] {
		c, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		com := c.Common()
		if !strings.HasPrefix(atomicName(com.StaticCallee()), "Add") || len(com.Args) != 2 {
			continue
		}
		k, ok := com.Args[1].(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
			return 0, false
		}
		v, exact := constant.Int64Val(k.Value)
		if b, ok := k.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsUnsigned != 0 || !exact {
			// An unsigned add of ^uint32(0) subtracts one: left out.
			return 0, false
		}
		if found && v != d {
			return 0, false
		}
		d, found = v, true
	}
	return d, found
}
