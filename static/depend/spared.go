package depend

// spared reports whether b, the unit's write that a lost write would
// overwrite another goroutine's write with, writes one map element that
// no other goroutine's write still held: b is only a store into one map
// element or only a delete of one (insertsInto, deletesFrom), and the
// replay's trace shows (Event.Spares) that every write of the map by
// another goroutine from the pattern's first step up to b wrote one
// element, and that at b's element either none did (keys apart: a
// delete of one lock's record after another goroutine inserted another
// lock's), or the last of them deleted it and b's goroutine wrote it
// again after that delete, so that b replaces the unit's own write,
// made on an element the others had left absent (heldlockfixed: the
// unit's Lock ranges over the held locks, another goroutine locks and
// unlocks the same lock, inserting its record and deleting it, then the
// unit's Lock inserts its own record and its Unlock deletes it). A map
// write replaces its element only, so after b every element the others
// wrote is as they left it: no write of theirs is lost. Whether the
// unit's own earlier write lost one is that write's question (an insert
// after another goroutine's delete is judged as the pattern it is), and
// whether a's stale value decided b is check-then-act's, asked before.
// Not spared: another goroutine's whole-map write (a clear), its store
// at b's element still there at b (lost), or its delete of b's element
// followed by b's own delete with no write of the unit's between (two
// goroutines taking one entry, each using what it read).
func (x *Index) spared(b Event) bool {
	if !b.Spares {
		return false
	}
	if _, ok := x.insertsInto(b.Site); ok {
		return true
	}
	_, ok := x.deletesFrom(b.Site)
	return ok
}

// DeletesElement reports whether every write at site deletes one map
// element (delete(m, k) on a struct field's or package variable's map).
func (x *Index) DeletesElement(site string) bool {
	_, ok := x.deletesFrom(site)
	return ok
}
