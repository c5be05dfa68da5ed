package depend

import (
	"go/constant"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// failedAsBefore reports whether a violation of two units, R and W, is
// one where R ran wholly before W as far as its events show: every
// event of R after W's first (Event.Late) reads and writes nothing,
// and either reads what it would before W began (Kept: no goroutine
// wrote its variable from W's first step up to it), or is a
// compare-and-swap that failed in the replay (a failed CAS is recorded
// as a load, so the event does not write) whose expected value is a
// constant that no value stored by the last write before W began
// (Before) can equal; and one of them at least is such a CAS.
//
// Why that is sound: a compare-and-swap returns one bit, whether it
// swapped, and a failed one writes nothing. The replay shows it failed
// on the value it read, whatever W's unit left there; run before W, it
// reads the value the last write before W stored, which differs from
// its expected value, so it fails there too: the same bit, no write,
// whatever its goroutine does with the bit. R's other late events read
// the value they would read before W, and none of R's late events
// writes, so W's events read what they would with R before them. Every
// event of the pattern then behaves as in the serial order R, W: no
// value either unit uses is changed by the interleaving. hollywood's
// Inbox: a Send's CompareAndSwapInt32(&procStatus, idle, running)
// (inbox.go:68) between Start's CAS from stopped to starting and its
// swap to idle fails on starting as it fails on stopped (or on the
// running of the process that stops and restarts), and Start's own
// schedule() then drains what the Send pushed. A CAS that the
// intermediate value lets swap (it writes, so it is no failed CAS
// here), or whose expected value the value before W can equal, or a
// value before W the schedule does not show or that is not a constant,
// stays judged.
func (x *Index) failedAsBefore(evs []Event) bool {
	type unit struct{ t, ar int }
	var units []unit
	for _, e := range evs {
		if u := (unit{e.Thread, e.Unit}); !slices.Contains(units, u) {
			units = append(units, u)
		}
	}
	if len(units) != 2 {
		return false
	}
	// R is either unit: its late events are those after the other's first.
	for _, r := range units {
		cas, ok := false, true
		for _, e := range evs {
			if !e.Late || (unit{e.Thread, e.Unit}) != r {
				continue
			}
			if e.Write || !e.Read {
				ok = false
			} else if x.failsBefore(e) {
				cas = true
			} else if !e.Kept {
				ok = false
			}
		}
		if ok && cas {
			return true
		}
	}
	return false
}

// failsBefore reports whether e, a compare-and-swap that failed in the
// replay, compares with a constant that no value stored at e.Before
// can equal.
func (x *Index) failsBefore(e Event) bool {
	if e.Before == "" || !x.onlyCAS(e.Site) {
		return false
	}
	old, _ := x.casExpected(e.Site)
	if old == nil {
		return false
	}
	vs, ok := x.storedWhole(e.Before)
	if !ok {
		return false
	}
	c := joinAll([]ssa.Value{old})
	for _, v := range vs {
		// Each stored value on its own: a join of two constants may
		// know too few bits to tell them from c.
		eq := compare(token.EQL, joinAll([]ssa.Value{v}), c)
		if !eq.ok || len(eq.set) != 1 || eq.set[0].Kind() != constant.Bool || constant.BoolVal(eq.set[0]) {
			return false
		}
	}
	return true
}

// onlyCAS reports whether the only sync/atomic call at site is one
// compare-and-swap: the event recorded there is that CAS, and a load
// recorded there is its failure.
func (x *Index) onlyCAS(site string) bool {
	n := 0
	for _, in := range x.instrs[site] {
		call, ok := in.(*ssa.Call)
		if !ok || atomicName(call.Common().StaticCallee()) == "" {
			continue
		}
		if !isAtomicCAS(call.Common().StaticCallee()) {
			return false
		}
		n++
	}
	return n == 1
}

// storedWhole returns the values the writes at site store, when each
// replaces its variable's whole value: a plain store, an atomic Store or
// Swap, a compare-and-swap's new value; false when the site holds
// another write (an atomic Add stores a sum, not its argument) or none.
func (x *Index) storedWhole(site string) ([]ssa.Value, bool) {
	for _, in := range x.instrs[site] {
		call, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		switch n := atomicName(call.Common().StaticCallee()); {
		case strings.HasPrefix(n, "Add"), strings.HasPrefix(n, "And"), strings.HasPrefix(n, "Or"):
			return nil, false
		}
	}
	vs := x.stored(site)
	return vs, len(vs) > 0
}
