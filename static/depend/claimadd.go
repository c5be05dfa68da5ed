package depend

// claimAdd reports whether a is a compare-and-swap that swapped and b an
// atomic add whose result the unit drops (blindAdd), with every write of
// b's variable in the replayed schedule from a to b an add whose result
// its goroutine drops too (b's Prior, which must be known). Then no
// check-then-act from a to b holds: what the swap gives the unit is its
// success, decided at a together with the unit's own write of a's
// variable, which no later write can undo (a later write replaces the
// unit's value, as in the serial order with the unit first, cf.
// Overwrite); and b reads nothing for the unit and commutes with each of
// those adds, so b, and the sum it leaves, are what that serial order
// gives. amirylm/lockfree's Pop, `if s.head.CompareAndSwap(h, next) { _ =
// s.size.Add(-1) … }`, with another Push's CAS and `_ = s.size.Add(1)`
// between (stack.go:63 asv, triaged false). What others read between a
// and b (the size before the add) is judged apart, as their
// intermediate state or inconsistent snapshot: a Push's Full() reading
// the size between another Push's CAS and add (stack.go:46 asv, true)
// stays reported. A swap whose act is a store or a used add, or another
// write of b's variable between that is not a dropped add (a Store, an
// add whose result decides something), stays judged.
func (x *Index) claimAdd(a, b Event) bool {
	if !a.Read || !a.Write || !x.IsCAS(a.Site) || !x.blindAdd(b) || b.Prior == nil {
		return false
	}
	for _, w := range b.Prior {
		if w.Step > a.Step && w.Step < b.Step && !x.blindAdd(Event{Read: true, Write: true, Site: w.Site}) {
			return false
		}
	}
	return true
}
