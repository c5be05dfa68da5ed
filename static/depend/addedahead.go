package depend

// addedAhead reports whether an inconsistent snapshot's reader, r1 of
// b's variable then r2 of a's, read nothing of the unit's writes a and
// b, and b breaks nothing the reader still counts on: r2 is an atomic
// add whose result the reader drops, as a is (blindAdd: the two commute,
// so r2 tells the reader nothing of a, and may as well come before it);
// the replay shows no write of r1's variable from a up to r1
// (Event.Prior), so r1 read what it would have read just before a, and
// b comes after it; and the reader took its add back and released the
// locks it took before b (Event.GivenBack). The reader's view is the
// state before both writes, a serial order's, reader first, and what it
// found served it out before b. moby/locker's Lock finds the name's
// entry under the map's lock and adds itself as a waiter (locker.go:78,
// :41) between another Lock..Unlock's add (:41) and its Unlock's delete
// (:106); the delete comes only when the count, which holds the
// reader's add, says no one waits: after the reader's Unlock.
//
// It is the mirror of blindAdd's case of a reader whose second access
// and the unit's second write are both blind adds. A reader still
// counted at b stays judged: the unit deleted an entry someone waits on
// (an Unlock that deletes whatever the count says, or reads it before
// the reader's add: TestJudgeAddedAhead, TestGivenBack). A state the
// unit made before a and the reader saw (moby's Lock that made the
// entry at locker.go:81, found by the reader) is the pattern of that
// earlier write and b, judged on its own. A write of r1's variable
// between a and r1, by anyone, keeps the pair judged: r1 may have read
// the unit's.
func (x *Index) addedAhead(a, r1, r2, b Event) bool {
	return r1.Var == b.Var && r2.Var == a.Var && a.Var != b.Var && r2.GivenBack && r1.Prior != nil && len(r1.Prior) == 0 && x.blindAdd(r2) && x.blindAdd(a)
}
